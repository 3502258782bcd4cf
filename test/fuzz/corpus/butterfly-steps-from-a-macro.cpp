#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

#define STEP(d) s = s + warp_read_lane(s, lane ^ d)
void build(Device &device) {
    Kernel1D k = [&](BufferUInt b) noexcept {
        auto lane = warp_lane_id();
        UInt s = b.read(dispatch_x());
        STEP(16u);
        STEP(8u);
        STEP(4u);
        STEP(2u);
        STEP(1u);
        b.write(dispatch_x(), s);
    };
}
