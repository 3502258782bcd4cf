#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

void build(Device &device) {
    Kernel1D k = [&](BufferUInt b) noexcept {
        set_block_size(256u, 1u, 1u);
        Shared<uint> counter{1u};
        $if (thread_x() == 0u) { counter.write(0u, 0u); };
        sync_block();
        counter.atomic(0u) /* one slot */ .fetch_add(1u); // count
        sync_block();
        $if (thread_x() == 0u) { b.write(block_x(), counter.read(0u)); };
    };
}
