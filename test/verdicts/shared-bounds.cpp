// RULES: luisa-shared-out-of-bounds
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

// CASE array-half-the-block: luisa-shared-out-of-bounds
void half_block(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(256u, 1u, 1u);
        Shared<float> s{128u};
        s[thread_x()] = 1.f;
    };
}
// CASE default-block-larger-than-array: luisa-shared-out-of-bounds
void default_block(Device &device) {
    Kernel2D k = [&](BufferFloat data) noexcept {
        Shared<float> s{64u};
        s[thread_y() * 8u + thread_x()] = 1.f;
    };
}
// CASE right-neighbour-of-last-thread: luisa-shared-out-of-bounds
void right_neighbour(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(64u, 1u, 1u);
        Shared<float> s{64u};
        data.write(dispatch_x(), s[thread_x() + 1u]);
    };
}
// CASE left-neighbour-of-thread-zero: luisa-shared-out-of-bounds
void left_neighbour(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(64u, 1u, 1u);
        Shared<float> s{64u};
        data.write(dispatch_x(), s[thread_x() - 1u]);
    };
}
// CASE pairs-in-tree-step: luisa-shared-out-of-bounds
void pairs(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(128u, 1u, 1u);
        Shared<float> s{128u};
        data.write(dispatch_x(), s[thread_x() * 2u + 1u]);
    };
}
// CASE warp-partials-too-few: luisa-shared-out-of-bounds
void warp_partials(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        set_block_size(1024u, 1u, 1u);
        Shared<uint> partial{16u};
        partial[thread_x() / 32u] = 1u;
    };
}
// CASE guarded-by-thread-test: none
void guarded(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(256u, 1u, 1u);
        Shared<float> s{128u};
        $if (thread_x() < 128u) { s[thread_x()] = 1.f; };
    };
}
// CASE sized-to-block: none
void sized(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(256u, 1u, 1u);
        Shared<float> s{256u};
        s[thread_x()] = 1.f;
        data.write(dispatch_x(), s[255u - thread_x()] + s[(thread_x() + 1u) % 256u]);
    };
}
// CASE pairs-under-half-guard: none
void pairs_guarded(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(128u, 1u, 1u);
        Shared<float> s{128u};
        $if (thread_x() < 64u) { data.write(dispatch_x(), s[thread_x() * 2u + 1u]); };
    };
}
// CASE modulo-wraps-neighbour: none
void wrapped(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(64u, 1u, 1u);
        Shared<float> s{64u};
        data.write(dispatch_x(), s[(thread_x() + 63u) & 63u]);
    };
}
// CASE runtime-index: none
void runtime_index(Device &device) {
    Kernel1D k = [&](BufferFloat data, UInt n) noexcept {
        set_block_size(64u, 1u, 1u);
        Shared<float> s{64u};
        data.write(dispatch_x(), s[n]);
    };
}
// CASE bound-through-min: luisa-shared-out-of-bounds (known: missed)
void through_min(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        set_block_size(256u, 1u, 1u);
        Shared<float> s{128u};
        s[min(thread_x(), 200u)] = 1.f;
    };
}
