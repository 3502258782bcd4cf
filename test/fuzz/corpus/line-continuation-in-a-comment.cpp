#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

void build(Device &device) {
    Kernel1D k = [&](BufferUInt b) noexcept {
        auto lane = warp_lane_id();
        UInt s = b.read(dispatch_x());
        s = s + warp_read_lane(s, lane ^ 16u); // continued \
        s = s + warp_read_lane(s, lane ^ 8u);
        s = s + warp_read_lane(s, lane ^ 4u);
        s = s + warp_read_lane(s, lane ^ 2u);
        s = s + warp_read_lane(s, lane ^ 1u);
        b.write(dispatch_x(), s);
    };
}
