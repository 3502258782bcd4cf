#pragma once
// kernel-tidy API model of luisa/runtime/bindless_array.h
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/image.h>
#include <luisa/runtime/volume.h>
namespace luisa::compute {
// declared (never defined) here as in the real header; the DSL classes are in detail::
class BindlessTexture2D;
class BindlessTexture3D;
template<typename T>
class BindlessBuffer;
namespace detail {
class BindlessArrayExprProxy;
}// namespace detail
enum struct BindlessSlotType : uint8_t { BUFFER_ONLY, TEXTURE_ONLY, MULTIPLE };
class BindlessArray final : public Resource {
public:
    BindlessArray() noexcept = default;
    BindlessArray(BindlessArray &&) noexcept = default;
    BindlessArray &operator=(BindlessArray &&) noexcept = default;
    [[nodiscard]] size_t size() const noexcept { return 0u; }
    template<typename T>
        requires is_buffer_or_view_v<std::remove_cvref_t<T>>
    auto &emplace_on_update(size_t index, T &&buffer) noexcept { return *this; }
    auto &emplace_on_update(size_t index, const Image<float> &image, Sampler sampler) noexcept { return *this; }
    auto &emplace_on_update(size_t index, const Volume<float> &volume, Sampler sampler) noexcept { return *this; }
    template<typename... Args>
    BindlessArray &emplace_buffer_on_update(Args &&...) noexcept { return *this; }
    template<typename... Args>
    BindlessArray &emplace_tex2d_on_update(Args &&...) noexcept { return *this; }
    template<typename... Args>
    BindlessArray &emplace_tex3d_on_update(Args &&...) noexcept { return *this; }
    BindlessArray &remove_buffer_on_update(size_t) noexcept { return *this; }
    BindlessArray &remove_tex2d_on_update(size_t) noexcept { return *this; }
    BindlessArray &remove_tex3d_on_update(size_t) noexcept { return *this; }
    [[nodiscard]] luisa::unique_ptr<Command> update() noexcept { return {}; }
    [[nodiscard]] bool dirty() const noexcept { return false; }
    [[nodiscard]] auto operator->() const noexcept {
        return reinterpret_cast<const detail::BindlessArrayExprProxy *>(this);
    }
};
}// namespace luisa::compute
