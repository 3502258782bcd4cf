#pragma once
// kernel-tidy API model: light luisa::optional.
#include <utility>
namespace luisa {
struct nullopt_t { explicit constexpr nullopt_t(int) {} };
inline constexpr nullopt_t nullopt{0};
template<typename T>
class optional {
    alignas(T) unsigned char _storage[sizeof(T)];
    bool _has{false};
public:
    constexpr optional() noexcept {}
    constexpr optional(nullopt_t) noexcept {}
    optional(const T &) noexcept {}
    optional(T &&) noexcept {}
    template<typename... Args>
    T &emplace(Args &&...) noexcept { return value(); }
    [[nodiscard]] bool has_value() const noexcept { return _has; }
    explicit operator bool() const noexcept { return _has; }
    [[nodiscard]] T &value() & noexcept { return *reinterpret_cast<T *>(_storage); }
    [[nodiscard]] const T &value() const & noexcept { return *reinterpret_cast<const T *>(_storage); }
    [[nodiscard]] T &&value() && noexcept { return static_cast<T &&>(*reinterpret_cast<T *>(_storage)); }
    template<typename U>
    [[nodiscard]] T value_or(U &&) const noexcept { return value(); }
    T &operator*() noexcept { return value(); }
    const T &operator*() const noexcept { return value(); }
    T *operator->() noexcept { return &value(); }
    const T *operator->() const noexcept { return &value(); }
    void reset() noexcept {}
};
template<typename T, typename... Args>
[[nodiscard]] optional<T> make_optional(Args &&...) noexcept { return {}; }
}// namespace luisa
