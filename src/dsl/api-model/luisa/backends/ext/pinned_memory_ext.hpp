#pragma once
// kernel-tidy API model of luisa/backends/ext/pinned_memory_ext.hpp: pinned
// host memory as buffers (`device.extension<PinnedMemoryExt>()`).
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/device_interface.h>
#include <luisa/runtime/buffer.h>

namespace luisa::compute {

struct PinnedMemoryOption {
    bool write_combined{false};
};

class PinnedMemoryExt : public DeviceExtension {
public:
    static constexpr luisa::string_view name = "PinnedMemoryExt";
    [[nodiscard]] virtual DeviceInterface *device() const noexcept = 0;
    template<typename T>
    [[nodiscard]] auto pin_host_memory(T *host_ptr, size_t elem_count,
                                       PinnedMemoryOption option = {}) noexcept {
        return std::pair{Buffer<T>{}, BufferView<T>{}};
    }
    template<typename T>
    [[nodiscard]] auto allocate_pinned_memory(size_t elem_count,
                                              PinnedMemoryOption option = {}) noexcept {
        return Buffer<T>{};
    }
    virtual ~PinnedMemoryExt() = default;
    virtual void flush_range(uint64_t buffer_handle, uint64_t begin, uint64_t end) const noexcept {}
};

}// namespace luisa::compute
