"""Seeded generators of rule instances for the differential fuzzer (fuzz.py).

Each generator writes one kernel in the form its rule matches, or a near miss of it,
with every choice drawn from a seeded random.Random and recorded as a branch label
("butterfly:op=max"), so that a run reports which branches of the generator it covered.
Every kernel has the same parameters: `in` and `out` (the value type, one element per
thread), `aux` (uint: a guard flag per thread, then four counters past the dispatch).
"""

import random

TYPES = {"uint": "uint", "int": "int", "float": "float"}
ZERO = {"uint": "0u", "int": "0", "float": "0.f"}
ONE = {"uint": "1u", "int": "1", "float": "1.f"}


class Instance:
    """One generated kernel: its body, what it needs, and which branches chose it."""

    def __init__(self, rule, name, vtype, allowed="Nothing", block=0, warp=0):
        self.rule, self.name, self.vtype = rule, name, vtype
        self.allowed, self.block, self.warp = allowed, block, warp
        self.whole_blocks = False
        self.lines = []          # the kernel body, one statement a line
        self.branches = set()
        self.optional = []       # (label, line indices) that the shrinker may drop

    def pick(self, r, label, choices):
        value = r.choice(choices)
        self.branches.add(f"{self.rule}:{label}={value}")
        return value

    def flip(self, r, label, p=0.5):
        value = r.random() < p
        self.branches.add(f"{self.rule}:{label}={'yes' if value else 'no'}")
        return value

    def source(self, drop=()):
        t = self.vtype
        block = f"{self.block}u" if self.block else "block_size"
        head = [f"    return [=](BufferVar<{t}> in, BufferVar<{t}> out, BufferUInt aux) noexcept {{",
                f"        set_block_size({block}, 1u, 1u);"]
        if self.warp:
            head.append(f"        set_warp_size({self.warp}u);")
        dropped = {i for label, idx in self.optional if label in drop for i in idx}
        body = ["        " + line for i, line in enumerate(self.lines) if i not in dropped]
        return (f"Kernel1D<Buffer<{t}>, Buffer<{t}>, Buffer<uint>> {self.name}(uint block_size) {{\n"
                + "\n".join(head + body) + "\n    };\n}\n")


def value_type(inst, r, allow_float=True, widen=False):
    """The value type; with `widen`, some become half or a vector of 2 to 4 (drawn from a
    random stream of their own, so that the other choices of an instance stay the same)."""
    t = inst.pick(r, "type", ["uint", "int", "float"] if allow_float else ["uint", "int"])
    return widened(inst, t) if widen else t


def widened(inst, t):
    """`t`, or half or a vector of 2 to 4 in its place (a random stream of its own)."""
    w = random.Random(f"{inst.name}/widen")
    shape = w.choice(["scalar", "scalar", "half", "vector", "vector"] if t == "float" else
                     ["scalar", "scalar", "vector"])
    if shape == "half":
        t = "half"
    elif shape == "vector":
        t = t + str(w.choice([2, 3, 4])) if w.random() < 0.7 or t != "float" else "half" + str(w.choice([2, 4]))
    # One branch per kind (half, a vector of half, float or integers), not per type:
    # CI's covering set stays small.
    kind = ("half-" if scalar_of(t) == "half" else "float-" if scalar_of(t) == "float" else "integer-") + \
        ("scalar" if dim_of(t) == 1 else "vector")
    inst.branches.add(f"{inst.rule}:wide-type={kind}")
    return t


def scalar_of(t):
    return t.rstrip("234")


def dim_of(t):
    return int(t[-1]) if t[-1] in "234" else 1


def is_float(t):
    return scalar_of(t) in ("float", "half")


# Operators: how a step combines `a` and `b`, the identity, and whether floats allow it.
OPS = {
    "sum": (lambda a, b: f"{a} + {b}", "sum", True),
    "max": (lambda a, b: f"max({a}, {b})", "max", True),
    "min": (lambda a, b: f"min({a}, {b})", "min", True),
    "product": (lambda a, b: f"{a} * {b}", "product", False),
    "and": (lambda a, b: f"{a} & {b}", "and", False),
    "or": (lambda a, b: f"{a} | {b}", "or", False),
    "xor": (lambda a, b: f"{a} ^ {b}", "xor", False),
}


