#pragma once
// kernel-tidy API model of luisa/runtime/dispatch_buffer.h
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/command.h>
namespace luisa::compute {
class IndirectDispatchBuffer final : public Resource {
public:
    IndirectDispatchBuffer() noexcept = default;
    IndirectDispatchBuffer(IndirectDispatchBuffer &&) noexcept = default;
    IndirectDispatchBuffer &operator=(IndirectDispatchBuffer &&) noexcept = default;
    [[nodiscard]] size_t capacity() const noexcept { return 0u; }
    [[nodiscard]] size_t size_bytes() const noexcept { return 0u; }
};
}// namespace luisa::compute
