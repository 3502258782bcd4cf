#pragma once
// kernel-tidy API model of luisa/runtime/buffer_arena.h: a stack allocator of typed
// sub-buffers (views into a few large float4 buffers); declarations only.
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/device.h>

namespace luisa::compute {

class BufferArena {
public:
    explicit BufferArena(Device &device, size_t capacity = 4_M) noexcept;
    BufferArena(const BufferArena &) = delete;
    BufferArena &operator=(const BufferArena &) = delete;
    template<typename T>
    [[nodiscard]] BufferView<T> allocate(size_t n) noexcept { return {}; }
};

}// namespace luisa::compute
