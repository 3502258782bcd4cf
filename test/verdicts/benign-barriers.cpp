// RULES: luisa-divergent-barrier
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

constexpr uint kBlock = 256u;

// CASE kernel-argument-if: none
void argument_if(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt n) noexcept {
        $if (n > 16u) { sync_block(); };
    };
}
// CASE block-id-if: none
void block_if(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        $if (block_id().x % 2u == 0u) { sync_block(); } $else { sync_block(); };
    };
}
// CASE host-constant-and-host-loop: none
void host_loop(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        for (uint step = 1u; step < kBlock; step *= 2u) { sync_block(); }
        $if (kBlock > 64u) { sync_block(); };
    };
}
// CASE uniform-buffer-read-and-shared-slot: none
void uniform_reads(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Shared<uint> flag{1u};
        $if (thread_x() == 0u) { flag[0u] = data.read(0u); };
        sync_block();
        $while (flag[0u] != 0u) {
            sync_block();
            $if (thread_x() == 0u) { flag[0u] = flag[0u] - 1u; };
            sync_block();
        };
        $if (data.read(block_id().x) > 0u) { sync_block(); };
    };
}
// CASE tree-reduction-guide-4-4: none
void tree_reduction(Device &device) {
    Kernel1D k = [&](BufferFloat data, BufferFloat out) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<float> partial{kBlock};
        auto tid = thread_id().x;
        Float value = data.read(dispatch_x());
        partial[tid] = value;
        UInt half = kBlock / 2u;
        sync_block();
        $while (half > 0u) {
            $if (tid < half) { value = partial[tid * 2u] + partial[tid * 2u + 1u]; };
            sync_block();
            $if (tid < half) { partial[tid] = value; };
            half /= 2u;
            sync_block();
        };
        $if (tid == 0u) { out.write(block_id().x, partial[0u]); };
    };
}
// CASE uniform-early-return: none
void uniform_return(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt n) noexcept {
        $if (block_id().x * kBlock >= n) { $return(); };
        sync_block();
    };
}
// CASE guarded-work-unguarded-barrier: none
void guarded_work(Device &device) {
    Kernel1D k = [&](BufferFloat data, UInt size) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<float> tile{kBlock};
        auto inside = dispatch_x() < size;
        $if (inside) { tile[thread_x()] = data.read(dispatch_x()); };
        sync_block();
        $if (inside) { data.write(dispatch_x(), tile[kBlock - 1u - thread_x()]); };
    };
}
// CASE uniform-loop-with-thread-work: none
void uniform_loop(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt rounds) noexcept {
        Shared<uint> s{kBlock};
        $for (r, 0u, rounds) {
            s[thread_x()] = data.read(r * kBlock + thread_x());
            sync_block();
            $if (thread_x() == r % kBlock) { data.write(r, s[0u]); };
            sync_block();
        };
    };
}
// CASE helper-with-barrier-at-uniform-control: none
void stage() noexcept { sync_block(); }
void helper_uniform(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt n) noexcept {
        stage();
        $if (n > 0u) { stage(); };
    };
}
// CASE helper-condition-on-uniform-argument: none
void barrier_below(Expr<uint> index, Expr<uint> bound) noexcept {
    $if (index < bound) { sync_block(); };
}
void helper_uniform_argument(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt n) noexcept { barrier_below(block_id().x, n); };
}
// CASE divergent-break-in-inner-loop-only: none
void inner_break(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt n) noexcept {
        $for (i, 0u, n) {
            $loop { $if (thread_x() >= i) { $break; }; };
            sync_block();
        };
    };
}
// CASE warp-collectives-need-no-barrier: none
void warp_only(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        $if (thread_x() < 32u) { data.write(dispatch_x(), warp_active_sum(data.read(dispatch_x()))); };
    };
}
// CASE divergent-helper-without-barrier: none
void write_if_first(BufferUInt &data) noexcept {
    $if (thread_x() == 0u) { data.write(block_id().x, 1u); };
}
void helper_without_barrier(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        $if (thread_x() < 8u) { write_if_first(data); };
        sync_block();
    };
}
