//===--- KernelGenerator.cpp - Random DSL kernels from the rules' patterns ===//

#include "test/unit/KernelGenerator.h"

#include <random>
#include <vector>

namespace kernel_tidy::test {
namespace {

/// A DSL scalar type with the buffer it is read from and its literals.
struct ScalarType {
  const char *Var, *Host, *Buffer, *One, *Zero;
  bool Integer;
};
constexpr ScalarType Types[] = {{"UInt", "uint", "ubuf", "1u", "0u", true},
                                {"Int", "int", "ibuf", "1", "0", true},
                                {"Float", "float", "fbuf", "1.0f", "0.0f", false}};

/// Builds one source; every block declares its own variables (suffix N) and
/// writes what it computed, so blocks compose in any order and scope.
class Generator {
public:
  explicit Generator(uint32_t Seed) : Random(Seed) {}

  std::string source() {
    std::string Out = "#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n\n"
                      "using namespace luisa;\nusing namespace luisa::compute;\n\n"
                      "void build(Device &device) {\n";
    for (int K = 0, Kernels = pick(1, 3); K < Kernels; ++K)
      Out += kernel(K);
    return Out + "}\n";
  }

private:
  int pick(int Low, int High) { return std::uniform_int_distribution<int>(Low, High)(Random); }
  bool chance(int Percent) { return pick(1, 100) <= Percent; }
  template <typename T, size_t N> const T &oneOf(const T (&Items)[N]) {
    return Items[pick(0, N - 1)];
  }
  std::string n() { return std::to_string(Counter); }
  std::string line(const std::string &Code) { return Indent + Code + "\n"; }

  std::string kernel(int K) {
    static const char *const BlockSizes[] = {"32u", "64u", "128u", "256u", "1024u", "48u"};
    std::string Out = "    Kernel1D k" + std::to_string(K) +
                      " = [&](BufferUInt ubuf, BufferInt ibuf, BufferFloat fbuf) noexcept {\n";
    Indent = "        ";
    if (chance(70))
      Out += line(std::string("set_block_size(") + oneOf(BlockSizes) + ", 1u, 1u);");
    if (chance(15))
      Out += line("set_warp_size(32u);");
    Out += line("auto lane = warp_lane_id();");
    for (int B = 0, Blocks = pick(1, 3); B < Blocks; ++B) {
      ++Counter;
      bool Wrap = chance(20);
      if (Wrap) {
        Out += line("$if (dispatch_x() < " + std::to_string(pick(1, 4) * 256) + "u) {");
        Indent += "    ";
      }
      Out += block();
      if (Wrap) {
        Indent.resize(Indent.size() - 4);
        Out += line("};");
      }
    }
    return Out + "    };\n    auto shader" + std::to_string(K) + " = device.compile(k" +
           std::to_string(K) + ");\n";
  }

  /// Something between two statements of a pattern, or nothing.
  std::string noise(const std::string &Value, const ScalarType &T) {
    switch (pick(0, 9)) {
    case 0:
      return line("// note " + n() + "." + std::to_string(++Notes));
    case 1:
      return line("/* block " + n() + "." + std::to_string(++Notes) + " */");
    case 2:
      return "#ifdef EXTRA_" + n() + "\n" +
             line(Value + " = " + Value + " + " + T.One + "; // extra " + n() + "." +
                  std::to_string(++Notes)) +
             "#endif\n";
    case 3:
      return "#if 0\n" + line(Value + " = " + Value + " * " + T.One + "; // dead " + n()) +
             "#endif\n";
    case 4:
      return line(std::string(T.Var) + " copy" + n() + "_" + std::to_string(++Notes) + " = " +
                  Value + ";");
    case 5:
      return "\n";
    default:
      return "";
    }
  }

  std::string block() {
    switch (pick(0, 10)) {
    case 0:
    case 1:
      return butterfly();
    case 2:
      return laneReads();
    case 3:
      return shuffleDown();
    case 4:
      return laneShiftScan();
    case 5:
      return sharedAtomic();
    case 6:
      return globalAtomic();
    case 7:
      return barrier();
    case 8:
      return sharedArray();
    case 9:
      return warpWidth();
    default:
      return butterfly();
    }
  }

  std::string combine(const std::string &V, const std::string &Other, const ScalarType &T, int Op) {
    switch (Op) {
    case 0:
      return V + " = " + V + " + " + Other + ";";
    case 1:
      return V + " += " + Other + ";";
    case 2:
      return V + " = max(" + V + ", " + Other + ");";
    case 3:
      return V + " = min(" + Other + ", " + V + ");";
    case 4:
      return V + " = " + V + " * " + Other + ";";
    case 5:
      return T.Integer ? V + " = " + V + " | " + Other + ";" : V + " += " + Other + ";";
    default:
      return T.Integer ? V + " ^= " + Other + ";" : V + " *= " + Other + ";";
    }
  }

