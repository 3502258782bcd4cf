#pragma once
// kernel-tidy API model of luisa/runtime/byte_buffer.h
#include <luisa/runtime/buffer.h>
namespace luisa::compute {
namespace detail {
class ByteBufferExprProxy;
}// namespace detail
class ByteBufferView;
class ByteBuffer final : public Resource {
private:
    size_t _size_bytes{};
public:
    [[nodiscard]] auto size_bytes() const noexcept { return _size_bytes; }
    ByteBuffer() noexcept = default;
    ByteBuffer(ByteBuffer &&) noexcept = default;
    ByteBuffer(ByteBuffer const &) noexcept = delete;
    ByteBuffer &operator=(ByteBuffer &&rhs) noexcept = default;
    ByteBuffer &operator=(ByteBuffer const &) noexcept = delete;
    using Resource::operator bool;
    BufferCreationInfo release() noexcept { return {}; }
    [[nodiscard]] ByteBufferView view() const noexcept;
    [[nodiscard]] ByteBufferView view(size_t offset_bytes, size_t size_bytes) const noexcept;
    [[nodiscard]] luisa::unique_ptr<BufferUploadCommand> copy_from(const void *data) const noexcept { return {}; }
    [[nodiscard]] luisa::unique_ptr<BufferCopyCommand> copy_from(ByteBufferView source) const noexcept;
    [[nodiscard]] luisa::unique_ptr<BufferDownloadCommand> copy_to(void *data) const noexcept { return {}; }
    [[nodiscard]] luisa::unique_ptr<BufferCopyCommand> copy_to(ByteBufferView source) const noexcept;
    template<typename T>
    [[nodiscard]] luisa::unique_ptr<BufferCopyCommand> copy_from(const Buffer<T> &source) const noexcept { return {}; }
    template<typename T>
    [[nodiscard]] luisa::unique_ptr<BufferCopyCommand> copy_from(BufferView<T> source) const noexcept { return {}; }
    template<typename T>
    [[nodiscard]] luisa::unique_ptr<BufferCopyCommand> copy_to(const Buffer<T> &dst) const noexcept { return {}; }
    template<typename T>
    [[nodiscard]] luisa::unique_ptr<BufferCopyCommand> copy_to(BufferView<T> dst) const noexcept { return {}; }
    [[nodiscard]] auto operator->() const noexcept { return reinterpret_cast<const detail::ByteBufferExprProxy *>(this); }
};
class ByteBufferView {
private:
    void *_native_handle{};
    uint64_t _handle{};
    size_t _offset_bytes{};
    size_t _size{};
    size_t _total_size{};
public:
    ByteBufferView() noexcept = default;
    ByteBufferView(void *native_handle, uint64_t handle, size_t offset_bytes, size_t size, size_t total_size) noexcept {}
    ByteBufferView(const ByteBuffer &buffer) noexcept {}
    template<typename T>
    explicit ByteBufferView(BufferView<T> buffer_view) noexcept {}
    template<typename T>
    explicit ByteBufferView(const Buffer<T> &buffer) noexcept {}
    [[nodiscard]] explicit operator bool() const noexcept { return true; }
    [[nodiscard]] auto handle() const noexcept { return _handle; }
    [[nodiscard]] auto native_handle() const noexcept { return _native_handle; }
    [[nodiscard]] auto offset() const noexcept { return _offset_bytes; }
    [[nodiscard]] auto size_bytes() const noexcept { return _size; }
    [[nodiscard]] auto total_size() const noexcept { return _total_size; }
    [[nodiscard]] auto original() const noexcept { return *this; }
    [[nodiscard]] auto subview(size_t offset_bytes, size_t size_bytes) const noexcept { return *this; }
    [[nodiscard]] luisa::unique_ptr<BufferUploadCommand> copy_from(const void *data) const noexcept { return {}; }
    [[nodiscard]] luisa::unique_ptr<BufferDownloadCommand> copy_to(void *data) const noexcept { return {}; }
    [[nodiscard]] luisa::unique_ptr<BufferCopyCommand> copy_from(ByteBufferView source) const noexcept { return {}; }
};
inline ByteBufferView ByteBuffer::view() const noexcept { return ByteBufferView{*this}; }
inline ByteBufferView ByteBuffer::view(size_t, size_t) const noexcept { return ByteBufferView{*this}; }
inline luisa::unique_ptr<BufferCopyCommand> ByteBuffer::copy_from(ByteBufferView) const noexcept { return {}; }
inline luisa::unique_ptr<BufferCopyCommand> ByteBuffer::copy_to(ByteBufferView) const noexcept { return {}; }
}// namespace luisa::compute
