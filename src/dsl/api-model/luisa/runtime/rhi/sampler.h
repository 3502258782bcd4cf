#pragma once
#include <cstdint>
namespace luisa::compute {
class Sampler {
public:
    enum struct Filter : uint8_t { POINT, LINEAR_POINT, LINEAR_LINEAR, ANISOTROPIC };
    enum struct Address : uint8_t { EDGE, REPEAT, MIRROR, ZERO };
    constexpr Sampler() noexcept = default;
    constexpr Sampler(Filter, Address) noexcept {}
    [[nodiscard]] static constexpr Sampler point_edge() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler point_repeat() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler point_mirror() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler point_zero() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_point_edge() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_point_repeat() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_point_mirror() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_point_zero() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_linear_edge() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_linear_repeat() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_linear_mirror() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler linear_linear_zero() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler anisotropic_edge() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler anisotropic_repeat() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler anisotropic_mirror() noexcept { return {}; }
    [[nodiscard]] static constexpr Sampler anisotropic_zero() noexcept { return {}; }
};
}// namespace luisa::compute