  std::string butterfly() {
    const ScalarType &T = oneOf(Types);
    std::string V = "v" + n(), W = "w" + n();
    int Op = pick(0, 6);
    std::string Out =
        line(std::string(T.Var) + " " + V + " = " + T.Buffer + ".read(dispatch_x());");
    Out += line(std::string(T.Var) + " " + W + " = " + T.Buffer + ".read(dispatch_x() + 1u);");
    if (chance(25)) { // Host loop form.
      static const char *const Loops[] = {
          "for (uint d = 16u; d > 0u; d /= 2u)", "for (uint d = 1u; d < 32u; d *= 2u)",
          "for (uint d = 16u; d >= 1u; d >>= 1u)", "for (uint d = 8u; d > 0u; d /= 2u)"};
      Out += line(std::string(oneOf(Loops)) + " {");
      Out += line("    " + combine(V, "warp_read_lane(" + V + ", lane ^ d)", T, Op));
      Out += line("}");
    } else {
      std::vector<int> Distances{16, 8, 4, 2, 1};
      if (chance(25))
        Distances = {1, 2, 4, 8, 16};
      if (chance(15))
        Distances.erase(Distances.begin() + pick(0, 4)); // A step missing.
      if (chance(10))
        Distances[pick(0, Distances.size() - 1)] = Distances[0]; // Repeated.
      for (size_t I = 0; I < Distances.size(); ++I) {
        std::string Target = chance(5) ? W : V;     // Another variable.
        int StepOp = chance(5) ? (Op + 1) % 7 : Op; // Another operator.
        std::string Lane = chance(10) ? std::to_string(Distances[I]) + "u ^ lane"
                                      : "lane ^ " + std::to_string(Distances[I]) + "u";
        Out += line(combine(Target, "warp_read_lane(" + Target + ", " + Lane + ")", T, StepOp));
        if (I + 1 < Distances.size())
          Out += noise(V, T);
      }
    }
    Out += line(std::string(T.Buffer) + ".write(dispatch_x(), " + V + " + " + W + ");");
    return Out;
  }

  std::string laneReads() {
    const ScalarType &T = oneOf(Types);
    std::string V = "x" + n(), Acc = "acc" + n();
    static const char *const Heads[] = {
        "for (auto i : dynamic_range(lane))", "for (auto i : dynamic_range(lane + 1u))",
        "$for (i, 0u, lane)", "$for (i, lane)", "for (auto i : dynamic_range(lane - 1u))"};
    const char *Head = oneOf(Heads);
    bool Sugar = Head[0] == '$';
    std::string Out =
        line(std::string(T.Var) + " " + V + " = " + T.Buffer + ".read(dispatch_x());");
    Out += line(std::string(T.Var) + " " + Acc + " = " + T.Zero + ";");
    Out += noise(Acc, T);
    Out += line(std::string(Head) + " {");
    Out += line("    " + combine(Acc, "warp_read_lane(" + V + ", i)", T, chance(80) ? 1 : 4));
    Out += line(Sugar ? "};" : "}");
    Out += line(std::string(T.Buffer) + ".write(dispatch_x(), " + Acc + ");");
    return Out;
  }

  std::string shuffleDown() {
    const ScalarType &T = oneOf(Types);
    std::string V = "s" + n(), Off = "off" + n(), Tmp = "t" + n();
    int Op = pick(0, 3);
    std::string Out =
        line(std::string(T.Var) + " " + V + " = " + T.Buffer + ".read(dispatch_x());");
    if (chance(50)) {
      Out +=
          line("for (uint d = " + std::string(chance(85) ? "16u" : "8u") + "; d > 0u; d /= 2u) {");
      Out += line("    " + combine(V, "warp_read_lane(" + V + ", lane + d)", T, Op));
      Out += line("}");
    } else {
      Out += line("UInt " + Off + " = 1u;");
      Out += line("$while (" + Off + " < " + (chance(80) ? "warp_lane_count()" : "16u") + ") {");
      Out += line("    " + std::string(T.Var) + " " + Tmp + " = warp_read_lane(" + V + ", lane + " +
                  Off + ");");
      Out += line("    $if (lane + " + Off + " < warp_lane_count()) {");
      Out += line("        " + combine(V, Tmp, T, Op));
      Out += line("    };");
      Out += line("    " + Off + (chance(50) ? " <<= 1u;" : " = " + Off + " * 2u;"));
      Out += line("};");
    }
    Out += line(std::string(T.Buffer) + ".write(dispatch_x(), " + V + ");");
    return Out;
  }

