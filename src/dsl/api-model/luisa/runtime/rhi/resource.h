#pragma once
// kernel-tidy API model of luisa/runtime/rhi/resource.h
#include <cstdint>
#include <luisa/core/dll_export.h>
#include <luisa/core/basic_types.h>
#include <luisa/core/stl.h>

namespace luisa::compute {

class DeviceInterface;

struct ResourceCreationInfo {
    uint64_t handle{};
    void *native_handle{};
};
struct BufferCreationInfo : ResourceCreationInfo {
    size_t element_stride{};
    size_t total_size_bytes{};
};

class Resource {
public:
    enum struct Tag : uint32_t { BUFFER, TEXTURE, BINDLESS_ARRAY, MESH, CURVE, PROCEDURAL_PRIMITIVE, ACCEL, STREAM, EVENT, SHADER, RASTER_SHADER, SWAP_CHAIN, DEPTH_BUFFER, DSTORAGE_FILE, DSTORAGE_PINNED_MEMORY, SPARSE_BUFFER, SPARSE_TEXTURE, SPARSE_BUFFER_HEAP, SPARSE_TEXTURE_HEAP };
protected:
    DeviceInterface *_device{nullptr};
    uint64_t _handle{};
public:
    Resource() noexcept = default;
    virtual ~Resource() noexcept = default;
    Resource(Resource &&) noexcept = default;
    Resource(const Resource &) noexcept = delete;
    Resource &operator=(Resource &&) noexcept = default;
    Resource &operator=(const Resource &) noexcept = delete;
    [[nodiscard]] auto device() const noexcept { return _device; }
    [[nodiscard]] uint64_t handle() const noexcept { return _handle; }
    [[nodiscard]] void *native_handle() const noexcept { return nullptr; }
    [[nodiscard]] uint64_t uid() const noexcept { return _handle; }
    [[nodiscard]] explicit operator bool() const noexcept { return _device != nullptr; }
    void release() noexcept {}
    void set_name(luisa::string_view) const noexcept {}
};

}// namespace luisa::compute
