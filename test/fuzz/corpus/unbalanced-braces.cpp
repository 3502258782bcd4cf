#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

void build(Device &device) {
    Kernel1D k = [&](BufferUInt b) noexcept {
        auto lane = warp_lane_id();
        UInt s = b.read(dispatch_x());
        s = s + warp_read_lane(s, lane ^ 16u);
