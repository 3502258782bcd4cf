// RULES: luisa-shared-race
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

constexpr uint kBlock = 256u;

// Intra-block races (GPUVerify's races/ and fail/ tests): one thread writes a
// Shared element that another reads in the same barrier interval.

// CASE read-right-neighbour-no-barrier: luisa-shared-race
void right_neighbour(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        s[thread_x()] = data.read(dispatch_x());
        data.write(dispatch_x(), s[(thread_x() + 1u) % kBlock]);
    };
}
// CASE read-left-neighbour-guarded: luisa-shared-race
void left_neighbour(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        auto tid = thread_x();
        s[tid] = data.read(dispatch_x());
        $if (tid > 0u) { data.write(dispatch_x(), s[tid - 1u]); };
    };
}
// CASE thread-zero-publishes-everyone-reads: luisa-shared-race
void broadcast(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Shared<uint> s{1u};
        $if (thread_x() == 0u) { s[0u] = data.read(block_id().x); };
        data.write(dispatch_x(), s[0u]);
    };
}
// CASE xor-partner: luisa-shared-race
void xor_partner(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(64u, 1u, 1u);
        Shared<uint> s{64u};
        s.write(thread_x(), data.read(dispatch_x()));
        data.write(dispatch_x(), s.read(thread_x() ^ 4u));
    };
}
// CASE interleaved-read-then-write-back: luisa-shared-race
void write_after_read(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(128u, 1u, 1u);
        Shared<uint> s{256u};
        auto tid = thread_x();
        UInt v = s[2u * tid] + s[2u * tid + 1u];
        s[tid] = v;
    };
}
// CASE in-place-update-from-neighbour: luisa-shared-race
void in_place(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        auto tid = thread_x();
        s[tid] = data.read(dispatch_x());
        sync_block();
        $if (tid + 1u < kBlock) { s[tid] = s[tid] + s[tid + 1u]; };
    };
}
// CASE tree-step-missing-end-barrier: luisa-shared-race
void tree_end(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> partial{kBlock};
        auto tid = thread_x();
        partial[tid] = data.read(dispatch_x());
        sync_block();
        for (uint stride = kBlock / 2u; stride > 0u; stride /= 2u) {
            $if (tid < stride) { partial[tid] += partial[tid + stride]; };
        }
        $if (tid == 0u) { data.write(block_id().x, partial[0u]); };
    };
}
// CASE scan-step-missing-middle-barrier: luisa-shared-race
void scan_middle(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        auto tid = thread_x();
        s[tid] = data.read(dispatch_x());
        sync_block();
        for (uint offset = 1u; offset < kBlock; offset *= 2u) {
            UInt v = 0u;
            $if (tid >= offset) { v = s[tid - offset]; };
            $if (tid >= offset) { s[tid] = s[tid] + v; };
            sync_block();
        }
        data.write(dispatch_x(), s[tid]);
    };
}
// CASE back-edge-write-late-read-early: luisa-shared-race
void back_edge(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt rounds) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        auto tid = thread_x();
        s[tid] = 0u;
        sync_block();
        $for (r, 0u, rounds) {
            UInt next = s[(tid + 1u) % kBlock] + r;
            sync_block();
            s[tid] = next;
        };
    };
}
// CASE loop-without-barriers: luisa-shared-race
void no_barrier_loop(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(32u, 1u, 1u);
        Shared<uint> s{32u};
        auto tid = thread_x();
        $for (i, 0u, 4u) {
            s[tid] = data.read(i * 32u + tid);
            data.write(i * 32u + tid, s[31u - tid]);
        };
    };
}
// CASE divergent-branches: luisa-shared-race
void branches(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(64u, 1u, 1u);
        Shared<uint> s{64u};
        auto tid = thread_x();
        $if (tid < 32u) { s[tid] = data.read(dispatch_x()); } $else { data.write(dispatch_x(), s[tid - 32u]); };
    };
}
// CASE helper-writes-caller-reads: luisa-shared-race
void put(Shared<uint> &s, Expr<uint> i, Expr<uint> v) noexcept { s[i] = v; }
void helper(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        put(s, thread_x(), data.read(dispatch_x()));
        data.write(dispatch_x(), s[kBlock - 1u - thread_x()]);
    };
}
// CASE lambda-helper-and-2d-block: luisa-shared-race
void lambda_2d(Device &device) {
    Kernel2D k = [&](BufferUInt data) noexcept {
        set_block_size(8u, 8u, 1u);
        Shared<uint> tile{64u};
        auto slot = [&](Expr<uint> x, Expr<uint> y) noexcept { return y * 8u + x; };
        tile[slot(thread_x(), thread_y())] = data.read(dispatch_x());
        data.write(dispatch_x(), tile[thread_y() * 8u + (7u - thread_x())]);
    };
}
// CASE read-modify-write-shared-slot: luisa-shared-race
void rmw(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Shared<uint> count{8u};
        count[thread_x() / 32u] += 1u;
    };
}

// CASE doubling-offset-device-loop: luisa-shared-race (known: missed)
void doubling(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        auto tid = thread_x();
        s[tid] = data.read(dispatch_x());
        sync_block();
        UInt offset = 1u;
        $while (offset < kBlock) {
            $if (tid >= offset) { s[tid] = s[tid] + s[tid - offset]; };
            offset *= 2u;
            sync_block();
        };
    };
}
// CASE array-held-by-a-helper-class: luisa-shared-race (known: missed)
struct Stage {
    Shared<uint> *slots;
    void put(Expr<uint> i, Expr<uint> v) noexcept { (*slots)[i] = v; }
    [[nodiscard]] UInt get(Expr<uint> i) noexcept { return (*slots)[i]; }
};
void helper_class(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Stage stage{new Shared<uint>{256u}};
        stage.put(thread_x(), data.read(dispatch_x()));
        data.write(dispatch_x(), stage.get(255u - thread_x()));
    };
}

