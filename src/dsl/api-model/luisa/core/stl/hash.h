#pragma once
#include <cstdint>
#include <cstddef>
namespace luisa {
inline constexpr uint64_t hash64_default_seed = 1469598103934665603ull;
template<typename T>
struct hash {
    [[nodiscard]] uint64_t operator()(const T &, uint64_t = hash64_default_seed) const noexcept { return 0u; }
};
[[nodiscard]] inline uint64_t hash64(const void *, size_t, uint64_t) noexcept { return 0u; }
}// namespace luisa
