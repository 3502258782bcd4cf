// Single-pass inclusive scan with decoupled look-back.
//
// Every block scans its tile in two levels (lanes, then warps), publishes its
// aggregate, and looks back over predecessor tiles one warp-wide window at a
// time. The WarpReduce helper keeps its per-warp scratch in a heap-allocated
// Shared<T>, in the style of LuisaCompute's own parallel primitives.

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

namespace scan_detail {

constexpr uint k_block_size = 256u;
constexpr uint k_warp_size = 32u;
constexpr uint k_warps_per_block = k_block_size / k_warp_size;

constexpr uint k_status_invalid = 0u;
constexpr uint k_status_partial = 1u;
constexpr uint k_status_inclusive = 2u;

template<typename T>
class WarpReduce {

private:
    Shared<T> *_warp_totals;
    Shared<uint> *_live_warps;

public:
    WarpReduce() noexcept
        : _warp_totals{new Shared<T>{k_warps_per_block}},
          _live_warps{new Shared<uint>{1u}} {}

    [[nodiscard]] auto &warp_totals() const noexcept { return *_warp_totals; }

    void reset() noexcept {
        $if (thread_x() == 0u) { _live_warps->write(0u, 0u); };
        sync_block();
    }

    // Whole-warp sum: already the builtin.
    [[nodiscard]] Var<T> sum(Expr<T> input) const noexcept {
        return warp_active_sum(input);
    }

    // Exclusive prefix over the lanes below this one.
    [[nodiscard]] Var<T> exclusive_sum(Expr<T> input) const noexcept {
        auto lane = warp_lane_id();
        Var<T> acc;
        $for (i, lane) {
            acc += warp_read_lane(input, i);
        };
        return acc;
    }

    // Suffix over the lanes above this one (used for the reversed scan).
    [[nodiscard]] Var<T> suffix_sum(Expr<T> input) const noexcept {
        auto lane = warp_lane_id();
        Var<T> acc;
        $for (i, lane + 1u, k_warp_size) {
            acc += warp_read_lane(input, i);
        };
        return acc;
    }

    // Shuffle-down fallback with a valid-lane guard: not a butterfly.
    [[nodiscard]] Var<T> guarded_sum(Expr<T> input, Expr<uint> valid_lanes) const noexcept {
        auto lane = warp_lane_id();
        Var<T> result = input;
        UInt offset = 1u;
        $while (offset < warp_lane_count()) {
            Var<T> other = warp_read_lane(result, (lane + offset) % k_warp_size);
            $if (lane + offset < valid_lanes) {
                result += other;
            };
            offset <<= 1u;
        };
        return result;
    }

    // Publish one total per warp; count how many warps took part.
    void publish(Expr<T> warp_total) noexcept {
        auto warp_id = thread_x() / k_warp_size;
        $if (warp_is_first_active_lane()) {
            (*_warp_totals)[warp_id] = warp_total;
        };
        _live_warps->atomic(0u).fetch_add(1u);
        sync_block();
    }

    [[nodiscard]] UInt live_warps() const noexcept {
        return _live_warps->read(0u);
    }
};

template<typename T>
void build_look_back_scan(Device &device) {
    Kernel1D scan = [&](BufferVar<T> input, BufferVar<T> output, BufferVar<T> reversed,
                        BufferUInt tile_counter, BufferUInt tile_status, BufferVar<T> tile_values,
                        BufferUInt live_warps, UInt n) noexcept {
        set_block_size(k_block_size, 1u, 1u);
        set_warp_size(k_warp_size);
        WarpReduce<T> warp;
        warp.reset();

        // dynamic tile id: one global atomic per block
        Shared<uint> tile_slot{1u};
        $if (thread_x() == 0u) {
            tile_slot[0u] = tile_counter.atomic(0u).fetch_add(1u);
        };
        sync_block();
        UInt tile = tile_slot[0u];
        UInt index = tile * k_block_size + thread_x();
        Var<T> x;
        $if (index < n) { x = input.read(index); };

        // level 1: lanes
        auto lane = warp_lane_id();
        Var<T> lane_prefix = warp.exclusive_sum(x);
        Var<T> warp_total = warp.sum(x);
        warp.publish(warp_total);

        // level 2: warps (the first warp scans the per-warp totals)
        auto warp_id = thread_x() / k_warp_size;
        $if (warp_id == 0u) {
            Var<T> t;
            $if (lane < k_warps_per_block) { t = warp.warp_totals()[lane]; };
            Var<T> scanned = warp_prefix_sum(t);
            $if (lane < k_warps_per_block) { warp.warp_totals()[lane] = scanned; };
        };
        sync_block();
        Var<T> block_prefix = warp.warp_totals()[warp_id] + lane_prefix;
        Var<T> block_total = warp.warp_totals()[k_warps_per_block - 1u];

        // publish the partial aggregate, then look back
        $if (thread_x() == k_block_size - 1u) {
            block_total = block_prefix + x;
            tile_values.write(tile, block_total);
            tile_status.atomic(tile).exchange(ite(tile == 0u, k_status_inclusive, k_status_partial));
        };

        Shared<T> exclusive_slot{1u};
        $if (warp_id == 0u) {
            Var<T> exclusive;
            Var<T> zero;
            Int predecessor = cast<int>(tile) - 1 - cast<int>(lane);
            UInt status = k_status_inclusive;
            $if (predecessor >= 0) { status = tile_status.atomic(cast<uint>(predecessor)).fetch_or(0u); };
            $loop {
                $while (warp_active_any(status == k_status_invalid)) {
                    $if (predecessor >= 0) { status = tile_status.atomic(cast<uint>(predecessor)).fetch_or(0u); };
                };
                Var<T> value;
                $if (predecessor >= 0) { value = tile_values.read(cast<uint>(predecessor)); };
                UInt inclusive_mask = warp_active_bit_mask(status == k_status_inclusive).x;
                UInt stop_lane = ite(inclusive_mask == 0u, k_warp_size, ctz(inclusive_mask));
                $if (lane > stop_lane) { value = zero; };
                exclusive += warp_active_sum(value);
                $if (inclusive_mask != 0u) { $break; };
                predecessor -= cast<int>(k_warp_size);
                $if (warp_active_all(predecessor < 0)) { $break; };
            };
            $if (lane == 0u) { exclusive_slot[0u] = exclusive; };
        };
        sync_block();

        $if (index < n) { output.write(index, exclusive_slot[0u] + block_prefix + x); };
        $if ((thread_x() == k_block_size - 1u) & (tile != 0u)) {
            tile_values.write(tile, exclusive_slot[0u] + block_total);
            tile_status.atomic(tile).exchange(k_status_inclusive);
        };
        Var<T> suffix = warp.suffix_sum(x);
        $if (index < n) { reversed.write(index, suffix); };
        $if (thread_x() == 0u) { live_warps.write(tile, warp.live_warps()); };
    };
    auto shader = device.compile(scan);
}

}// namespace scan_detail

void build_all_scans(Device &device) {
    scan_detail::build_look_back_scan<uint>(device);
    scan_detail::build_look_back_scan<int>(device);
}
