// Two rules fixed atomics in one function and both declared warp_sum (one fix was
// dropped as not compiling): fresh names are shared by all rules of a unit.
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

void build(Device &device) {
    Kernel1D k0 = [&](BufferUInt ubuf, BufferInt ibuf, BufferFloat fbuf) noexcept {
        set_block_size(48u, 1u, 1u);
        auto lane = warp_lane_id();
        Shared<uint> counter1{1u};
        $if (thread_x() == 0u) { counter1.write(0u, 0u); };
        sync_block();
        counter1.atomic(block_x() % 1u).fetch_sub(1u);
        sync_block();
        $if (thread_x() == 0u) { ubuf.write(block_x(), counter1.read(0u)); };
        UInt g2 = ubuf.read(dispatch_x());
        ubuf.atomic(0u).fetch_add(1u);
        Shared<int> counter3{1u};
        $if (thread_x() == 0u) { counter3.write(0u, 0); };
        sync_block();
        counter3.atomic(0u).fetch_min(ibuf.read(dispatch_x()));
        sync_block();
        $if (thread_x() == 0u) { ibuf.write(block_x(), counter3.read(0u)); };
    };
    auto shader0 = device.compile(k0);
}
