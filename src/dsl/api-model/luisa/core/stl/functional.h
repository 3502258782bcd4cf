#pragma once
// kernel-tidy API model: light luisa::function / move_only_function.
#include <utility>
#include <type_traits>

namespace luisa {

template<typename F>
class function;
template<typename R, typename... Args>
class function<R(Args...)> {
public:
    function() noexcept = default;
    function(decltype(nullptr)) noexcept {}
    template<typename F>
        requires(!std::is_same_v<std::remove_cvref_t<F>, function>) && std::is_invocable_v<F &, Args...>
    function(F &&) noexcept {}
    R operator()(Args...) const noexcept;
    explicit operator bool() const noexcept { return true; }
};

template<typename F>
class move_only_function;
template<typename R, typename... Args>
class move_only_function<R(Args...)> {
public:
    move_only_function() noexcept = default;
    move_only_function(decltype(nullptr)) noexcept {}
    template<typename F>
        requires(!std::is_same_v<std::remove_cvref_t<F>, move_only_function>) && std::is_invocable_v<F &, Args...>
    move_only_function(F &&) noexcept {}
    move_only_function(move_only_function &&) noexcept = default;
    move_only_function &operator=(move_only_function &&) noexcept = default;
    R operator()(Args...) noexcept;
    explicit operator bool() const noexcept { return true; }
};

namespace detail {
/// converts to whatever its constructor function returns (used as a lazy emplace argument)
template<typename F>
class LazyConstructor {
    F _ctor;
public:
    explicit LazyConstructor(F &&ctor) noexcept : _ctor{std::forward<F>(ctor)} {}
    [[nodiscard]] operator auto() const noexcept { return _ctor(); }
};
}// namespace detail
template<typename F>
[[nodiscard]] inline auto lazy_construct(F &&ctor) noexcept { return detail::LazyConstructor<F>(std::forward<F>(ctor)); }

template<typename F, typename... Args>
decltype(auto) invoke(F &&f, Args &&...args) noexcept(noexcept(std::forward<F>(f)(std::forward<Args>(args)...))) {
    return std::forward<F>(f)(std::forward<Args>(args)...);
}

}// namespace luisa
