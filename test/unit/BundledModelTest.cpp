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

} // namespace
} // namespace kernel_tidy::test
