// Crashed luisa-divergent-barrier and luisa-shared-out-of-bounds (found on LuisaCompute's
// test_mipmap.cpp): indexing the $while body after the kernel body appended to the
// write list being walked.
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>
using namespace luisa;
using namespace luisa::compute;
void build(Device &device) {
    constexpr uint32_t block_size = 32;
    Kernel2D k = [&](BufferFloat b) {
            set_block_size(block_size, block_size, 1);
            Var local_coord = thread_id().xy();
            Var lefted_block = block_size;
            $while(lefted_block > 0) {
                Var next_block = lefted_block / 2;
                sync_block();
                lefted_block = next_block;
            };
        };
}
