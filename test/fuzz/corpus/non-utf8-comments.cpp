#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

// café ÿþ not UTF-8
void build(Device &device) {
    Kernel1D k = [&](BufferUInt b) noexcept {
        auto lane = warp_lane_id();
        UInt s = b.read(dispatch_x()); // Ã(
        for (uint d = 16u; d > 0u; d /= 2u) { s += warp_read_lane(s, lane ^ d); }
        b.write(dispatch_x(), s);
    };
}
