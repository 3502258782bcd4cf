#pragma once
// kernel-tidy API model: light luisa::span (not std alias).
#include <cstddef>
#include <array>
#include <type_traits>

namespace luisa {

inline constexpr size_t dynamic_extent = static_cast<size_t>(-1);

template<typename T, size_t E = dynamic_extent>
class span {
    T *_p{nullptr};
    size_t _n{0u};
public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    using iterator = T *;
    constexpr span() noexcept = default;
    constexpr span(T *p, size_t n) noexcept : _p{p}, _n{n} {}
    constexpr span(T *b, T *e) noexcept : _p{b}, _n{static_cast<size_t>(e - b)} {}
    template<size_t N>
    constexpr span(T (&a)[N]) noexcept : _p{a}, _n{N} {}
    template<typename U, size_t N>
        requires std::is_convertible_v<U (*)[], T (*)[]>
    constexpr span(std::array<U, N> &a) noexcept : _p{a.data()}, _n{N} {}
    template<typename U, size_t N>
        requires std::is_convertible_v<const U (*)[], T (*)[]>
    constexpr span(const std::array<U, N> &a) noexcept : _p{a.data()}, _n{N} {}
    template<typename C>
        requires requires(C &c) { { c.data() } -> std::convertible_to<T *>; c.size(); }
    constexpr span(C &&c) noexcept : _p{c.data()}, _n{c.size()} {}
    template<typename U, size_t F>
        requires std::is_convertible_v<U (*)[], T (*)[]>
    constexpr span(const span<U, F> &s) noexcept : _p{s.data()}, _n{s.size()} {}
    [[nodiscard]] constexpr T *data() const noexcept { return _p; }
    [[nodiscard]] constexpr size_t size() const noexcept { return _n; }
    [[nodiscard]] constexpr size_t size_bytes() const noexcept { return _n * sizeof(T); }
    [[nodiscard]] constexpr bool empty() const noexcept { return _n == 0u; }
    [[nodiscard]] constexpr T &operator[](size_t i) const noexcept { return _p[i]; }
    [[nodiscard]] constexpr T &front() const noexcept { return *_p; }
    [[nodiscard]] constexpr T &back() const noexcept { return _p[_n - 1u]; }
    [[nodiscard]] constexpr T *begin() const noexcept { return _p; }
    [[nodiscard]] constexpr T *end() const noexcept { return _p + _n; }
    [[nodiscard]] constexpr span subspan(size_t, size_t = dynamic_extent) const noexcept { return *this; }
    [[nodiscard]] constexpr span first(size_t) const noexcept { return *this; }
    [[nodiscard]] constexpr span last(size_t) const noexcept { return *this; }
};

template<typename T, size_t N>
span(T (&)[N]) -> span<T>;
template<typename T, size_t N>
span(std::array<T, N> &) -> span<T>;
template<typename T, size_t N>
span(const std::array<T, N> &) -> span<const T>;
template<typename T>
span(T *, size_t) -> span<T>;
template<typename C>
span(C &) -> span<std::remove_pointer_t<decltype(std::declval<C &>().data())>>;
template<typename C>
span(const C &) -> span<std::remove_pointer_t<decltype(std::declval<const C &>().data())>>;

template<typename T, size_t E>
[[nodiscard]] inline span<const std::byte> as_bytes(span<T, E> s) noexcept { return {}; }
template<typename T, size_t E>
[[nodiscard]] inline span<std::byte> as_writable_bytes(span<T, E> s) noexcept { return {}; }

}// namespace luisa