def pick_op(inst, r, ops=None):
    names = [o for o in (ops or OPS) if not is_float(inst.vtype) or OPS[o][2]]
    return inst.pick(r, "op", names)


def allowed_for(inst, op):
    if is_float(inst.vtype) and op in ("sum", "product"):
        return "Reassociation"
    return "Nothing"


def guard_open(inst, r, label="guard"):
    """A divergent guard around the pattern: the threads whose aux flag is set."""
    if inst.flip(r, label, 0.4):
        inst.lines.append("$if (aux.read(element) != 0u) {")
        return True
    return False


def helper_combine(inst, r, op):
    """The step's operator, written inline, through a Callable, or through a C++ lambda
    (not a Callable: its DSL operations are recorded inline at each call)."""
    fn = OPS[op][0]
    if inst.flip(r, "callable", 0.2):
        t = inst.vtype
        if inst.pick(r, "helper", ["callable", "lambda"]) == "callable":
            inst.lines.append(f"Callable combine = [](Var<{t}> a, Var<{t}> b) noexcept {{ return {fn('a', 'b')}; }};")
        else:
            inst.lines.append(f"auto combine = [](Expr<{t}> a, Expr<{t}> b) noexcept {{ return def({fn('a', 'b')}); }};")
        return lambda a, b: f"combine({a}, {b})"
    return fn


def surrounding(inst, r, var, where):
    """A statement before or after the pattern that reads or writes its value."""
    kind = inst.pick(r, f"surrounding-{where}", ["none", "none", "reads", "writes"])
    t = inst.vtype
    if kind == "reads":
        inst.lines.append(f"out.write(element, {var});")
        inst.optional.append((f"surrounding-{where}", [len(inst.lines) - 1]))
    elif kind == "writes":
        inst.lines.append(f"{var} = {var} + in.read(element % dispatch_size_x());")
        inst.optional.append((f"surrounding-{where}", [len(inst.lines) - 1]))


def widths(inst, r):
    """The kernel's warp width: set_warp_size(16/32/64) or none (kernel-tidy assumes 32)."""
    w = inst.pick(r, "warp", [0, 0, 16, 32, 64])
    inst.warp = w
    return w or 32


