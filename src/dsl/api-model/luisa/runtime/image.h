#pragma once
// kernel-tidy API model of luisa/runtime/image.h
#include <luisa/core/mathematics.h>
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/pixel.h>
#include <luisa/runtime/rhi/sampler.h>
#include <luisa/runtime/rhi/command.h>

namespace luisa::compute {

// The element types an Image (a texture without sampling) holds.
template<typename T>
constexpr bool is_legal_image_element = std::is_same_v<T, int32_t> || std::is_same_v<T, uint> ||
                                        std::is_same_v<T, float>;

template<typename T>
class ImageView;
template<typename T>
class Image;
namespace detail {
template<typename T>
class ImageExprProxy;
template<typename T>
class VolumeExprProxy;
template<typename T>
struct is_image_impl : std::false_type {};
template<typename T>
struct is_image_impl<Image<T>> : std::true_type {};
template<typename T>
struct is_image_view_impl : std::false_type {};
template<typename T>
struct is_image_view_impl<ImageView<T>> : std::true_type {};
}// namespace detail
template<typename T>
using is_image = detail::is_image_impl<std::remove_cvref_t<T>>;
template<typename T>
using is_image_view = detail::is_image_view_impl<std::remove_cvref_t<T>>;
template<typename T>
using is_image_or_view = std::disjunction<is_image<T>, is_image_view<T>>;
template<typename T>
constexpr auto is_image_or_view_v = is_image_or_view<T>::value;

template<typename T>
class Image final : public Resource {
public:
    Image() noexcept = default;
    Image(Image &&) noexcept = default;
    Image &operator=(Image &&) noexcept = default;
    using Resource::operator bool;
    [[nodiscard]] uint2 size() const noexcept { return {}; }
    [[nodiscard]] uint level() const noexcept { return 0u; }
    [[nodiscard]] uint mip_levels() const noexcept { return 1u; }
    [[nodiscard]] PixelStorage storage() const noexcept { return {}; }
    [[nodiscard]] PixelFormat format() const noexcept { return {}; }
    [[nodiscard]] size_t size_bytes() const noexcept { return 0u; }
    [[nodiscard]] auto view(uint32_t level = 0u) const noexcept { return ImageView<T>{}; }
    template<typename... Args>
    [[nodiscard]] auto copy_to(Args &&...) const noexcept { return luisa::unique_ptr<TextureDownloadCommand>{}; }
    template<typename... Args>
    [[nodiscard]] auto copy_from(Args &&...) const noexcept { return luisa::unique_ptr<TextureUploadCommand>{}; }
    [[nodiscard]] auto operator->() const noexcept {
        return reinterpret_cast<const detail::ImageExprProxy<Image<T>> *>(this);
    }
};

template<typename T>
class ImageView {
public:
    ImageView() noexcept = default;
    ImageView(const Image<T> &) noexcept {}
    [[nodiscard]] uint64_t handle() const noexcept { return 0u; }
    [[nodiscard]] uint2 size() const noexcept { return {}; }
    [[nodiscard]] uint level() const noexcept { return 0u; }
    [[nodiscard]] PixelStorage storage() const noexcept { return {}; }
    [[nodiscard]] PixelFormat format() const noexcept { return {}; }
    [[nodiscard]] size_t size_bytes() const noexcept { return 0u; }
    template<typename... Args>
    [[nodiscard]] auto copy_to(Args &&...) const noexcept { return luisa::unique_ptr<TextureDownloadCommand>{}; }
    template<typename... Args>
    [[nodiscard]] auto copy_from(Args &&...) const noexcept { return luisa::unique_ptr<TextureUploadCommand>{}; }
    [[nodiscard]] auto operator->() const noexcept {
        return reinterpret_cast<const detail::ImageExprProxy<ImageView<T>> *>(this);
    }
};

template<typename T>
ImageView(const Image<T> &) -> ImageView<T>;

}// namespace luisa::compute
