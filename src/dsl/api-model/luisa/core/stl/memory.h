#pragma once
// kernel-tidy API model: light luisa smart pointers (not std aliases, for parse speed).
#include <cstddef>
#include <utility>
#include <type_traits>

namespace luisa {

inline namespace size_literals {
[[nodiscard]] constexpr auto operator""_k(unsigned long long size) noexcept { return static_cast<size_t>(size * 1024u); }
[[nodiscard]] constexpr auto operator""_M(unsigned long long size) noexcept { return static_cast<size_t>(size * 1024u * 1024u); }
[[nodiscard]] constexpr auto operator""_G(unsigned long long size) noexcept { return static_cast<size_t>(size * 1024u * 1024u * 1024u); }
}// namespace size_literals

using std::swap;

[[nodiscard]] constexpr size_t align(size_t s, size_t a) noexcept { return (s + (a - 1)) & ~(a - 1); }

template<typename T>
struct default_delete {
    void operator()(T *) const noexcept {}
};

template<typename T, typename D = default_delete<T>>
class unique_ptr {
    T *_p{nullptr};
public:
    using element_type = T;
    using pointer = T *;
    constexpr unique_ptr() noexcept = default;
    constexpr unique_ptr(decltype(nullptr)) noexcept {}
    explicit unique_ptr(T *p) noexcept : _p{p} {}
    // EASTL's converting constructor: a defaulted enable_if pointer after
    // the source (the AST of `stream << view.copy_to(p)` has both arguments).
    template<typename U, typename E>
    unique_ptr(unique_ptr<U, E> &&other,
               std::enable_if_t<std::is_convertible_v<U *, T *>> * = 0) noexcept
        : _p{other.release()} {}
    unique_ptr(unique_ptr &&other) noexcept : _p{other.release()} {}
    unique_ptr(const unique_ptr &) = delete;
    unique_ptr &operator=(unique_ptr &&) noexcept { return *this; }
    unique_ptr &operator=(const unique_ptr &) = delete;
    unique_ptr &operator=(decltype(nullptr)) noexcept { return *this; }
    ~unique_ptr() noexcept {}
    [[nodiscard]] T *get() const noexcept { return _p; }
    T *release() noexcept { auto p = _p; _p = nullptr; return p; }
    void reset(T *p = nullptr) noexcept { _p = p; }
    T &operator*() const noexcept { return *_p; }
    T *operator->() const noexcept { return _p; }
    explicit operator bool() const noexcept { return _p != nullptr; }
    [[nodiscard]] friend bool operator==(const unique_ptr &p, decltype(nullptr)) noexcept { return !p; }
    template<typename U, typename E>
    [[nodiscard]] friend bool operator==(const unique_ptr &p, const unique_ptr<U, E> &q) noexcept { return p.get() == q.get(); }
};

template<typename T, typename D>
class unique_ptr<T[], D> {
    T *_p{nullptr};
public:
    constexpr unique_ptr() noexcept = default;
    explicit unique_ptr(T *p) noexcept : _p{p} {}
    unique_ptr(unique_ptr &&) noexcept = default;
    unique_ptr &operator=(unique_ptr &&) noexcept = default;
    [[nodiscard]] T *get() const noexcept { return _p; }
    T &operator[](size_t i) const noexcept { return _p[i]; }
};

template<typename T>
class shared_ptr {
    T *_p{nullptr};
public:
    using element_type = T;
    constexpr shared_ptr() noexcept = default;
    constexpr shared_ptr(decltype(nullptr)) noexcept {}
    explicit shared_ptr(T *p) noexcept : _p{p} {}
    template<typename U>
        requires std::is_convertible_v<U *, T *>
    shared_ptr(const shared_ptr<U> &other) noexcept : _p{other.get()} {}
    template<typename U, typename D>
        requires std::is_convertible_v<U *, T *>
    shared_ptr(unique_ptr<U, D> &&other) noexcept : _p{other.release()} {}
    [[nodiscard]] T *get() const noexcept { return _p; }
    void reset(T *p = nullptr) noexcept { _p = p; }
    [[nodiscard]] long use_count() const noexcept { return 1; }
    T &operator*() const noexcept { return *_p; }
    T *operator->() const noexcept { return _p; }
    explicit operator bool() const noexcept { return _p != nullptr; }
};

template<typename T>
class weak_ptr {
public:
    weak_ptr() noexcept = default;
    weak_ptr(const shared_ptr<T> &) noexcept {}
    [[nodiscard]] shared_ptr<T> lock() const noexcept { return {}; }
};

template<typename T, typename... Args>
[[nodiscard]] unique_ptr<T> make_unique(Args &&...) noexcept { return {}; }
template<typename T, typename... Args>
[[nodiscard]] shared_ptr<T> make_shared(Args &&...) noexcept { return {}; }
template<typename T, typename... Args>
[[nodiscard]] T *new_with_allocator(Args &&...) noexcept { return nullptr; }
template<typename T>
void delete_with_allocator(T *) noexcept {}
template<typename T>
[[nodiscard]] inline T *allocate_with_allocator(size_t n = 1u) noexcept { return nullptr; }
template<typename T>
inline void deallocate_with_allocator(T *p) noexcept {}

}// namespace luisa
