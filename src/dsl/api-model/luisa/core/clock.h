#pragma once
// kernel-tidy API model of luisa/core/clock.h (no <chrono>).
namespace luisa {
class Clock {
public:
    Clock() noexcept = default;
    void tic() noexcept {}
    /// milliseconds since last tic()
    [[nodiscard]] double toc() const noexcept { return 0.0; }
};
}// namespace luisa
