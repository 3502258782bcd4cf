#pragma once
// kernel-tidy API model of luisa/runtime/buffer.h
#include <luisa/core/mathematics.h>
#include <luisa/core/basic_types.h>
#include <luisa/core/concepts.h>
#include <luisa/core/stl.h>
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/command.h>

namespace luisa::compute {

template<typename T>
class Buffer;
template<typename T>
class BufferView;
template<typename T>
class SparseBuffer;
class ByteBuffer;
class ByteBufferView;
namespace detail {
template<typename T>
class BufferExprProxy;
}// namespace detail

namespace detail {
template<typename T>
struct is_buffer_impl : std::false_type {};
template<typename T>
struct is_buffer_impl<Buffer<T>> : std::true_type {};
template<typename T>
struct is_buffer_view_impl : std::false_type {};
template<typename T>
struct is_buffer_view_impl<BufferView<T>> : std::true_type {};
template<typename T>
struct buffer_element_impl { using type = T; };
template<typename T>
struct buffer_element_impl<Buffer<T>> { using type = T; };
template<typename T>
struct buffer_element_impl<BufferView<T>> { using type = T; };
}// namespace detail

template<typename T>
using is_buffer = detail::is_buffer_impl<std::remove_cvref_t<T>>;
template<typename T>
using is_buffer_view = detail::is_buffer_view_impl<std::remove_cvref_t<T>>;
template<typename T>
using is_buffer_or_view = std::disjunction<is_buffer<T>, is_buffer_view<T>>;
template<typename T>
constexpr auto is_buffer_v = is_buffer<T>::value;
template<typename T>
constexpr auto is_buffer_view_v = is_buffer_view<T>::value;
template<typename T>
constexpr auto is_buffer_or_view_v = is_buffer_or_view<T>::value;
template<typename T>
using buffer_element = detail::buffer_element_impl<std::remove_cvref_t<T>>;
template<typename T>
using buffer_element_t = typename buffer_element<T>::type;

template<typename T>
constexpr bool is_valid_buffer_element_v =
    std::is_same_v<T, std::remove_cvref_t<T>> &&
    std::is_trivially_copyable_v<T> &&
    std::is_trivially_destructible_v<T> &&
    (alignof(T) >= 4u);

template<typename T>
class Buffer final : public Resource {
private:
    size_t _size{};
    size_t _element_stride{};
public:
    Buffer() noexcept = default;
    Buffer(Buffer &&) noexcept = default;
    Buffer(const Buffer &) noexcept = delete;
    Buffer &operator=(Buffer &&) noexcept = default;
    Buffer &operator=(const Buffer &) noexcept = delete;
    using Resource::operator bool;
    [[nodiscard]] auto size() const noexcept { return _size; }
    [[nodiscard]] constexpr auto stride() const noexcept { return _element_stride; }
    [[nodiscard]] auto size_bytes() const noexcept { return _size * _element_stride; }
    [[nodiscard]] auto view_unchecked() const noexcept { return BufferView<T>{}; }
    [[nodiscard]] auto view() const noexcept { return BufferView<T>{}; }
    [[nodiscard]] auto view(size_t offset, size_t count) const noexcept { return BufferView<T>{}; }
    template<typename U>
    [[nodiscard]] auto copy_to(luisa::span<U> data) const noexcept { return luisa::unique_ptr<BufferDownloadCommand>{}; }
    template<typename U>
    [[nodiscard]] auto copy_from(luisa::span<U> data) const noexcept { return luisa::unique_ptr<BufferUploadCommand>{}; }
    [[nodiscard]] auto copy_to(void *data) const noexcept { return luisa::unique_ptr<BufferDownloadCommand>{}; }
    [[nodiscard]] auto copy_to(BufferView<T> dst) const noexcept { return luisa::unique_ptr<BufferCopyCommand>{}; }
    [[nodiscard]] auto copy_to(const ByteBufferView &dst) const noexcept { return luisa::unique_ptr<BufferCopyCommand>{}; }
    [[nodiscard]] auto copy_from(const void *data) const noexcept { return luisa::unique_ptr<BufferUploadCommand>{}; }
    [[nodiscard]] auto copy_from(BufferView<T> source) const noexcept { return luisa::unique_ptr<BufferCopyCommand>{}; }
    [[nodiscard]] auto copy_from(const ByteBufferView &source) const noexcept { return luisa::unique_ptr<BufferCopyCommand>{}; }
    // DSL access to captured resources: buffer->read(i) (proxy defined in dsl/resource.h)
    [[nodiscard]] auto operator->() const noexcept {
        return reinterpret_cast<const detail::BufferExprProxy<Buffer<T>> *>(this);
    }
    [[nodiscard]] BufferCreationInfo release() noexcept { return {}; }
};

template<typename T>
class BufferView {
private:
    void *_native_handle{};
    uint64_t _handle{};
    size_t _offset_bytes{};
    size_t _element_stride{};
    size_t _size{};
    size_t _total_size{};
public:
    BufferView() noexcept = default;
    BufferView(void *native_handle, uint64_t handle, size_t element_stride, size_t offset_bytes,
               size_t size, size_t total_size) noexcept
        : _native_handle{native_handle}, _handle{handle}, _offset_bytes{offset_bytes},
          _element_stride{element_stride}, _size{size}, _total_size{total_size} {}
    BufferView(const Buffer<T> &buffer) noexcept {}
    [[nodiscard]] auto handle() const noexcept { return _handle; }
    [[nodiscard]] auto native_handle() const noexcept { return _native_handle; }
    [[nodiscard]] constexpr auto stride() const noexcept { return _element_stride; }
    [[nodiscard]] auto size() const noexcept { return _size; }
    [[nodiscard]] auto offset() const noexcept { return _offset_bytes / _element_stride; }
    [[nodiscard]] auto offset_bytes() const noexcept { return _offset_bytes; }
    [[nodiscard]] auto size_bytes() const noexcept { return _size * _element_stride; }
    [[nodiscard]] auto total_size() const noexcept { return _total_size; }
    [[nodiscard]] auto original() const noexcept { return *this; }
    [[nodiscard]] auto subview(size_t offset_elements, size_t size_elements) const noexcept { return *this; }
    template<typename U>
    [[nodiscard]] auto as() const noexcept { return BufferView<U>{}; }
    template<typename U>
    [[nodiscard]] auto copy_to(luisa::span<U> data) const noexcept { return luisa::unique_ptr<BufferDownloadCommand>{}; }
    template<typename U>
    [[nodiscard]] auto copy_from(luisa::span<U> data) const noexcept { return luisa::unique_ptr<BufferUploadCommand>{}; }
    [[nodiscard]] auto copy_to(void *data) const noexcept { return luisa::unique_ptr<BufferDownloadCommand>{}; }
    [[nodiscard]] auto copy_from(const void *data) const noexcept { return luisa::unique_ptr<BufferUploadCommand>{}; }
    [[nodiscard]] auto copy_from(BufferView<T> source) const noexcept { return luisa::unique_ptr<BufferCopyCommand>{}; }
    [[nodiscard]] auto copy_to(BufferView<T> dst) const noexcept { return luisa::unique_ptr<BufferCopyCommand>{}; }
    // DSL access to captured resources: buffer->read(i) (proxy defined in dsl/resource.h)
    [[nodiscard]] auto operator->() const noexcept {
        return reinterpret_cast<const detail::BufferExprProxy<BufferView<T>> *>(this);
    }
};

template<typename T>
BufferView(const Buffer<T> &) -> BufferView<T>;
template<typename T>
BufferView(BufferView<T>) -> BufferView<T>;

}// namespace luisa::compute
