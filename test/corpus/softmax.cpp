// Softmax kernels: a block-wide version with a shared-memory tree reduction,
// a one-warp-per-row version, and multi-head attention scores where every head
// is an 8-lane group inside a warp.

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

namespace {

constexpr uint k_block = 256u;
constexpr uint k_head_lanes = 8u;

}// namespace

void build_softmax(Device &device) {
    // One block per row of up to k_block elements.
    Kernel1D block_softmax = [](BufferFloat input, BufferFloat output, UInt row_size) noexcept {
        set_block_size(k_block, 1u, 1u);
        Shared<float> partial{k_block};
        Shared<float> row_max{1u};
        auto tid = thread_x();
        auto row = block_id().x;
        Float x = -1e30f;
        $if (tid < row_size) { x = input.read(row * row_size + tid); };
        $if (tid == 0u) { row_max[0u] = -1e30f; };
        sync_block();

        // every thread pushes its value into the same slot
        row_max.atomic(0u).fetch_max(x);
        sync_block();
        Float e = 0.f;
        $if (tid < row_size) { e = exp(x - row_max[0u]); };

        // block-wide tree reduction (more than one warp): keep as is
        partial[tid] = e;
        sync_block();
        UInt half = k_block / 2u;
        $while (half > 0u) {
            Float v = 0.f;
            $if (tid < half) { v = partial[tid] + partial[tid + half]; };
            sync_block();
            $if (tid < half) { partial[tid] = v; };
            half /= 2u;
            sync_block();
        };
        $if (tid < row_size) { output.write(row * row_size + tid, e / partial[0u]); };
    };

    // One warp per 32-element row.
    Callable warp_row_max = [](Float v) noexcept {
        UInt lane = warp_lane_id();
        v = max(v, warp_read_lane(v, lane ^ 1u));
        v = max(v, warp_read_lane(v, lane ^ 2u));
        v = max(v, warp_read_lane(v, lane ^ 4u));
        v = max(v, warp_read_lane(v, lane ^ 8u));
        v = max(v, warp_read_lane(v, lane ^ 16u));
        return v;
    };
    Kernel1D row_softmax = [&](BufferFloat input, BufferFloat output, BufferUInt rows_done) noexcept {
        set_block_size(128u, 1u, 1u);
        set_warp_size(32u);
        auto index = dispatch_x();
        Float x = input.read(index);
        Float m = warp_row_max(x);
        Float e = exp(x - m);
        Float total = warp_active_sum(e);
        output.write(index, e / total);

        // count finished rows in the block; the ticket decides who flushes
        Shared<uint> finished{1u};
        $if (thread_x() == 0u) { finished[0u] = 0u; };
        sync_block();
        auto ticket = finished.atomic(0u).fetch_add(1u);
        $if (ticket == 127u) {
            rows_done.atomic(0u).fetch_add(128u / 32u);
        };
    };

    // Four 8-lane heads per warp.
    Kernel1D head_softmax = [](BufferFloat scores, BufferFloat probs) noexcept {
        set_block_size(64u, 1u, 1u);
        set_warp_size(32u);
        auto lane = warp_lane_id();
        auto head_lane = lane % k_head_lanes;
        Float s = scores.read(dispatch_x());
        Float m = s;
        // per-head maximum: sub-group butterfly, keep
        m = max(m, warp_read_lane(m, lane ^ 4u));
        m = max(m, warp_read_lane(m, lane ^ 2u));
        m = max(m, warp_read_lane(m, lane ^ 1u));
        Float e = exp(s - m);
        Float z = e;
        for (uint d = 4u; d >= 1u; d /= 2u) {
            z += warp_read_lane(z, lane ^ d);
        }
        // inclusive running sum inside the head (lanes of other heads excluded)
        Float running = 0.f;
        for (uint i = 0u; i < k_head_lanes; i++) {
            $if (i <= head_lane) {
                running += warp_read_lane(e, lane - head_lane + i);
            };
        }
        probs.write(dispatch_x(), ite(running > 0.f, e / z, 0.f));
    };
    auto block = device.compile(block_softmax);
    auto row = device.compile(row_softmax);
    auto head = device.compile(head_softmax);
}
