// The executor behind LuisaCompute's Device/Stream/Buffer/Shader API.
#include <simt/Device.h>

#include <luisa/dsl/sugar.h>
#include <luisa/dsl/syntax.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/device.h>
#include <luisa/runtime/shader.h>
#include <luisa/runtime/stream.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <unistd.h>

using namespace luisa;
using namespace luisa::compute;
using kernel_tidy::simt::LaunchOptions;
using kernel_tidy::simt::SimtDevice;

namespace {

std::string executablePath() {
  char Path[4096];
  ssize_t N = readlink("/proc/self/exe", Path, sizeof Path - 1);
  return N > 0 ? std::string(Path, size_t(N)) : std::string("simt");
}

struct SimtDeviceTest : ::testing::Test {
  luisa::shared_ptr<SimtDevice> Simt =
      luisa::make_shared<SimtDevice>(Context{luisa::string_view{executablePath()}}, LaunchOptions{});
  Device D{Simt};
};

TEST_F(SimtDeviceTest, RunsKernelsThroughStreamsBuffersAndShaders) {
  Kernel1D Scale = [](BufferUInt In, BufferUInt Out, UInt Factor) {
    set_block_size(64u);
    Out.write(dispatch_x(), In.read(dispatch_x()) * Factor + warp_active_count_bits(true));
  };
  auto Shader = D.compile(Scale);
  auto In = D.create_buffer<uint>(100);
  auto Out = D.create_buffer<uint>(100);
  Stream S = D.create_stream();
  std::vector<uint> Host(100), Result(100, 0);
  std::iota(Host.begin(), Host.end(), 0u);
  S << In.copy_from(Host.data()) << Shader(In, Out, 3u).dispatch(100) << Out.copy_to(Result.data())
    << synchronize();
  for (uint I = 0; I < 100; ++I) EXPECT_EQ(Result[I], I * 3 + (I < 96 ? 32 : 4)) << I;
  EXPECT_EQ(Simt->dispatches(), 1u);
  EXPECT_EQ(Simt->submissions(), 1u) << "one chained statement is one command list";
  EXPECT_EQ(Simt->observed().Events.size(), 0u);
}

TEST_F(SimtDeviceTest, BufferViewsStartAtTheirOffset) {
  Kernel1D Mark = [](BufferUInt Out) {
    set_block_size(32u);
    Out.write(dispatch_x(), dispatch_x() + 1u);
  };
  auto Shader = D.compile(Mark);
  auto Out = D.create_buffer<uint>(64);
  Stream S = D.create_stream();
  std::vector<uint> Zero(64, 0), Result(64);
  S << Out.copy_from(Zero.data()) << Shader(Out.view(10, 20)).dispatch(20) << Out.copy_to(Result.data())
    << synchronize();
  for (uint I = 0; I < 64; ++I) EXPECT_EQ(Result[I], I >= 10 && I < 30 ? I - 9 : 0u) << I;
}

TEST_F(SimtDeviceTest, CountsSubmissionsAndReportsUndefinedResults) {
  Kernel1D Read = [](BufferUInt Out) {
    set_block_size(32u);
    UInt Lane = warp_lane_id();
    $if (Lane < 16u) { Out.write(Lane, warp_read_lane(Lane, Lane + 16u)); };
  };
  auto Shader = D.compile(Read);
  auto Out = D.create_buffer<uint>(32);
  Stream S = D.create_stream();
  std::vector<uint> Zero(32, 0);
  size_t Before = Simt->submissions();
  S << Out.copy_from(Zero.data());
  S << Shader(Out).dispatch(32);
  S << synchronize();
  EXPECT_EQ(Simt->submissions() - Before, 2u) << "two statements with commands are two command lists";
  EXPECT_EQ(Simt->observed().count(kernel_tidy::simt::EventKind::UndefinedRead), 16u);
  kernel_tidy::simt::BufferView View = Simt->view(Out.handle());
  for (uint I = 0; I < 32; ++I) {
    bool Undefined = false;
    for (size_t B = 0; B < sizeof(uint); ++B) Undefined = Undefined || View.Shadow[I * sizeof(uint) + B];
    EXPECT_EQ(Undefined, I < 16) << I;
  }
}

// The idiom of real projects: a kernel lambda captures a Buffer (used as
// `Counter->atomic`) and a BufferView by reference. LuisaCompute records them as
// the kernel's first parameters with bindings (Function::bound_arguments());
// the dispatch passes only the others. The counter kernel and a
// warp-aggregated rewrite of it (the form of luisa-warp-aggregated-atomic's
// fix) run on the same inputs and are compared as the harness does: every
// element defined in both, equal, and no hazard events.
TEST_F(SimtDeviceTest, CapturedBuffersAreBoundAsLuisaComputeBindsThem) {
  constexpr uint N = 200;
  Buffer<uint> Counter = D.create_buffer<uint>(1); // `Counter->`: the buffer's DSL proxy
  auto Copies = D.create_buffer<uint>(2 * N);
  BufferView<uint> Upper = Copies.view(N, N);
  Kernel1D Before = [&](BufferUInt In, UInt Threshold) {
    set_block_size(64u);
    UInt X = dispatch_x();
    UInt V = In.read(X);
    $if (V > Threshold) { Counter->atomic(0u).fetch_add(1u); };
    Upper->write(X, V);
  };
  Kernel1D After = [&](BufferUInt In, UInt Threshold) {
    set_block_size(64u);
    UInt X = dispatch_x();
    UInt V = In.read(X);
    $if (V > Threshold) {
      UInt Active = warp_active_count_bits(true);
      $if (warp_is_first_active_lane()) { Counter->atomic(0u).fetch_add(Active); };
    };
    Upper->write(X, V);
  };
  auto In = D.create_buffer<uint>(N);
  Stream S = D.create_stream();
  std::vector<uint> Host(N);
  for (uint I = 0; I < N; ++I) Host[I] = (I * 2654435761u) % 97u;
  std::vector<uint> Zero(2 * N, 0);
  uint Expected = uint(std::count_if(Host.begin(), Host.end(), [](uint V) { return V > 40u; }));
  std::vector<std::vector<uint>> Results;
  auto runOnExecutor = [&](auto &K) {
    auto Shader = D.compile(K);
    ASSERT_EQ(K.function()->function().bound_arguments().size(), 2u)
        << "the counter and the view are captured";
    uint Zero1 = 0;
    std::vector<uint> Count(1), Out(2 * N);
    size_t EventsBefore = Simt->observed().Events.size();
    S << Counter.copy_from(&Zero1) << Copies.copy_from(Zero.data()) << In.copy_from(Host.data())
      << Shader(In, 40u).dispatch(N) << Counter.copy_to(Count.data()) << Copies.copy_to(Out.data())
      << synchronize();
    EXPECT_EQ(Simt->observed().Events.size(), EventsBefore) << "no hazard events";
    kernel_tidy::simt::BufferView Shadow = Simt->view(Copies.handle());
    for (size_t B = 0; B < 2 * N * sizeof(uint); ++B) ASSERT_FALSE(Shadow.Shadow[B]) << B;
    EXPECT_EQ(Count[0], Expected);
    for (uint I = 0; I < N; ++I) {
      EXPECT_EQ(Out[I], 0u) << I;
      EXPECT_EQ(Out[N + I], Host[I]) << I;
    }
    Out.push_back(Count[0]);
    Results.push_back(std::move(Out));
  };
  runOnExecutor(Before);
  runOnExecutor(After);
  ASSERT_EQ(Results.size(), 2u);
  EXPECT_EQ(Results[0], Results[1]) << "the rewrite gives the original's results";
}

// A kernel whose only resources are captured is dispatched with no arguments.
TEST_F(SimtDeviceTest, AKernelWithOnlyCapturedResourcesTakesNoArguments) {
  auto Out = D.create_buffer<uint>(64);
  Kernel1D Fill = [&] {
    set_block_size(32u);
    Out->write(dispatch_x(), dispatch_x() * 2u);
  };
  auto Shader = D.compile(Fill);
  Stream S = D.create_stream();
  std::vector<uint> Result(64, 1);
  S << Shader().dispatch(64) << Out.copy_to(Result.data()) << synchronize();
  for (uint I = 0; I < 64; ++I) EXPECT_EQ(Result[I], I * 2) << I;
}

} // namespace
