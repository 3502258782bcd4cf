// Block-level reductions and scans over 256-thread blocks (8 warps of 32).
//
// Mixes the shared-memory tree reduction, the two-level warp -> shared -> block
// reduction, hand-written warp butterflies and warp-level scans.

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

namespace {

constexpr uint k_block = 256u;
constexpr uint k_warp = 32u;
constexpr uint k_warps = k_block / k_warp;

}// namespace

void build_block_reductions(Device &device) {

    // 1. Classic tree reduction in shared memory: spans the whole block, keep.
    Kernel1D tree_sum = [&](BufferFloat input, BufferFloat block_sums) noexcept {
        set_block_size(k_block, 1u, 1u);
        Shared<float> smem{k_block};
        auto tid = thread_x();
        smem[tid] = input.read(dispatch_x());
        sync_block();
        for (uint stride = k_block / 2u; stride > 0u; stride >>= 1u) {
            Float v = 0.f;
            $if (tid < stride) { v = smem[tid] + smem[tid + stride]; };
            sync_block();
            $if (tid < stride) { smem[tid] = v; };
            sync_block();
        }
        $if (tid == 0u) { block_sums.write(block_id().x, smem[0u]); };
    };

    // 2. Two-level integer reduction with a hand-written warp stage.
    Kernel1D two_level = [&](BufferInt input, BufferInt block_sums, BufferUInt blocks_done) noexcept {
        set_block_size(k_block, 1u, 1u);
        set_warp_size(k_warp);
        auto lane = warp_lane_id();
        auto warp_id = thread_x() / k_warp;
        Shared<int> warp_partials{k_warps};
        Shared<uint> finished{1u};
        $if (thread_x() == 0u) { finished[0u] = 0u; };
        Int v = input.read(dispatch_x());
        $if (dispatch_x() < dispatch_size().x) {
            v = v + warp_read_lane(v, lane ^ 16u);
            v = v + warp_read_lane(v, lane ^ 8u);
            v = v + warp_read_lane(v, lane ^ 4u);
            v = v + warp_read_lane(v, lane ^ 2u);
            v = v + warp_read_lane(v, lane ^ 1u);
        };
        $if (lane == 0u) { warp_partials[warp_id] = v; };
        sync_block();
        $if (warp_id == 0u) {
            Int p = 0;
            $if (lane < k_warps) { p = warp_partials[lane]; };
            Int block_total = warp_active_sum(p);
            $if (lane == 0u) { block_sums.write(block_id().x, block_total); };
        };
        finished.atomic(0u).fetch_add(1u);
        sync_block();
        $if (thread_x() == 0u) { blocks_done.atomic(0u).fetch_add(finished[0u] / k_block); };
    };

    // 3. Guide 3.1 "after": per-warp slots indexed from the lane id, keep.
    Kernel1D warp_slots = [&](BufferInt counter) noexcept {
        set_block_size(k_block, 1u, 1u);
        Shared<int> per_warp{k_warps};
        $if (thread_x() < k_warps) { per_warp[thread_x()] = 0; };
        sync_block();
        Int warp_partial = warp_active_sum(1);
        $if (warp_is_first_active_lane()) {
            per_warp.atomic(thread_x() / k_warp).fetch_add(warp_partial);
        };
        per_warp.atomic(warp_lane_id() / k_warp).fetch_add(0);
        sync_block();
        $if (thread_x() == 0u) {
            Int block_total = 0;
            for (auto w : dynamic_range(k_warps)) {
                block_total += per_warp.read(w);
            }
            counter.atomic(0u).fetch_add(block_total);
        };
    };

    // 4. Flag union and a mismatched near miss.
    Kernel1D flag_union = [&](BufferUInt flags, BufferUInt out) noexcept {
        set_block_size(k_block, 1u, 1u);
        UInt lane = warp_lane_id();
        UInt f = flags.read(dispatch_x());
        for (auto d = 1u; d < k_warp; d <<= 1u) {
            f |= warp_read_lane(f, lane ^ d);
        }
        // reads `raw` but accumulates `g`: not a reduction of one value
        UInt raw = flags.read(dispatch_x());
        UInt g = raw;
        g &= warp_read_lane(raw, lane ^ 16u);
        g &= warp_read_lane(raw, lane ^ 8u);
        g &= warp_read_lane(raw, lane ^ 4u);
        g &= warp_read_lane(raw, lane ^ 2u);
        g &= warp_read_lane(raw, lane ^ 1u);
        out.write(dispatch_x(), f ^ g);
    };

    // 5. Warp scans: inclusive prefix written by hand, suffix kept.
    Kernel1D warp_scans = [&](BufferInt input, BufferInt inclusive, BufferInt suffix) noexcept {
        set_block_size(k_block, 1u, 1u);
        auto lane = warp_lane_id();
        Int x = input.read(dispatch_x());
        Int incl = 0;
        for (uint i = 0u; i < k_warp; i++) {
            $if (i <= lane) {
                incl += warp_read_lane(x, i);
            };
        }
        Int above = 0;
        for (uint i = 0u; i < k_warp; i++) {
            $if (i > lane) {
                above += warp_read_lane(x, i);
            };
        }
        Int builtin = warp_prefix_sum(x) + x;
        inclusive.write(dispatch_x(), incl);
        suffix.write(dispatch_x(), above + builtin - incl);
    };

    auto a = device.compile(tree_sum);
    auto b = device.compile(two_level);
    auto c = device.compile(warp_slots);
    auto d = device.compile(flag_union);
    auto e = device.compile(warp_scans);
}
