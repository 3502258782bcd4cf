// Warp-level matrix multiplication in three flavours.
//
//  - mat_mul: each warp owns one output element and reduces the K dimension
//    with warp_active_sum (already optimal);
//  - mat_mul_reference: the same kernel written with a hand-rolled butterfly
//    inside a helper (reported by luisa-butterfly-reduction);
//  - mat_mul_q8: weights stored as packed 8-bit values, broadcast between lanes
//    with warp_read_lane, and a 4-column variant that reduces inside 8-lane groups.

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

namespace {

constexpr uint k_warp_size = 32u;
constexpr uint k_group_lanes = 8u;

[[nodiscard]] Float load_matrix(const BufferVar<float> &m, Expr<uint> row_size, Expr<uint> x, Expr<uint> y) noexcept {
    return m.read(y * row_size + x);
}

// Reference reduction of a per-lane partial dot product.
[[nodiscard]] Float warp_dot_reduce(Expr<float> partial) noexcept {
    auto lane = warp_lane_id();
    Float acc = partial;
    acc += warp_read_lane(acc, lane ^ 16u);
    acc += warp_read_lane(acc, lane ^ 8u);
    acc += warp_read_lane(acc, lane ^ 4u);
    acc += warp_read_lane(acc, lane ^ 2u);
    acc += warp_read_lane(acc, lane ^ 1u);
    return acc;
}

// Dequantize byte `b` (0..3) of a packed word.
[[nodiscard]] Float dequantize(Expr<uint> word, Expr<uint> b, Expr<float> scale) noexcept {
    UInt q = (word >> (b * 8u)) & 0xffu;
    return (cast<float>(q) - 128.f) * scale;
}

}// namespace

void build_warp_matmul(Device &device) {
    Kernel2D mat_mul = [&](BufferFloat lhs, BufferFloat rhs, BufferFloat result, UInt k) noexcept {
        set_block_size(128u, 1u, 1u);
        set_warp_size(k_warp_size);
        UInt row = dispatch_id().x / k_warp_size;
        UInt col = dispatch_id().y;
        UInt lane = warp_lane_id();
        UInt tile_count = (k + k_warp_size - 1u) / k_warp_size;
        Float acc = 0.f;
        for (auto t : dynamic_range(tile_count)) {
            UInt kk = t * k_warp_size + lane;
            Float v = 0.f;
            $if (kk < k) {
                v = load_matrix(lhs, k, kk, row) * load_matrix(rhs, k, col, kk);
            };
            acc += warp_active_sum(v);
        }
        $if (lane == 0u) {
            result.write(row * dispatch_size().y + col, acc);
        };
    };

    Kernel2D mat_mul_reference = [&](BufferFloat lhs, BufferFloat rhs, BufferFloat result, UInt k) noexcept {
        set_block_size(128u, 1u, 1u);
        UInt row = dispatch_id().x / k_warp_size;
        UInt col = dispatch_id().y;
        UInt lane = warp_lane_id();
        Float partial = 0.f;
        $for (kk, lane, k, k_warp_size) {
            partial += load_matrix(lhs, k, kk, row) * load_matrix(rhs, k, col, kk);
        };
        Float dot = warp_dot_reduce(partial);
        $if (lane == 0u) {
            result.write(row * dispatch_size().y + col, dot);
        };
    };

    auto a = device.compile(mat_mul);
    auto b = device.compile(mat_mul_reference);
}

void build_quantized_matmul(Device &device) {
    // lhs: float activations [M x K]; rhs: K/4 packed words per column, one scale per column.
    Kernel2D mat_mul_q8 = [&](BufferFloat lhs, BufferUInt rhs_packed, BufferFloat scales,
                              BufferFloat result, UInt k) noexcept {
        set_block_size(64u, 1u, 1u);
        set_warp_size(k_warp_size);
        UInt row = dispatch_id().x / k_warp_size;
        UInt col = dispatch_id().y;
        UInt lane = warp_lane_id();
        Float scale = scales.read(col);
        UInt words_per_column = k / 4u;
        UInt tile_count = (k + k_warp_size - 1u) / k_warp_size;
        Float acc = 0.f;
        for (auto t : dynamic_range(tile_count)) {
            UInt tile_begin = t * k_warp_size;
            // each of the first 8 lanes loads one packed word of this tile ...
            UInt word = 0u;
            $if ((lane < k_warp_size / 4u) & (tile_begin / 4u + lane < words_per_column)) {
                word = rhs_packed.read(col * words_per_column + tile_begin / 4u + lane);
            };
            // ... and every lane fetches the word holding its own byte
            UInt my_word = warp_read_lane(word, lane / 4u);
            Float w = dequantize(my_word, lane % 4u, scale);
            UInt kk = tile_begin + lane;
            Float v = 0.f;
            $if (kk < k) { v = lhs.read(row * k + kk) * w; };
            acc += warp_active_sum(v);
        }
        $if (warp_is_first_active_lane()) {
            result.write(row * dispatch_size().y + col, acc);
        };
    };

    // Four output columns per warp: lanes 8c..8c+7 reduce column c.
    Kernel2D mat_mul_grouped = [&](BufferFloat lhs, BufferFloat rhs, BufferFloat result,
                                   BufferUInt written, UInt k) noexcept {
        set_block_size(32u, 1u, 1u);
        set_warp_size(k_warp_size);
        UInt lane = warp_lane_id();
        UInt group = lane / k_group_lanes;
        UInt group_lane = lane % k_group_lanes;
        UInt row = dispatch_id().y;
        UInt col = dispatch_id().x / k_group_lanes;
        Float partial = 0.f;
        $for (kk, group_lane, k, k_group_lanes) {
            partial += lhs.read(row * k + kk) * rhs.read(kk * dispatch_size().x / k_group_lanes + col);
        };
        // group-of-8 butterfly: must not become warp_active_sum
        partial += warp_read_lane(partial, lane ^ 4u);
        partial += warp_read_lane(partial, lane ^ 2u);
        partial += warp_read_lane(partial, lane ^ 1u);
        $if (group_lane == 0u) {
            result.write(row * (dispatch_size().x / k_group_lanes) + col, partial);
            written.atomic(group).fetch_add(1u);
        };
    };

    auto q = device.compile(mat_mul_q8);
    auto g = device.compile(mat_mul_grouped);
}