// Benign and synchronized access patterns (GPUVerify's pass/ and benign tests).

// CASE stage-barrier-reuse: none
void staged(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        s[thread_x()] = data.read(dispatch_x());
        sync_block();
        data.write(dispatch_x(), s[(thread_x() + 1u) % kBlock]);
    };
}
// CASE own-slot-only: none
void own_slot(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Shared<uint> s{256u};
        s[thread_x()] = data.read(dispatch_x());
        s[thread_x()] = s[thread_x()] * 2u;
        data.write(dispatch_x(), s[thread_x()]);
    };
}
// CASE even-odd-disjoint: none
void even_odd(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(128u, 1u, 1u);
        Shared<uint> s{256u};
        s[2u * thread_x()] = 1u;
        data.write(dispatch_x(), s[2u * thread_x() + 1u]);
    };
}
// CASE lower-half-upper-half: none
void halves(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{2u * kBlock};
        s[thread_x()] = 1u;
        data.write(dispatch_x(), s[thread_x() + kBlock]);
    };
}
// CASE tree-reduction-guide-4-4: none
void tree_ok(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> partial{kBlock};
        auto tid = thread_id().x;
        UInt value = data.read(dispatch_x());
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
        $if (tid == 0u) { data.write(block_id().x, partial[0u]); };
    };
}
// CASE in-place-tree-host-loop: none
void tree_in_place(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> partial{kBlock};
        auto tid = thread_x();
        partial[tid] = data.read(dispatch_x());
        sync_block();
        for (uint stride = kBlock / 2u; stride > 0u; stride /= 2u) {
            $if (tid < stride) { partial[tid] += partial[tid + stride]; };
            sync_block();
        }
        $if (tid == 0u) { data.write(block_id().x, partial[0u]); };
    };
}
// CASE two-level-warp-partials: none
void two_level(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        set_warp_size(32u);
        Shared<uint> partials{kBlock / 32u};
        UInt sum = warp_active_sum(data.read(dispatch_x()));
        $if (warp_is_first_active_lane()) { partials[thread_x() / 32u] = sum; };
        sync_block();
        $if (thread_x() < kBlock / 32u) { data.write(block_id().x, warp_active_sum(partials[thread_x()])); };
    };
}
// CASE uniform-loop-barriers-both-ends: none
void uniform_loop(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt rounds) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> s{kBlock};
        $for (r, 0u, rounds) {
            s[thread_x()] = data.read(r * kBlock + thread_x());
            sync_block();
            data.write(r, s[kBlock - 1u - thread_x()]);
            sync_block();
        };
    };
}
// CASE uniform-branch-arms: none
void uniform_arms(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt mode) noexcept {
        Shared<uint> s{256u};
        $if (mode == 0u) { s[thread_x()] = 1u; } $else { data.write(dispatch_x(), s[255u - thread_x()]); };
    };
}
// CASE every-thread-stores-the-same-value: none
void same_value(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt seed) noexcept {
        Shared<uint> s{1u};
        s[0u] = seed;
        data.write(dispatch_x(), s[0u]);
    };
}
// CASE shared-atomics-only: none
void atomics(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Shared<uint> count{1u};
        $if (thread_x() == 0u) { count[0u] = 0u; };
        sync_block();
        count.atomic(0u).fetch_add(1u);
        sync_block();
        $if (thread_x() == 0u) { data.write(block_id().x, count[0u]); };
    };
}
// CASE privatized-queue-guide-4-3: none
void queue(Device &device) {
    Kernel1D k = [&](BufferUInt data, BufferUInt counter) noexcept {
        Shared<uint> index{1};
        $if (thread_x() == 0u) { index.write(0u, 0u); };
        sync_block();
        auto local_index = def(0u);
        $if (data.read(dispatch_x()) > 0u) { local_index = index.atomic(0).fetch_add(1u); };
        sync_block();
        $if (thread_x() == 0u) {
            auto local_count = index.read(0u);
            index.write(0u, counter.atomic(0u).fetch_add(local_count));
        };
        sync_block();
        data.write(dispatch_x(), index.read(0u) + local_index);
    };
}
// CASE double-buffered-ping-pong: none
void ping_pong(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(kBlock, 1u, 1u);
        Shared<uint> a{kBlock};
        Shared<uint> b{kBlock};
        auto tid = thread_x();
        a[tid] = data.read(dispatch_x());
        sync_block();
        b[tid] = a[(tid + 1u) % kBlock];
        data.write(dispatch_x(), a[tid]);
    };
}
// CASE data-dependent-index: none
void data_index(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Shared<uint> s{256u};
        s[thread_x()] = 1u;
        data.write(dispatch_x(), s[data.read(dispatch_x()) % 256u]);
    };
}
// CASE helper-called-twice-own-arrays: none
void scratch_round(Expr<uint> v, BufferUInt &data) noexcept {
    Shared<uint> scratch{256u};
    scratch[thread_x()] = v;
    data.write(dispatch_x(), scratch[thread_x()]);
}
void helper_twice(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        scratch_round(1u, data);
        scratch_round(2u, data);
    };
}
