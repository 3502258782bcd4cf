"""The cute-* rules: id -> check(Context) returning findings. The ids, fix
kinds and summaries are registered in rules/Rules.def with the C++ rules
(the RuleRegistry tests compare both lists). scripts/new-rule adds an import
and an entry here."""

from typing import Callable, Dict, List

from ..context import Context
from ..findings import Finding
from . import butterfly_reduction
from . import calling_convention
from . import contended_atomic
from . import divergent_barrier
from . import hardcoded_warp_width
from . import jit_recompile
from . import launch_config

Rule = Callable[[Context], List[Finding]]

RULES: Dict[str, Rule] = {
    "cute-calling-convention": calling_convention.check,
    "cute-launch-config": launch_config.check,
    "cute-butterfly-reduction": butterfly_reduction.check,
    "cute-hardcoded-warp-width": hardcoded_warp_width.check,
    "cute-divergent-barrier": divergent_barrier.check,
    "cute-jit-recompile": jit_recompile.check,
    "cute-contended-atomic": contended_atomic.check,
}