  std::string laneShiftScan() {
    const ScalarType &T = oneOf(Types);
    std::string V = "p" + n(), Tmp = "q" + n();
    std::string Out =
        line(std::string(T.Var) + " " + V + " = " + T.Buffer + ".read(dispatch_x());");
    Out +=
        line(std::string("for (uint d = 1u; d < ") + (chance(85) ? "32u" : "16u") + "; d *= 2u) {");
    Out +=
        line("    " + std::string(T.Var) + " " + Tmp + " = warp_read_lane(" + V + ", lane - d);");
    Out += line("    $if (lane >= d) { " + combine(V, Tmp, T, chance(80) ? 0 : 4) + " };");
    Out += line("}");
    Out += line(std::string(T.Buffer) + ".write(dispatch_x(), " + V + ");");
    return Out;
  }

  std::string sharedAtomic() {
    const ScalarType &T = oneOf(Types);
    std::string C = "counter" + n(), Old = "old" + n();
    static const char *const Ops[] = {"fetch_add", "fetch_sub", "fetch_max", "fetch_min",
                                      "fetch_and", "fetch_or",  "fetch_xor"};
    const char *Op = T.Integer ? oneOf(Ops) : oneOf({"fetch_add", "fetch_max", "fetch_min"});
    static const char *const Indices[] = {"0u", "0u", "0u", "thread_x() % 2u", "block_x() % 1u"};
    std::string Value = chance(50) ? T.One : std::string(T.Buffer) + ".read(dispatch_x())";
    std::string Out = line(std::string("Shared<") + T.Host + "> " + C + "{1u};");
    Out += line("$if (thread_x() == 0u) { " + C + ".write(0u, " + T.Zero + "); };");
    Out += line("sync_block();");
    if (chance(30))
      Out += line("// before the atomic " + n());
    std::string Atomic = C + ".atomic(" + oneOf(Indices) + ")." + Op + "(" + Value + ")";
    if (chance(20))
      Out += line("auto " + Old + " = " + Atomic + ";") +
             line(std::string(T.Buffer) + ".write(dispatch_x(), " + Old + ");");
    else
      Out += line(Atomic + ";");
    Out += line("sync_block();");
    Out += line("$if (thread_x() == 0u) { " + std::string(T.Buffer) + ".write(block_x(), " + C +
                ".read(0u)); };");
    return Out;
  }

  std::string globalAtomic() {
    const ScalarType &T = Types[pick(0, 1)]; // Buffer atomics on integers.
    std::string Slot = "slot" + n(), V = "g" + n();
    std::string Out =
        line(std::string(T.Var) + " " + V + " = " + T.Buffer + ".read(dispatch_x());");
    static const char *const Indices[] = {"0u", "0u", "block_x()", "dispatch_x() % 4u"};
    std::string Atomic = std::string(T.Buffer) + ".atomic(" + oneOf(Indices) + ").fetch_add(" +
                         (chance(60) ? T.One : V) + ")";
    if (chance(50)) {
      Out += line("auto " + Slot + " = " + Atomic + ";");
      Out += noise(V, T);
      Out += line(std::string(T.Buffer) + ".write(cast<uint>(" + Slot + ") + 8u, " + V + ");");
    } else {
      Out += line(Atomic + ";");
    }
    return Out;
  }

  std::string barrier() {
    static const char *const Guards[] = {"thread_x() < 16u", "block_x() == 0u", "lane == 0u",
                                         "dispatch_x() < 100u", "true"};
    std::string Out = line(std::string("$if (") + oneOf(Guards) + ") {");
    Out += line("    sync_block();");
    Out += line("};");
    return Out;
  }

  std::string sharedArray() {
    static const char *const Sizes[] = {"32u", "64u", "256u", "1024u"};
    static const char *const Indices[] = {"thread_x()", "lane", "thread_x() + 1u",
                                          "thread_x() % 32u", "lane + 32u"};
    std::string S = "tile" + n();
    std::string Out = line("Shared<float> " + S + "{" + oneOf(Sizes) + "};");
    Out += line(S + ".write(" + oneOf(Indices) + ", 1.0f);");
    Out += line("sync_block();");
    Out += line("fbuf.write(dispatch_x(), " + S + ".read(0u));");
    return Out;
  }

  std::string warpWidth() {
    static const char *const Exprs[] = {"thread_x() / 32u",         "thread_x() % 32u",
                                        "thread_x() >> 5u",         "thread_x() & 31u",
                                        "1u << (thread_x() % 32u)", "dispatch_x() / 32u"};
    std::string W = "warp" + n();
    std::string Out = line("UInt " + W + " = " + oneOf(Exprs) + ";");
    Out += line("ubuf.write(" + W + ", lane);");
    return Out;
  }

  std::mt19937 Random;
  std::string Indent;
  int Counter = 0, Notes = 0;
};

} // namespace

std::string generateKernelSource(uint32_t Seed) { return Generator(Seed).source(); }

} // namespace kernel_tidy::test
