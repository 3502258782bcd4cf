#pragma once
// kernel-tidy API model of luisa/runtime/volume.h
#include <luisa/core/mathematics.h>
#include <luisa/runtime/image.h>
namespace luisa::compute {
template<typename T>
class VolumeView;
template<typename T>
class Volume final : public Resource {
public:
    Volume() noexcept = default;
    Volume(Volume &&) noexcept = default;
    Volume &operator=(Volume &&) noexcept = default;
    [[nodiscard]] uint3 size() const noexcept { return {}; }
    [[nodiscard]] auto view(uint32_t level = 0u) const noexcept { return VolumeView<T>{}; }
    template<typename... Args>
    [[nodiscard]] auto copy_to(Args &&...) const noexcept { return luisa::unique_ptr<TextureDownloadCommand>{}; }
    template<typename... Args>
    [[nodiscard]] auto copy_from(Args &&...) const noexcept { return luisa::unique_ptr<TextureUploadCommand>{}; }
    [[nodiscard]] auto operator->() const noexcept {
        return reinterpret_cast<const detail::VolumeExprProxy<Volume<T>> *>(this);
    }
};
template<typename T>
class VolumeView {
public:
    VolumeView() noexcept = default;
    VolumeView(const Volume<T> &) noexcept {}
    [[nodiscard]] uint3 size() const noexcept { return {}; }
    template<typename... Args>
    [[nodiscard]] auto copy_to(Args &&...) const noexcept { return luisa::unique_ptr<TextureDownloadCommand>{}; }
    template<typename... Args>
    [[nodiscard]] auto copy_from(Args &&...) const noexcept { return luisa::unique_ptr<TextureUploadCommand>{}; }
};
namespace detail {
template<typename T>
struct is_volume_impl : std::false_type {};
template<typename T>
struct is_volume_impl<Volume<T>> : std::true_type {};
template<typename T>
struct is_volume_impl<VolumeView<T>> : std::true_type {};
}// namespace detail
template<typename T>
using is_volume_or_view = detail::is_volume_impl<std::remove_cvref_t<T>>;
template<typename T>
constexpr auto is_volume_or_view_v = is_volume_or_view<T>::value;
}// namespace luisa::compute
