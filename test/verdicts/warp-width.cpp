// RULES: luisa-hardcoded-warp-width
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

// CASE warp-index-by-division: luisa-hardcoded-warp-width
void warp_index(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept { data.write(dispatch_x(), thread_x() / 32u); };
}
// CASE lane-by-mask-through-variable: luisa-hardcoded-warp-width
void lane_mask(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        auto id = dispatch_id().x;
        data.write(id, id & 31u);
    };
}
// CASE lane-by-modulo-2d: luisa-hardcoded-warp-width
void lane_modulo(Device &device) {
    Kernel2D k = [&](BufferUInt data) noexcept {
        data.write(dispatch_x(), (thread_y() * 16u + thread_x()) % 32u);
    };
}
// CASE global-warp-by-shift: luisa-hardcoded-warp-width
void warp_shift(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept { data.write(dispatch_x(), dispatch_x() >> 5u); };
}
// CASE width-stated: none
void stated(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_warp_size(32u);
        data.write(dispatch_x(), thread_x() / 32u);
    };
}
// CASE data-divided-by-32: none
void data_division(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        auto v = data.read(dispatch_x());
        data.write(dispatch_x(), v / 32u + (v & 31u));
    };
}
// CASE bit-position-in-a-word: none
void bit_position(Device &device) {
    Kernel1D k = [&](BufferUInt bits) noexcept {
        bits.atomic(dispatch_x() / 1024u).fetch_or(1u << (dispatch_x() % 32u));
    };
}
// CASE builtin-width: none
void builtin_width(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        data.write(dispatch_x(), thread_x() / warp_lane_count());
    };
}
// CASE helper-divides-by-32: luisa-hardcoded-warp-width (known: missed)
UInt warp_of(Expr<uint> id) noexcept { return id / 32u; }
void helper_division(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept { data.write(dispatch_x(), warp_of(thread_x())); };
}
