//===--- BundledModelTest.cpp - Real projects' code against the bundled model -===//

#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos; At = Text.find(Needle, At + 1))
    ++N;
  return N;
}

/// A kernel using API of both generations: the 2024 Printer, $switch, and a
/// butterfly reduction the rules fix.
const char *const Body = R"(using namespace luisa;
using namespace luisa::compute;
void build(Device &device, Stream &stream) {
    Printer printer{device};
    luisa::variant<int, float> mode{1};
    Kernel1D k = [&](BufferFloat data) noexcept {
        auto lane = warp_lane_id();
        Float m = data.read(dispatch_x());
        m = max(m, warp_read_lane(m, lane ^ 16u));
        m = max(m, warp_read_lane(m, lane ^ 8u));
        m = max(m, warp_read_lane(m, lane ^ 4u));
        m = max(m, warp_read_lane(m, lane ^ 2u));
        m = max(m, warp_read_lane(m, lane ^ 1u));
        printer.info_with_location("max = {}", m);
        $switch (dispatch_x() % 3u) {
            $case (0u) { data.write(dispatch_x(), m); };
            $default { data.write(dispatch_x(), -m); };
        };
    };
    auto shader = device.compile(k);
    auto buffer = device.create_buffer<float>(64u);
    stream << printer.reset() << shader(buffer).dispatch(64u) << printer.retrieve();
    std::this_thread::yield();
}
)";

// The 2024 releases' users include <dsl/syntax.h>, <runtime/device.h>... with
// -I include/luisa; the newer ones <luisa/...>. Both name the one model, also
// mixed in one file, and the rules see the same kernel.
TEST(BundledModel, BothIncludeLayoutsParse) {
  std::string Dir = makeTempDir();
  std::string Old = Dir + "/old.cpp", New = Dir + "/new.cpp";
  writeFile(Old, std::string("#include <core/logging.h>\n#include <runtime/device.h>\n"
                             "#include <runtime/stream.h>\n#include <dsl/syntax.h>\n"
                             "#include <dsl/sugar.h>\n#include <dsl/printer.h>\n"
                             "#include <luisa/dsl/syntax.h>\n") + Body);
  writeFile(New, std::string("#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n") +
                     Body);
  for (const std::string &File : {Old, New}) {
    ProcessResult R = runKernelTidy({"check", "--bundled-model", "--no-pch", File});
    EXPECT_EQ(1, R.ExitCode) << File << "\n" << R.Out << R.Err;
    EXPECT_EQ(1u, count(R.Out, "[luisa-butterfly-reduction]")) << R.Out;
    EXPECT_EQ(0u, count(R.Out, "error:")) << R.Out;
  }
  llvm::sys::fs::remove_directories(Dir);
}

// A file the model cannot parse points to the project's compile database,
// once per run whatever the number of such files.
TEST(BundledModel, AFileThatDoesNotParseGetsTheCompileDatabaseHint) {
  std::string Dir = makeTempDir();
  std::string A = Dir + "/a.cpp", B = Dir + "/b.cpp", Good = Dir + "/good.cpp";
  writeFile(A, "#include <luisa/luisa-compute.h>\nvoid f() { luisa::compute::NotInTheModel x; }\n");
  writeFile(B, "#include <project/own_header.h>\n");
  writeFile(Good, std::string("#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n") +
                      Body);
  ProcessResult R = runKernelTidy({"check", "--bundled-model", "--no-pch", A, B});
  EXPECT_EQ(2, R.ExitCode) << R.Out << R.Err;
  EXPECT_EQ(1u, count(R.Err, "compile database (-p BUILD_DIR")) << R.Err;
  EXPECT_EQ(1u, count(R.Err, "-- -I include")) << R.Err;
  ProcessResult Clean = runKernelTidy({"check", "--bundled-model", "--no-pch", Good});
  EXPECT_EQ(1, Clean.ExitCode) << Clean.Out << Clean.Err;
  EXPECT_EQ(0u, count(Clean.Err, "compile database")) << Clean.Err;
  llvm::sys::fs::remove_directories(Dir);
}

