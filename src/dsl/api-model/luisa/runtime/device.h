#pragma once
// kernel-tidy API model of luisa/runtime/device.h
#include <luisa/core/concepts.h>
#include <luisa/core/stl.h>
#include <luisa/core/logging.h>
#include <luisa/ast/type.h>
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/pixel.h>
#include <luisa/runtime/rhi/command.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/byte_buffer.h>
#include <luisa/runtime/image.h>
#include <luisa/runtime/volume.h>
#include <luisa/runtime/bindless_array.h>
#include <luisa/runtime/event.h>
#include <luisa/runtime/stream.h>
#include <luisa/runtime/shader.h>
#include <luisa/runtime/swapchain.h>
#include <luisa/runtime/dispatch_buffer.h>
#include <luisa/runtime/rtx/mesh.h>
#include <luisa/runtime/rtx/accel.h>

namespace luisa::compute {

class Context;
class Mesh;
class Accel;
class Swapchain;
class IndirectDispatchBuffer;
class ByteBuffer;
template<size_t N, typename... Args>
class Kernel;
template<typename... Args>
struct Kernel1D;
template<typename... Args>
struct Kernel2D;
template<typename... Args>
struct Kernel3D;

namespace detail {
template<typename T>
struct is_dsl_kernel : std::false_type {};
template<size_t N, typename... Args>
struct is_dsl_kernel<Kernel<N, Args...>> : std::true_type {};
template<typename... Args>
struct is_dsl_kernel<Kernel1D<Args...>> : std::true_type {};
template<typename... Args>
struct is_dsl_kernel<Kernel2D<Args...>> : std::true_type {};
template<typename... Args>
struct is_dsl_kernel<Kernel3D<Args...>> : std::true_type {};
template<size_t N, typename Func>
struct model_kernel_of;// defined in luisa/dsl/func_compile.h (model helper for compile<N>(lambda))
}// namespace detail

class DeviceInterface {
public:
    virtual ~DeviceInterface() noexcept = default;
};

class Device {
public:
    using Handle = luisa::shared_ptr<DeviceInterface>;
private:
    Handle _impl;
public:
    Device() noexcept = default;
    explicit Device(Handle handle) noexcept : _impl{handle} {}
    [[nodiscard]] luisa::string_view backend_name() const noexcept { return {}; }
    [[nodiscard]] void *native_handle() const noexcept { return nullptr; }
    [[nodiscard]] DeviceInterface *impl() const noexcept { return _impl.get(); }
    [[nodiscard]] uint compute_warp_size() const noexcept { return 32u; }
    [[nodiscard]] size_t memory_granularity() const noexcept { return 0u; }
    [[nodiscard]] explicit operator bool() const noexcept { return static_cast<bool>(_impl); }
    template<typename Ext>
    [[nodiscard]] Ext *extension() const noexcept { return nullptr; }
    [[nodiscard]] Stream create_stream(StreamTag stream_tag = StreamTag::COMPUTE) noexcept { return {}; }
    [[nodiscard]] Event create_event() noexcept { return {}; }
    [[nodiscard]] TimelineEvent create_timeline_event() noexcept { return {}; }
    [[nodiscard]] Swapchain create_swapchain(const Stream &stream, const SwapchainOption &option) noexcept { return {}; }
    template<typename VBuffer, typename TBuffer>
    [[nodiscard]] Mesh create_mesh(VBuffer &&vertices, TBuffer &&triangles, const AccelOption &option = {}) noexcept { return {}; }
    template<typename VBuffer, typename TBuffer>
    [[nodiscard]] Mesh create_mesh(VBuffer &&vertices, size_t vertex_stride, TBuffer &&triangles, const AccelOption &option = {}) noexcept { return {}; }
    template<typename AABBBuffer>
    [[nodiscard]] ProceduralPrimitive create_procedural_primitive(AABBBuffer &&aabb_buffer, const AccelOption &option = {}) noexcept { return {}; }
    [[nodiscard]] Accel create_accel(const AccelOption &option = {}) noexcept { return {}; }
    [[nodiscard]] IndirectDispatchBuffer create_indirect_dispatch_buffer(size_t capacity) noexcept { return {}; }
    [[nodiscard]] BindlessArray create_bindless_array(size_t slot_count = 65536u, BindlessSlotType type = BindlessSlotType::MULTIPLE) noexcept { return {}; }
    template<typename T>
    [[nodiscard]] auto create_image(PixelStorage pixel, uint width, uint height, uint mip_levels = 1u, bool simultaneous_access = false, bool allow_raster_target = false) noexcept { return Image<T>{}; }
    template<typename T>
    [[nodiscard]] auto create_image(PixelStorage pixel, uint2 size, uint mip_levels = 1u, bool simultaneous_access = false, bool allow_raster_target = false) noexcept { return Image<T>{}; }
    template<typename T>
    [[nodiscard]] auto create_volume(PixelStorage pixel, uint width, uint height, uint depth, uint mip_levels = 1u, bool simultaneous_access = false, bool allow_raster_target = false) noexcept { return Volume<T>{}; }
    template<typename T>
    [[nodiscard]] auto create_volume(PixelStorage pixel, uint3 size, uint mip_levels = 1u, bool simultaneous_access = false, bool allow_raster_target = false) noexcept { return Volume<T>{}; }
    [[nodiscard]] ByteBuffer create_byte_buffer(size_t byte_size) const noexcept { return {}; }
    template<typename T>
        requires(!is_custom_struct_v<T>)
    [[nodiscard]] auto create_buffer(size_t size) noexcept { return Buffer<T>{}; }
    template<typename T>
        requires(!is_custom_struct_v<T>)
    [[nodiscard]] auto import_external_buffer(void *external_memory, size_t elem_count) noexcept { return Buffer<T>{}; }
    template<size_t N, typename... Args>
    [[nodiscard]] auto compile(const Kernel<N, Args...> &kernel,
                               const ShaderOption &option = {}) noexcept { return Shader<N, Args...>{}; }
    template<typename Kernel>
    void compile_to(Kernel &&kernel, luisa::string_view name,
                    bool enable_fast_math = true, bool enable_debug_info = false) noexcept {}
    template<size_t N, typename Func>
        requires(std::negation_v<detail::is_dsl_kernel<std::remove_cvref_t<Func>>> && N >= 1 && N <= 3)
    [[nodiscard]] auto compile(Func &&f, const ShaderOption &option = {}) noexcept {
        return this->compile(typename detail::model_kernel_of<N, Func>::type{std::forward<Func>(f)}, option);
    }
    template<size_t N, typename... Args>
    [[nodiscard]] auto load_shader(luisa::string_view shader_name) noexcept { return Shader<N, Args...>{}; }
    template<typename T, typename... Args>
    [[nodiscard]] auto create(Args &&...args) noexcept { return T{}; }
};

}// namespace luisa::compute
