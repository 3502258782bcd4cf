#pragma once
// kernel-tidy API model of luisa/gui/framerate.h
#include <cstddef>
namespace luisa::compute {
class Framerate {
public:
    explicit Framerate(size_t n = 5) noexcept {}
    void clear() noexcept {}
    void record(size_t frame_count = 1u) noexcept {}
    [[nodiscard]] double duration() const noexcept { return 0.0; }
    [[nodiscard]] double report() const noexcept { return 0.0; }
};
}// namespace luisa::compute
