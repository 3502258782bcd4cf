#pragma once
// kernel-tidy API model of luisa/runtime/swapchain.h
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/image.h>
#include <luisa/runtime/stream.h>
namespace luisa::compute {
struct SwapchainOption {
    uint64_t display{};
    uint64_t window{};
    uint2 size{};
    bool wants_hdr{false};
    bool wants_vsync{true};
    uint back_buffer_count{2u};
};
class Swapchain final : public Resource {
public:
    Swapchain() noexcept = default;
    Swapchain(Swapchain &&) noexcept = default;
    Swapchain &operator=(Swapchain &&) noexcept = default;
    [[nodiscard]] PixelStorage backend_storage() const noexcept { return {}; }
    class Present {
    public:
        const Swapchain *chain{nullptr};
        ImageView<float> frame;
    };
    [[nodiscard]] Present present(ImageView<float> frame) const noexcept { return {this, frame}; }
    [[nodiscard]] auto native_handle() const noexcept { return static_cast<void *>(nullptr); }
};
}// namespace luisa::compute