def gen_butterfly(r, name):
    inst = Instance("butterfly", name, None)
    inst.vtype = value_type(inst, r, widen=True)
    op = pick_op(inst, r)
    inst.allowed = allowed_for(inst, op)
    width = widths(inst, r)
    inst.block = inst.pick(r, "block", [0, 64, 128])
    combine = helper_combine(inst, r, op)
    inst.lines.append("UInt element = dispatch_x();")
    lane = inst.pick(r, "lane", ["warp_lane_id()", "warp_lane_id()", f"thread_x() % {width}u"])
    inst.lines.append(f"UInt lane = {lane};")
    inst.lines.append(f"Var<{inst.vtype}> v = in.read(element);")
    guarded = guard_open(inst, r)
    surrounding(inst, r, "v", "before")
    steps = []
    d = width // 2
    while d >= 1:
        steps.append(d)
        d //= 2
    order = inst.pick(r, "order", ["descending", "ascending"])
    if order == "ascending":
        steps.reverse()
    miss = inst.pick(r, "near-miss", ["none", "none", "none", "missing-step", "repeated-step", "other-value",
                                      "step-between"])
    if miss == "missing-step":
        steps.pop(r.randrange(len(steps)))
    elif miss == "repeated-step":
        steps[r.randrange(len(steps))] = steps[0]
    form = inst.pick(r, "form", ["straight", "straight", "compound", "host-loop"])
    if form == "host-loop" and miss == "none":
        start, cond, step = (width // 2, "d > 0u", "d >>= 1u") if order == "descending" else (1, f"d < {width}u", "d <<= 1u")
        inst.lines.append(f"for (uint d = {start}u; {cond}; {step}) {{")
        inst.lines.append(f"    v = {combine('v', 'warp_read_lane(v, lane ^ d)')};")
        inst.lines.append("}")
    else:
        for i, d in enumerate(steps):
            read = f"warp_read_lane({'in.read(element)' if miss == 'other-value' and i == 1 else 'v'}, lane ^ {d}u)"
            if form == "compound" and op in ("sum", "product", "and", "or", "xor"):
                sym = {"sum": "+", "product": "*", "and": "&", "or": "|", "xor": "^"}[op]
                inst.lines.append(f"v {sym}= {read};")
            else:
                inst.lines.append(f"v = {combine('v', read)};")
            if miss == "step-between" and i == 0:
                inst.lines.append("v = v + in.read(element);")
    surrounding(inst, r, "v", "after")
    inst.lines.append("out.write(element, v);")
    if guarded:
        inst.lines.append("};")
    return inst


def gen_sequential(r, name):
    inst = Instance("sequential-lane-reads", name, None)
    inst.vtype = value_type(inst, r)
    op = pick_op(inst, r, ["sum", "sum", "product"])
    if op == "sum":  # warp_prefix_sum takes half and vectors; products stay scalar
        inst.vtype = widened(inst, inst.vtype)
    inst.allowed = allowed_for(inst, op)
    width = widths(inst, r)
    inst.block = inst.pick(r, "block", [0, 64])
    t = inst.vtype
    inst.lines.append("UInt element = dispatch_x();")
    inst.lines.append("UInt lane = warp_lane_id();")
    inst.lines.append(f"Var<{t}> x = in.read(element);")
    if op == "product" and t != "float":
        inst.lines.append(f"x = x % 5{'u' if t == 'uint' else ''} + 1{'u' if t == 'uint' else ''};")
    guarded = guard_open(inst, r)
    init = inst.pick(r, "init", ["zero", "out"]) if op == "sum" else "one"
    zero = ZERO.get(t, "x - x")  # half and vectors have no literal here; x is finite
    inst.lines.append(f"Var<{t}> acc = {zero if init == 'zero' else ONE[t] if init == 'one' else 'out.read(element)'};")
    inclusive = inst.flip(r, "inclusive", 0.3)
    bound = "lane + 1u" if inclusive else "lane"
    miss = inst.pick(r, "near-miss", ["none", "none", "none", "value-depends-on-i", "extra-statement", "suffix"])
    form = inst.pick(r, "form", ["dollar-for", "dollar-for-begin-end", "dynamic-range"])
    if miss == "suffix":
        head = f"$for (i, lane + 1u, {width}u) {{" if form != "dynamic-range" else f"for (auto i : dynamic_range(lane + 1u, {width}u)) {{"
    elif form == "dollar-for":
        head = f"$for (i, {bound}) {{"
    elif form == "dollar-for-begin-end":
        head = f"$for (i, 0u, {bound}) {{"
    else:
        head = f"for (auto i : dynamic_range({bound})) {{"
    inst.lines.append(head)
    value = "x + cast<%s>(i)" % scalar_of(t) if miss == "value-depends-on-i" else "x"
    sym = "+" if op == "sum" else "*"
    if inst.flip(r, "explicit-assign", 0.3):
        inst.lines.append(f"    acc = acc {sym} warp_read_lane({value}, i);")
    else:
        inst.lines.append(f"    acc {sym}= warp_read_lane({value}, i);")
    if miss == "extra-statement":
        inst.lines.append("    x = x + acc;")
    inst.lines.append("};" if form != "dynamic-range" else "}")
    surrounding(inst, r, "acc", "after")
    inst.lines.append("out.write(element, acc);")
    if guarded:
        inst.lines.append("};")
    return inst


def gen_shuffle(r, name):
    inst = Instance("shuffle-reduction", name, None)
    inst.vtype = value_type(inst, r, widen=True)
    op = pick_op(inst, r, ["sum", "max", "min", "or"])
    inst.allowed = allowed_for(inst, op)
    width = widths(inst, r)
    inst.block = inst.pick(r, "block", [0, 64])
    t = inst.vtype
    fn = OPS[op][0]
    inst.lines.append("UInt element = dispatch_x();")
    inst.lines.append("UInt lane = warp_lane_id();")
    inst.lines.append(f"Var<{t}> v = in.read(element);")
    guarded = guard_open(inst, r)
    shape = inst.pick(r, "shape", ["down-reduction", "up-scan"])
    limit = inst.pick(r, "limit", ["warp_lane_count()", f"{width}u"])
    miss = inst.pick(r, "near-miss", ["none", "none", "none", "no-lane-guard", "start-2"])
    start = "2u" if miss == "start-2" else "1u"
    form = inst.pick(r, "form", ["dollar-while", "host-loop"])
    if shape == "down-reduction":
        if form == "dollar-while":
            inst.lines += [f"UInt offset = {start};", f"$while (offset < {limit}) {{"]
            o = "offset"
        else:
            inst.lines.append(f"for (uint o = {start}; o < {width}u; o <<= 1u) {{")
            o = "o"
        inst.lines.append(f"    Var<{t}> other = warp_read_lane(v, lane + {o});")
        if miss == "no-lane-guard":
            inst.lines.append(f"    v = {fn('v', 'other')};")
        else:
            inst.lines.append(f"    $if (lane + {o} < {limit}) {{ v = {fn('v', 'other')}; }};")
        if form == "dollar-while":
            inst.lines += ["    offset <<= 1u;", "};"]
        else:
            inst.lines.append("}")
        if inst.flip(r, "broadcast", 0.7):
            inst.lines.append("v = warp_read_first_active_lane(v);")
    else:
        if form == "dollar-while":
            inst.lines += [f"UInt offset = {start};", f"$while (offset < {limit}) {{"]
            o = "offset"
        else:
            inst.lines.append(f"for (uint o = {start}; o < {width}u; o <<= 1u) {{")
            o = "o"
        inst.lines.append(f"    Var<{t}> lower = warp_read_lane(v, lane - {o});")
        if miss == "no-lane-guard":
            inst.lines.append(f"    v = {fn('v', 'lower')};")
        else:
            inst.lines.append(f"    $if (lane >= {o}) {{ v = {fn('v', 'lower')}; }};")
        if form == "dollar-while":
            inst.lines += ["    offset <<= 1u;", "};"]
        else:
            inst.lines.append("}")
    surrounding(inst, r, "v", "after")
    inst.lines.append("out.write(element, v);")
    if guarded:
        inst.lines.append("};")
    return inst


ATOMIC_OPS = {"sum": "fetch_add", "sub": "fetch_sub", "max": "fetch_max", "min": "fetch_min",
              "and": "fetch_and", "or": "fetch_or", "xor": "fetch_xor"}


def gen_shared_counter(r, name):
    inst = Instance("shared-atomic-counter", name, None)
    inst.vtype = value_type(inst, r)
    ops = ["sum", "max", "min"] + ([] if inst.vtype == "float" else ["sub", "and", "or", "xor"])
    op = inst.pick(r, "op", ops)
    inst.allowed = "Reassociation" if inst.vtype == "float" and op == "sum" else "Nothing"
    widths(inst, r)
    inst.block = inst.pick(r, "block", [0, 64, 128])
    t = inst.vtype
    bs = f"{inst.block}u" if inst.block else "block_size"
    inst.lines += ["UInt element = dispatch_x();",
                   f"Shared<{t}> total{{2u}};",
                   "$if (thread_x() == 0u) { total.write(0u, out.read(block_x() * " + bs + ")); total.write(1u, "
                   + ZERO[t] + "); };",
                   "sync_block();",
                   f"Var<{t}> x = in.read(element);"]
    guarded = guard_open(inst, r)
    slot = inst.pick(r, "slot", ["0u", "0u", "block_x() % 1u", "thread_x() % 2u"])
    # The old values of one atomic instruction follow some serial order of its lanes:
    # with amounts of 1 they are the same multiset in any order.
    use_old = op in ("sum", "sub") and inst.flip(r, "uses-old-value", 0.3)
    if use_old:
        inst.allowed = "AppendOrder"
    call = f"total.atomic({slot}).{ATOMIC_OPS[op]}({ONE[t] if use_old else 'x'})"
    if use_old:
        inst.lines.append(f"auto old = {call};")
        inst.lines.append("out.write(element, old);")
    else:
        inst.lines.append(f"{call};")
    if guarded:
        inst.lines.append("};")
    if not use_old:
        # The totals (where the old values are written, they would overwrite two of them).
        inst.lines += ["sync_block();",
                       "$if (thread_x() == 0u) { out.write(block_x() * " + bs + ", total.read(0u)); out.write(block_x() * "
                       + bs + " + 1u, total.read(1u)); };"]
    return inst


def gen_global_atomic(r, name, rule):
    """Per-thread global atomics on one slot: warp-aggregated (block size unknown) or
    block-privatized (block size known) counters, amounts and appends."""
    inst = Instance(rule, name, None)
    inst.vtype = value_type(inst, r)
    widths(inst, r)
    inst.block = inst.pick(r, "block", [64, 128, 256]) if rule == "block-privatized-atomic" else 0
    t = inst.vtype
    inst.lines += ["UInt element = dispatch_x();", f"Var<{t}> x = in.read(element);"]
    shape = inst.pick(r, "shape", ["counter", "amount", "append", "append-shared"])
    guarded = guard_open(inst, r)
    if shape == "counter":
        inst.lines.append("aux.atomic(dispatch_size_x()).fetch_add(1u);")
    elif shape == "amount":
        ops = ["sum", "max", "min"] + ([] if t == "float" else ["sub", "or", "xor"])
        op = inst.pick(r, "op", ops)
        inst.allowed = "Reassociation" if t == "float" and op == "sum" else "Nothing"
        slot = inst.pick(r, "slot", ["0u", "block_x() % 2u", "thread_x() % 2u"])
        inst.lines.append(f"out.atomic({slot}).{ATOMIC_OPS[op]}(x);")
    else:
        inst.allowed = "AppendOrder"
        amount = inst.pick(r, "amount", ["1u", "1u", "2u"])
        if shape == "append":
            # Every slot taken fits the region, so the values written are the same multiset.
            inst.lines.append(f"auto slot = aux.atomic(dispatch_size_x()).fetch_add({amount});")
            inst.lines.append(f"out.write(slot / {amount}, x);")
        else:
            # A counter per block (three, shared round-robin): the slots each thread got.
            inst.lines.append(f"auto slot = aux.atomic(dispatch_size_x() + 1u + block_x() % 3u).fetch_add({amount});")
            inst.lines.append(f"out.write(element, cast<{t}>(slot));")
    if guarded:
        inst.lines.append("};")
    return inst


def gen_tree(r, name):
    inst = Instance("shared-tree-reduction", name, None)
    inst.vtype = value_type(inst, r, widen=True)
    op = pick_op(inst, r, ["sum", "max", "min"])
    inst.allowed = allowed_for(inst, op)
    widths(inst, r)
    block = inst.pick(r, "block", [64, 128, 256, 512, 1024])
    inst.block = block
    inst.whole_blocks = True
    t = inst.vtype
    fn = OPS[op][0]
    inst.lines += [f"Shared<{t}> s{{{block}u}};", "UInt tid = thread_x();", "UInt element = dispatch_x();",
                   f"Var<{t}> x = out.read(block_x());"]
    if inst.flip(r, "guard", 0.5):
        inst.lines.append("$if (aux.read(element) != 0u) { x = in.read(element); };")
    else:
        inst.lines.append("x = in.read(element);")
    inst.lines += ["s[tid] = x;", "sync_block();"]
    miss = inst.pick(r, "near-miss", ["none", "none", "none", "start-quarter", "stop-at-2"])
    start = block // 4 if miss == "start-quarter" else block // 2
    stop = "1u" if miss == "stop-at-2" else "0u"
    form = inst.pick(r, "form", ["host-loop", "compound", "in-place-helper"])
    inst.lines.append(f"for (uint stride = {start}u; stride > {stop}; stride >>= 1u) {{")
    if form == "compound" and op == "sum":
        inst.lines.append("    $if (tid < stride) { s[tid] += s[tid + stride]; };")
    else:
        inst.lines.append(f"    $if (tid < stride) {{ s[tid] = {fn('s[tid]', 's[tid + stride]')}; }};")
    inst.lines.append("    sync_block();")
    inst.lines.append("}")
    inst.lines.append("$if (tid == 0u) { out.write(block_x(), s[0u]); };")
    return inst


GENERATORS = {
    "butterfly": gen_butterfly,
    "sequential-lane-reads": gen_sequential,
    "shuffle-reduction": gen_shuffle,
    "shared-atomic-counter": gen_shared_counter,
    "warp-aggregated-atomic": lambda r, n: gen_global_atomic(r, n, "warp-aggregated-atomic"),
    "block-privatized-atomic": lambda r, n: gen_global_atomic(r, n, "block-privatized-atomic"),
    "shared-tree-reduction": gen_tree,
}


# Item 3 of issue 30: the uniformity analysis checked by execution. The atomic rules fix
# a per-thread atomic only on a slot the analysis calls warp-uniform (warp-aggregated)
# or block-uniform (block-privatized); a fix on a slot that differs between the lanes of
# a warp or the threads of a block changes the counters, which the comparison catches.
UNIFORM_ATOMS = ["block_x()", "dispatch_size_x()", "block_size", "7u", "thread_x() / 32u",
                 "thread_x() / warp_lane_count()", "warp_read_first_active_lane(x)", "warp_active_max(x)",
                 "block_x() * block_size"]
VARYING_ATOMS = ["thread_x()", "dispatch_x()", "warp_lane_id()", "x", "thread_x() % 2u", "warp_prefix_count_bits(true)"]


def uniformity_expr(inst, r, depth=0):
    if depth >= 2 or r.random() < 0.4:
        atom = r.choice(UNIFORM_ATOMS * 3 + VARYING_ATOMS)
        inst.branches.add(f"uniformity:atom={atom}")
        return atom
    op = inst.pick(r, "combine", ["+", "*", "%", ">>", "&", "select"])
    a, b = uniformity_expr(inst, r, depth + 1), uniformity_expr(inst, r, depth + 1)
    if op == "select":
        return f"select({a}, {b}, {uniformity_expr(inst, r, depth + 1)} > 3u)"
    if op in ("%", ">>"):
        b = f"({b} % 5u + 1u)"
    return f"({a} {op} {b})"


def gen_uniformity(r, name):
    inst = Instance("uniformity", name, "uint")
    widths(inst, r)
    inst.block = inst.pick(r, "block", [0, 0, 64, 128])
    inst.lines += ["UInt element = dispatch_x();", "UInt x = in.read(element) % 4u;"]
    how = inst.pick(r, "slot-from", ["expression", "variable", "reassigned", "reassigned-under-guard",
                                     "callable", "loop-carried"])
    e = uniformity_expr(inst, r)
    if how == "expression":
        slot = e
    else:
        inst.lines.append(f"UInt s = {e};")
        slot = "s"
        if how == "reassigned":
            inst.lines.append(f"s = {uniformity_expr(inst, r)};")
        elif how == "reassigned-under-guard":
            cond = r.choice(["x > 1u", "thread_x() < 16u", "block_x() % 2u == 0u", "warp_lane_id() == 0u"])
            inst.branches.add(f"uniformity:guard={cond}")
            inst.lines.append(f"$if ({cond}) {{ s = {uniformity_expr(inst, r)}; }};")
        elif how == "callable":
            inst.lines.insert(0, "Callable twice = [](UInt a, UInt b) noexcept { return a * 2u + b; };")
            inst.lines.append(f"s = twice(s, {uniformity_expr(inst, r)});")
        elif how == "loop-carried":
            inst.lines.append(f"$for (k, 3u) {{ s = s + {r.choice(['k', 'x', 'block_x()', 'warp_lane_id()'])}; }};")
    guarded = guard_open(inst, r)
    inst.lines.append(f"aux.atomic(dispatch_size_x() + ({slot}) % 4u).fetch_add(1u);")
    inst.lines.append(f"out.write(element, {slot});")
    if guarded:
        inst.lines.append("};")
    return inst


GENERATORS["uniformity"] = gen_uniformity


# Host code for luisa-stream-batching: no kernel, but a host function that submits to
# streams (HOST_PARAMS). The runner counts the command lists each version submits.
HOST_PARAMS = ("Stream &stream, Stream &other, Buffer<uint> &a, Buffer<uint> &b, luisa::vector<uint> &ha, "
               "luisa::vector<uint> &hb, Shader1D<Buffer<uint>, uint> &step, "
               "Shader1D<Buffer<uint>, Buffer<uint>> &mix, uint n")


class HostInstance(Instance):
    """A host function `void NAME(HOST_PARAMS)`: `step(x, k)` makes x = x * 3 + k and
    `mix(x, y)` x = x * 2 + y, both order-sensitive, over n elements; ha and hb hold n."""

    def __init__(self, rule, name):
        super().__init__(rule, name, "uint")
        self.host = True

    def source(self, drop=()):
        dropped = {i for label, idx in self.optional if label in drop for i in idx}
        body = ["    " + line for i, line in enumerate(self.lines) if i not in dropped]
        return f"void {self.name}({HOST_PARAMS}) {{\n" + "\n".join(body) + "\n}\n"


def stream_command(inst, r, values, where):
    """One command: an upload, a download, a buffer copy or a dispatch."""
    kind = inst.pick(r, f"{where}-command", ["upload", "download", "copy", "step", "step", "mix", "partial"])
    x, y = r.choice([("a", "b"), ("b", "a")])
    hx = r.choice(["ha", "hb"])
    if kind == "upload":
        return f"{x}.copy_from({hx}.data())"
    if kind == "download":
        return f"{x}.copy_to({hx}.data())"
    if kind == "copy":
        return f"{x}.copy_from({y}.view())"
    if kind == "partial":
        return f"{x}.view(0u, 1u).copy_to({hx}.data() + (n - 1u))"
    if kind == "step":
        return f"step({x}, {r.choice(values)}).dispatch(n)"
    return f"mix({x}, {y}).dispatch(n)"


def submission(inst, r, values, where, stream="stream", ending=None):
    ops = [stream_command(inst, r, values, where) for _ in range(r.choice([1, 1, 2]))]
    if ending:
        ops.append(ending)
    return f"{stream} << " + " << ".join(ops) + ";"


def gen_stream_batching(r, name):
    inst = HostInstance("stream-batching", name)
    values = ["1u", "n"]
    segments = inst.pick(r, "segments", [2, 3, 4])
    for s in range(segments):
        first = len(inst.lines)
        kind = inst.pick(r, "segment", ["run", "run", "loop", "loop", "host", "other-stream"])
        if kind == "run":
            count = inst.pick(r, "run-length", [2, 2, 3])
            between = inst.pick(r, "between", ["none", "none", "none", "comment", "host-write", "host-read",
                                               "read-result", "other-stream", "sync-statement", "host-wait",
                                               "sync-ending"])
            at = r.randrange(1, count)
            for i in range(count):
                if i == at and between == "comment":
                    inst.lines.append("// between the submissions")
                elif i == at and between == "host-write":
                    inst.lines.append(f"{r.choice(['ha', 'hb'])}[0] = {r.choice(['ha', 'hb'])}[0] * 5u + 1u;")
                elif i == at and between == "host-read":
                    inst.lines.append(f"uint v{s} = ha[0] + hb[n - 1u];")
                    values.append(f"v{s}")
                elif i == at and between == "other-stream":
                    inst.lines.append(submission(inst, r, values, "other", "other"))
                elif i == at and between == "sync-statement":
                    inst.lines.append("stream << synchronize();")
                elif i == at and between == "host-wait":
                    inst.lines.append("stream.synchronize();")
                if i == at and between == "read-result":
                    inst.lines.append("stream << step(b, hb[0]).dispatch(n);")
                elif i == at - 1 and between == "read-result":
                    inst.lines.append("stream << a.copy_to(hb.data());")
                elif i == at - 1 and between == "sync-ending":
                    inst.lines.append(submission(inst, r, values, "run", ending="synchronize()"))
                else:
                    last = i == count - 1 and inst.flip(r, "run-ends-with-sync", 0.3)
                    inst.lines.append(submission(inst, r, values, "run", ending="synchronize()" if last else None))
        elif kind == "loop":
            form = inst.pick(r, "loop", ["for", "range-for", "while", "do-while", "nested"])
            miss = inst.pick(r, "loop-near-miss", ["none", "none", "none", "host-work", "upload-counter",
                                                   "other-stream", "temporary-upload", "synchronize"])
            trips = r.choice([2, 3, 5])
            k = f"k{s}"
            body = [submission(inst, r, values + [k], "loop")]
            if inst.flip(r, "loop-two-submissions", 0.4):
                body.append(submission(inst, r, values + [k], "loop"))
            if miss == "host-work":
                body.append(f"ha[0] = ha[0] + {k};")
            elif miss == "upload-counter":
                body.insert(0, f"stream << a.view(0u, 1u).copy_from(&{k});")
            elif miss == "other-stream":
                body.append(f"other << step(b, {k}).dispatch(n);")
            elif miss == "temporary-upload":
                body.insert(0, f"stream << a.copy_from(luisa::vector<uint>(n, {k}).data());")
                body.insert(1, "stream << mix(b, a).dispatch(n);")
            elif miss == "synchronize":
                body.append("stream << synchronize();")
            if form == "for":
                inst.lines.append(f"for (uint {k} = 0u; {k} < {trips}u; {k}++) {{")
                inst.lines += ["    " + b for b in body] + ["}"]
            elif form == "range-for":
                ks = ", ".join(f"{r.randrange(9)}u" for _ in range(trips))
                inst.lines.append(f"const uint ks{s}[] = {{{ks}}};")
                inst.lines.append(f"for (auto {k} : ks{s}) {{")
                inst.lines += ["    " + b for b in body] + ["}"]
            elif form == "while":
                inst.lines.append(f"uint {k} = 0u;")
                inst.lines.append(f"while ({k} < {trips}u) {{")
                inst.lines += ["    " + b for b in body]
                inst.lines += [f"    stream << step(a, {k}++).dispatch(n);", "}"]
            elif form == "do-while":
                inst.lines.append(f"uint {k} = 0u;")
                inst.lines.append("do {")
                inst.lines += ["    " + b for b in body] + [f"}} while (++{k} < {trips}u);"]
            else:
                inst.lines.append(f"for (uint i{s} = 0u; i{s} < 2u; i{s}++) {{")
                inst.lines.append(f"    for (uint {k} = i{s}; {k} < {trips}u; {k}++) {{")
                inst.lines += ["        " + b for b in body] + ["    }", "}"]
        elif kind == "host":
            what = inst.pick(r, "host", ["write", "read", "download-synchronized"])
            if what == "write":
                inst.lines.append(f"ha[n / 2u] = ha[n / 2u] + hb[0] * 7u;")
            elif what == "read":
                inst.lines.append(f"uint v{s} = hb[0] ^ ha[n - 1u];")
                values.append(f"v{s}")
            else:
                inst.lines.append("stream << a.copy_to(ha.data()) << synchronize();")
        else:
            inst.lines.append(submission(inst, r, values, "other", "other"))
            inst.lines.append(submission(inst, r, values, "other", "other"))
        if s > 0:
            inst.optional.append((f"segment-{s}", list(range(first, len(inst.lines)))))
    if inst.flip(r, "ends-with-synchronize", 0.5):
        inst.lines.append("stream << synchronize();")
    return inst


GENERATORS["stream-batching"] = gen_stream_batching


def generate(rule, seed, index):
    r = random.Random(f"{rule}/{seed}/{index}")
    name = "i_" + rule.replace("-", "_") + f"_{seed}_{index}"
    return GENERATORS[rule](r, name)


def universe(rule):
    """Every branch label the generator of `rule` takes in a large fixed sample."""
    return set().union(*(generate(rule, s, k).branches for s in range(1000, 1040) for k in range(50)))


def covering(rule, seed, count, limit=2000):
    """The first `count` instances of `seed`, then later ones that take a branch not yet
    taken, until every branch of universe(rule) is (or `limit` instances were tried)."""
    chosen = [generate(rule, seed, k) for k in range(count)]
    taken = set().union(*(i.branches for i in chosen)) if chosen else set()
    missing = universe(rule) - taken
    k = count
    while missing and k < limit:
        inst = generate(rule, seed, k)
        if inst.branches & missing:
            chosen.append(inst)
            missing -= inst.branches
        k += 1
    return chosen, missing
