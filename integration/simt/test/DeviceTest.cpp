// The executor behind LuisaCompute's Device/Stream/Buffer/Shader API.
#include <simt/Device.h>

#include <luisa/dsl/sugar.h>
#include <luisa/dsl/syntax.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/device.h>
#include <luisa/runtime/shader.h>
#include <luisa/runtime/stream.h>

#include <gtest/gtest.h>

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

} // namespace
