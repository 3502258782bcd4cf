#pragma once
// kernel-tidy API model of luisa/runtime/shader.h
#include <luisa/core/concepts.h>
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/command.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/image.h>
#include <luisa/runtime/volume.h>
#include <luisa/runtime/bindless_array.h>

namespace luisa::compute {

class Accel;
class ByteBuffer;
class ByteBufferView;
class IndirectDispatchBuffer;
template<typename>
class SOA;
template<typename T>
class SOAView;

namespace detail {

template<typename T>
struct prototype_to_shader_invocation { using type = const T &; };
template<typename T>
struct prototype_to_shader_invocation<Buffer<T>> { using type = BufferView<T>; };
template<>
struct prototype_to_shader_invocation<ByteBuffer> { using type = ByteBufferView; };
template<typename T>
struct prototype_to_shader_invocation<Image<T>> { using type = ImageView<T>; };
template<typename T>
struct prototype_to_shader_invocation<Volume<T>> { using type = VolumeView<T>; };
template<typename T>
struct prototype_to_shader_invocation<SOA<T>> { using type = SOAView<T>; };
template<typename T>
using prototype_to_shader_invocation_t = typename prototype_to_shader_invocation<T>::type;

class ShaderInvokeBase {
public:
    explicit ShaderInvokeBase(uint64_t handle, size_t arg_count, size_t uniform_size) noexcept {}
    ShaderInvokeBase(ShaderInvokeBase &&) noexcept = default;
    ShaderInvokeBase(const ShaderInvokeBase &) noexcept = delete;
    ShaderInvokeBase &operator=(ShaderInvokeBase &&) noexcept = default;
    ShaderInvokeBase &operator=(const ShaderInvokeBase &) noexcept = delete;
    template<typename T>
    ShaderInvokeBase &operator<<(T &&data) noexcept { return *this; }
};

template<size_t dim>
struct ShaderInvoke {
    static_assert(always_false_v<std::index_sequence<dim>>);
};

template<>
struct ShaderInvoke<1> : public ShaderInvokeBase {
    explicit ShaderInvoke(uint64_t handle, size_t arg_count, size_t uniform_size) noexcept
        : ShaderInvokeBase{handle, arg_count, uniform_size} {}
    [[nodiscard]] auto dispatch(uint size_x) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(luisa::span<const uint3> dispatch_sizes) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(const IndirectDispatchBuffer &indirect_buffer, uint32_t offset = 0, uint32_t max_dispatch_size = 0xffffffffu) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
};

template<>
struct ShaderInvoke<2> : public ShaderInvokeBase {
    explicit ShaderInvoke(uint64_t handle, size_t arg_count, size_t uniform_size) noexcept
        : ShaderInvokeBase{handle, arg_count, uniform_size} {}
    [[nodiscard]] auto dispatch(uint size_x, uint size_y) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(uint2 size) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(luisa::span<const uint3> dispatch_sizes) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(const IndirectDispatchBuffer &indirect_buffer, uint32_t offset = 0, uint32_t max_dispatch_size = 0xffffffffu) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
};

template<>
struct ShaderInvoke<3> : public ShaderInvokeBase {
    explicit ShaderInvoke(uint64_t handle, size_t arg_count, size_t uniform_size) noexcept
        : ShaderInvokeBase{handle, arg_count, uniform_size} {}
    [[nodiscard]] auto dispatch(uint size_x, uint size_y, uint size_z) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(luisa::span<const uint3> dispatch_sizes) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(const IndirectDispatchBuffer &indirect_buffer, uint32_t offset = 0, uint32_t max_dispatch_size = 0xffffffffu) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
    [[nodiscard]] auto dispatch(uint3 size) && noexcept { return luisa::unique_ptr<ShaderDispatchCommand>{}; }
};

// How many shader arguments a value takes (a binding group: the sum of its members').
template<typename T>
struct shader_argument_encode_count {
    static constexpr uint value = 1u;
};

}// namespace detail

class ShaderBase : public Resource {
protected:
    size_t _uniform_size{};
    uint3 _block_size;
public:
    explicit ShaderBase() = default;
    ShaderBase(ShaderBase &&) noexcept = default;
    ShaderBase &operator=(ShaderBase &&rhs) noexcept = default;
    using Resource::operator bool;
    [[nodiscard]] uint3 block_size() const noexcept { return _block_size; }
};

template<size_t dimension, concepts::non_cvref... Args>
class Shader final : public ShaderBase {
public:
    Shader() noexcept = default;
    Shader(Shader &&) noexcept = default;
    Shader(Shader const &) noexcept = delete;
    Shader &operator=(Shader &&rhs) noexcept = default;
    Shader &operator=(Shader const &) noexcept = delete;
    using Resource::operator bool;
    [[nodiscard]] auto operator()(detail::prototype_to_shader_invocation_t<Args>... args) const noexcept {
        detail::ShaderInvoke<dimension> invoke{this->handle(), sizeof...(Args), 0u};
        static_cast<void>((invoke << ... << args));
        return invoke;
    }
};

template<typename... Args>
using Shader1D = Shader<1, Args...>;
template<typename... Args>
using Shader2D = Shader<2, Args...>;
template<typename... Args>
using Shader3D = Shader<3, Args...>;

struct ShaderOption {
    bool enable_cache{true};
    bool enable_fast_math{true};
    bool enable_debug_info{false};
    bool compile_only{false};
    int32_t max_registers{0};
    bool time_trace{false};
    luisa::string name;
    luisa::string native_include;
};

}// namespace luisa::compute