/// One snippet per API the surveyed projects (issue 15) use that the model
/// once lacked; each is what a real file does with it.
struct ApiUse {
  const char *Name;
  const char *Code;
};
const ApiUse RealApiUses[] = {
    // The host math is std's (using-declarations), so `abs(int)` next to
    // <cstdlib>'s ::abs and `ceil` of an integer are not ambiguous.
    {"host_math_is_std",
     "#include <cstdlib>\n#include <luisa/luisa-compute.h>\nusing namespace luisa;\n"
     "int f(int dx, int dy) { uint n = ceil(256 / 32); return max(abs(dx), abs(dy)) + n; }\n"},
    // half.hpp's math of half, found by argument-dependent lookup (in
    // luisa::compute the DSL's pow hides luisa::pow).
    {"half_math",
     "#include <luisa/luisa-compute.h>\nnamespace luisa::compute {\n"
     "half f() { return pow(half(2.0f), half(1.0f) - half(3.0f)) + abs(half(1.0f)); }\n}\n"},
    // Ray queries: traverse / traverse_any, the candidate handlers, trace().
    {"ray_query",
     "#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n"
     "using namespace luisa;\nusing namespace luisa::compute;\n"
     "void f(Device &device) {\n"
     "  Kernel1D k = [](AccelVar accel, BufferVar<AABB> aabbs) noexcept {\n"
     "    Var<Ray> ray = make_ray(make_float3(0.f), make_float3(0.f, 0.f, 1.f));\n"
     "    Var<CommittedHit> hit = accel->traverse(ray, {})\n"
     "        .on_surface_candidate([&](SurfaceCandidate &c) noexcept {\n"
     "          Var<TriangleHit> h = c.hit();\n"
     "          $if (h.bary.x < .5f) { c.commit(); };\n"
     "        })\n"
     "        .on_procedural_candidate([&](ProceduralCandidate &c) noexcept {\n"
     "          Var<AABB> box = aabbs->read(c.hit().prim);\n"
     "          c.commit(1.f);\n"
     "        })\n"
     "        .trace();\n"
     "    Var<CommittedHit> any = accel.traverse_any(ray, {}).trace();\n"
     "  };\n"
     "}\n"},
    // vstl: config.h's global integer aliases, vstd::IOperatorNewBase; and
    // luisa::allocate_with_allocator.
    {"vstl",
     "#include <luisa/luisa-compute.h>\n#include <luisa/vstl/config.h>\n"
     "struct Module : public vstd::IOperatorNewBase { int32 a; uint64 b; };\n"
     "void f() { auto p = luisa::allocate_with_allocator<luisa::uint>(1); "
     "luisa::deallocate_with_allocator(p); delete new Module{}; }\n"},
    // <luisa/dsl/struct.h> alone brings in the builtins (select) and dsl/func.h.
    {"struct_header_brings_builtins",
     "#include <luisa/dsl/struct.h>\nnamespace luisa::compute {\n"
     "template<typename U> Var<U> twiddle(const Var<U> &key) {\n"
     "  return compute::select(Var<U>(1u), Var<U>(0u), key != Var<U>(0u)); }\n"
     "Callable c = [](UInt k) noexcept { return twiddle(k); };\n}\n"},
    // ByteBufferView of a typed buffer view (explicit, as in the real header).
    {"byte_buffer_view_of_typed_view",
     "#include <luisa/luisa-compute.h>\nusing namespace luisa::compute;\n"
     "void f(Buffer<float> &b) { ByteBufferView v{b.view()}; ByteBufferView w{b}; "
     "if (v && w) {} }\n"},
    // The 2024-02 headers LuisaRender includes: runtime/buffer_arena.h and
    // core/thread_pool.h.
    {"buffer_arena_and_thread_pool",
     "#include <luisa/luisa-compute.h>\n#include <luisa/runtime/buffer_arena.h>\n"
     "#include <luisa/core/thread_pool.h>\nusing namespace luisa;\nusing namespace luisa::compute;\n"
     "void f(Device &device, ThreadPool &pool) {\n"
     "  auto arena = luisa::make_unique<BufferArena>(device, 16_M);\n"
     "  BufferView<float4> v = arena->allocate<float4>(64u);\n"
     "  auto future = pool.async([] { return 1; });\n"
     "  int one = future.get();\n"
     "  pool.parallel(4u, [](uint i) noexcept {});\n"
     "}\n"},
    // The bundled fmt that user files call directly.
    {"bundled_fmt",
     "#include <luisa/core/logging.h>\n"
     "auto f(int line, const char *file) { auto one = fmt::format(FMT_STRING(\"{}\"), 1); "
     "return fmt::format(\"{}:{}:{}\", file, line, fmt::ptr(file)); }\n"},
    // LUISA_IMPORT_API is `extern "C"`: an imported constant is a declaration.
    {"import_api_declares",
     "#include <array>\n#include <luisa/luisa-compute.h>\n"
     "LUISA_IMPORT_API const std::array<float, 471> cie_x_samples;\n"},
    // Containers and memory: transparent map lookup with a string_view, at(),
    // cend(); unique_ptr == nullptr; lazy_construct; align; string_view is
    // std::string_view.
    {"stl_surface",
     "#include <string_view>\n#include <luisa/luisa-compute.h>\nusing namespace luisa;\n"
     "struct Node {};\n"
     "std::string_view g(std::string_view s) { return s; }\n"
     "void f(const unordered_map<string, int> &m, unordered_map<string, unique_ptr<Node>> &n,\n"
     "       string_view key) {\n"
     "  if (auto it = m.find(key); it != m.cend()) {}\n"
     "  int v = m.at(key);\n"
     "  if (n.at(key) == nullptr) {}\n"
     "  n.try_emplace(key, lazy_construct([] { return make_unique<Node>(); }));\n"
     "  auto a = luisa::align(13u, 16u);\n"
     "  auto s = g(key);\n"
     "}\n"},
    // luisa::string is a std::basic_string (std::filesystem::path takes it),
    // luisa::string_view is std::string_view; maps and sets from initializer
    // lists, transparent set lookup.
    {"string_is_std",
     "#include <filesystem>\n#include <luisa/luisa-compute.h>\nusing namespace luisa;\n"
     "static const unordered_map<string_view, uint> channels{{\"rgb\", 3u}, {\"depth\", 1u}};\n"
     "std::filesystem::path f(const string &s, const unordered_set<string> &enabled, string_view c) {\n"
     "  std::string_view v = c;\n"
     "  if (enabled.contains(c) && s == v) {}\n"
     "  return std::filesystem::path{s};\n"
     "}\n"},
    // Resource names the 2024-02 headers declare in luisa::compute.
    {"runtime_names",
     "#include <luisa/luisa-compute.h>\nnamespace luisa::render {\n"
     "using compute::BindlessBuffer;\nusing compute::BindlessTexture2D;\n"
     "using compute::BindlessTexture3D;\n"
     "constexpr auto channels = compute::pixel_storage_channel_count(compute::PixelStorage::BYTE4);\n"
     "}\n"},
};

// Each of these parses with the model (and did not before it modelled the API).
TEST(BundledModel, RealProjectsApiUsesParse) {
  std::string Dir = makeTempDir();
  for (const ApiUse &Use : RealApiUses) {
    std::string File = Dir + "/" + Use.Name + ".cpp";
    writeFile(File, Use.Code);
    ProcessResult R = runKernelTidy({"check", "--bundled-model", "--no-pch", File});
    EXPECT_NE(2, R.ExitCode) << Use.Name << "\n" << R.Out << R.Err;
    EXPECT_EQ(0u, count(R.Out + R.Err, "error:")) << Use.Name << "\n" << R.Out << R.Err;
  }
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
} // namespace kernel_tidy::test
