//===--- BundledModelTest.cpp - Real projects' code against the bundled model -===//

#include "test/unit/TestSupport.h"
#include "llvm/Support/FileSystem.h"
#include <gtest/gtest.h>

namespace kernel_tidy::test {
namespace {

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
                             "#include <luisa/dsl/syntax.h>\n") +
                     Body);
  writeFile(New,
            std::string("#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n") + Body);
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
  writeFile(Good,
            std::string("#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n") + Body);
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
    {"ray_query", "#include <luisa/luisa-compute.h>\n#include <luisa/dsl/sugar.h>\n"
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
    {"vstl", "#include <luisa/luisa-compute.h>\n#include <luisa/vstl/config.h>\n"
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
     "#include <luisa/core/thread_pool.h>\nusing namespace luisa;\nusing namespace "
     "luisa::compute;\n"
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
    {"import_api_declares", "#include <array>\n#include <luisa/luisa-compute.h>\n"
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
     "std::filesystem::path f(const string &s, const unordered_set<string> &enabled, string_view "
     "c) {\n"
     "  std::string_view v = c;\n"
     "  if (enabled.contains(c) && s == v) {}\n"
     "  return std::filesystem::path{s};\n"
     "}\n"},
    // Resource names the 2024-02 headers declare in luisa::compute.
    {"runtime_names", "#include <luisa/luisa-compute.h>\nnamespace luisa::render {\n"
                      "using compute::BindlessBuffer;\nusing compute::BindlessTexture2D;\n"
                      "using compute::BindlessTexture3D;\n"
                      "constexpr auto channels = "
                      "compute::pixel_storage_channel_count(compute::PixelStorage::BYTE4);\n"
                      "}\n"},
    // Issue 28: host luisa::sign of scalars and vectors (the DSL's sign in kernels).
    {"host_sign",
     "#include <luisa/luisa-compute.h>\nusing namespace luisa;\nusing namespace luisa::compute;\n"
     "float f(float x, float3 v, int i) {\n"
     "  constexpr auto s = luisa::sign(-2.0f);\n"
     "  return s + luisa::sign(x) + luisa::sign(v).y + static_cast<float>(sign(i)) +\n"
     "         static_cast<float>(sign(make_double2(1.0)).x) + "
     "static_cast<float>(sign(make_int3(i)).z);\n"
     "}\n"
     "Callable g = [](Float x) noexcept { return sign(x); };\n"},
    // luisa/core/fiber.h (also brought in by luisa-compute.h): scheduler, counter, event,
    // future, schedule, async, parallel, async_parallel, luisa_fiber_defer.
    {"fiber", "#include <luisa/core/fiber.h>\n"
              "static luisa::fiber::scheduler global_scheduler;\n"
              "int f() {\n"
              "  auto n = luisa::fiber::worker_thread_count();\n"
              "  luisa::fiber::event evt{luisa::fiber::event::Mode::Auto, false};\n"
              "  luisa::fiber::schedule([evt]() mutable { evt.signal(); });\n"
              "  evt.wait();\n"
              "  if (evt.test() && evt.is_signalled()) evt.clear();\n"
              "  luisa::fiber::counter c{3};\n"
              "  luisa::fiber::parallel(16u, [&](uint32_t i) { c.done(); });\n"
              "  c.add(1); c.wait();\n"
              "  auto result = luisa::fiber::async([] { return 42; });\n"
              "  int v = result.wait();\n"
              "  luisa::fiber::event done = luisa::fiber::async([] {});\n"
              "  auto all = luisa::fiber::async_parallel(8u, [](uint32_t i) {});\n"
              "  all.wait();\n"
              "  luisa::fiber::mutex m;\n"
              "  { luisa::fiber::lock l{m}; }\n"
              "  luisa::fiber::future<int> fut;\n"
              "  fut.signal(1);\n"
              "  luisa_fiber_defer(v += 1);\n"
              "  return v + static_cast<int>(n) + fut.wait();\n"
              "}\n"},
    // luisa/dsl/binding_group.h: LUISA_BINDING_GROUP structs as kernel and Callable
    // arguments, their extension methods, nesting, and LUISA_BINDING_GROUP_TEMPLATE.
    {"binding_group",
     "#include <luisa/runtime/context.h>\n#include <luisa/runtime/stream.h>\n"
     "#include <luisa/runtime/image.h>\n#include <luisa/runtime/shader.h>\n#include "
     "<luisa/dsl/syntax.h>\n"
     "using namespace luisa;\nusing namespace luisa::compute;\n"
     "struct Arguments { Image<float> image; uint2 resolution; };\n"
     "struct ArgumentsView { ImageView<float> image; uint2 resolution; };\n"
     "struct Nested { ArgumentsView args; Image<float> image; };\n"
     "LUISA_BINDING_GROUP(Arguments, image, resolution) {\n"
     "  void write(const UInt2 &coord, const Float4 &color) noexcept { image->write(coord, color); "
     "}\n"
     "};\n"
     "LUISA_BINDING_GROUP(ArgumentsView, image, resolution) {};\n"
     "LUISA_BINDING_GROUP(Nested, args, image) {\n"
     "  void blit(const UInt2 &coord) noexcept {\n"
     "    auto color = args.image.read(coord).xyz();\n"
     "    image->write(coord, make_float4(1.f - color, 1.f));\n"
     "  }\n"
     "};\n"
     "template<class T> struct TArguments { Image<T> image; uint2 resolution; };\n"
     "#define TEMPLATE_T() template<class T> requires is_legal_image_element<T>\n"
     "LUISA_BINDING_GROUP_TEMPLATE(TEMPLATE_T, TArguments<T>, image, resolution) {\n"
     "  void write(const UInt2 &coord, const Float4 &color) noexcept { this->image->write(coord, "
     "color); }\n"
     "};\n"
     "void f(Device &device, Stream &stream) {\n"
     "  Callable color = [](UInt2 coord, Var<Arguments> args) noexcept {\n"
     "    return make_float4((make_float2(coord) + .5f) / make_float2(args.resolution), .5f, "
     "1.f);\n"
     "  };\n"
     "  Kernel2D kernel = [&color](Var<Arguments> args) noexcept {\n"
     "    auto coord = dispatch_id().xy();\n"
     "    args->write(coord, color(coord, args));\n"
     "  };\n"
     "  Kernel2D nested = [](Var<Nested> args) noexcept { args->blit(dispatch_id().xy()); };\n"
     "  Kernel2D templated = [](Var<TArguments<float>> args) noexcept {\n"
     "    args->write(dispatch_id().xy(), make_float4(1.f));\n"
     "  };\n"
     "  auto shader = device.compile(kernel);\n"
     "  auto shader_nested = device.compile(nested);\n"
     "  Arguments args{.image = device.create_image<float>(PixelStorage::BYTE4, make_uint2(64u)),\n"
     "                 .resolution = make_uint2(64u)};\n"
     "  Nested n{.args = ArgumentsView{args.image.view(), args.resolution},\n"
     "           .image = device.create_image<float>(PixelStorage::BYTE4, make_uint2(64u))};\n"
     "  stream << shader(args).dispatch(args.resolution)\n"
     "         << shader_nested(n).dispatch(n.image.view().size()) << synchronize();\n"
     "  static_assert(luisa::compute::detail::shader_argument_encode_count<Arguments>::value == "
     "2u);\n"
     "}\n"},
    // Context::backend_device_names, installed_backends (a span).
    {"context_backends",
     "#include <luisa/runtime/context.h>\nusing namespace luisa;\nusing namespace luisa::compute;\n"
     "size_t f(Context &context) {\n"
     "  size_t n = 0;\n"
     "  for (auto &&backend : context.installed_backends())\n"
     "    for (const luisa::string &name : context.backend_device_names(backend)) n += "
     "name.size();\n"
     "  luisa::vector<luisa::string> cuda = context.backend_device_names(\"cuda\");\n"
     "  return n + cuda.size();\n"
     "}\n"},
    // BufferView from its native handle, handle, stride, offset, size and total size.
    {"buffer_view_six_arguments",
     "#include <luisa/runtime/buffer.h>\n#include <luisa/runtime/rhi/resource.h>\n"
     "using namespace luisa;\nusing namespace luisa::compute;\n"
     "luisa::vector<BufferView<float4>> f(const luisa::vector<BufferCreationInfo> &infos) {\n"
     "  luisa::vector<BufferView<float4>> views;\n"
     "  for (auto &i : infos)\n"
     "    views.emplace_back(i.native_handle, i.handle, sizeof(float4), 0,\n"
     "                       i.total_size_bytes / sizeof(float4), i.total_size_bytes);\n"
     "  BufferView<float> v{nullptr, 1u, sizeof(float), 0u, 4u, 16u};\n"
     "  return views;\n"
     "}\n"},
    // A user fmt::formatter: parse(format_parse_context &), format(T, FormatContext &).
    {"fmt_formatter",
     "#include <luisa/core/logging.h>\n#include <luisa/core/basic_types.h>\n"
     "struct Test { int a; luisa::float4 c; };\n"
     "template<>\n"
     "struct fmt::formatter<Test> {\n"
     "  constexpr auto parse(format_parse_context &ctx) { return ctx.begin(); }\n"
     "  template<typename FormatContext>\n"
     "  auto format(const Test &t, FormatContext &ctx) const {\n"
     "    return fmt::format_to(ctx.out(), \"Test{{a={}, c=({}, {})}}\", t.a, t.c.x, t.c.y);\n"
     "  }\n"
     "};\n"
     "struct Wrapped { int v; };\n"
     "template<>\n"
     "struct fmt::formatter<Wrapped> {\n"
     "  constexpr auto parse(fmt::format_parse_context &ctx) -> decltype(ctx.begin()) {\n"
     "    auto it = ctx.begin();\n"
     "    if (it != ctx.end()) ctx.advance_to(it);\n"
     "    return it;\n"
     "  }\n"
     "  auto format(const Wrapped &w, fmt::format_context &ctx) const -> decltype(ctx.out()) {\n"
     "    return fmt::format_to(ctx.out(), \"{}\", w.v);\n"
     "  }\n"
     "};\n"},
    // luisa/tensor: a fallback TensorInterface, a tensor kernel from a lambda (Tensor views
    // of buffers, matmul with a fused activation), compile and execute; and every header.
    {"tensor",
     "#include <luisa/runtime/context.h>\n#include <luisa/runtime/device.h>\n"
     "#include <luisa/runtime/stream.h>\n#include <luisa/dsl/sugar.h>\n"
     "#include <luisa/tensor/expression.h>\n#include <luisa/tensor/ext.h>\n"
     "#include <luisa/tensor/fallback/i_tensor_expr_executor.h>\n"
     "#include <luisa/tensor/fallback/interface.h>\n#include "
     "<luisa/tensor/fallback/matmul_impl.h>\n"
     "#include <luisa/tensor/fallback/set_value_impl.h>\n#include "
     "<luisa/tensor/fallback/softmax_impl.h>\n"
     "#include <luisa/tensor/fused_activation.h>\n#include <luisa/tensor/graph.h>\n"
     "#include <luisa/tensor/kernel.h>\n#include <luisa/tensor/pass/expr_topo.h>\n"
     "#include <luisa/tensor/pass/shader_manager.h>\n#include <luisa/tensor/tensor.h>\n"
     "#include <luisa/tensor/tensor_builder.h>\n#include <luisa/tensor/tensor_interface.h>\n"
     "using namespace luisa;\nusing namespace luisa::compute;\n"
     "void f(Device &device, float4x4 &a, float4x4 &b) {\n"
     "  TensorBuilder builder;\n"
     "  auto stream = device.create_stream();\n"
     "  auto interface = TensorInterface::create_fallback_backend(device);\n"
     "  CommandList cmdlist;\n"
     "  auto b0 = device.create_buffer<float>(16);\n"
     "  auto b1 = device.create_buffer<float>(16);\n"
     "  cmdlist << b0.copy_from(luisa::span{&a, 1}) << b1.copy_from(luisa::span{&b, 1});\n"
     "  auto kernel = load_tensor(interface.get(), [&]() {\n"
     "    Tensor t0{b0, {4ull, 4ull}};\n"
     "    Tensor t1{b1.view(), {4ull, 4ull}};\n"
     "    Tensor::init_tensor(t0, &a, nullptr);\n"
     "    Tensor::init_tensor(t1, &b, nullptr);\n"
     "    return Tensor::matmul(t0, t1, FusedActivation::relu());\n"
     "  });\n"
     "  kernel.compile();\n"
     "  float4x4 result;\n"
     "  auto outs = kernel.execute(cmdlist);\n"
     "  BufferView<float4> out = outs[0];\n"
     "  cmdlist << out.copy_to(luisa::span{&result, 1});\n"
     "  stream << cmdlist.commit() << synchronize();\n"
     "  auto relu = FusedActivation::leakly_relu(0.1f);\n"
     "  static_assert(tensor_element_size(get_tensor_elem_type<double>()) == 8u);\n"
     "  static_assert(valid_tensor_elem_type<float>);\n"
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
