#pragma once
// kernel-tidy API model of luisa/core/fiber_future.h: luisa::fiber::Future<T>, a value a
// fiber task signals and others wait for (marl's allocator and condition variable inside).
#include <type_traits>
#include <luisa/core/fiber_marl.h>

namespace luisa::fiber {

template<typename T>
class Future {
    T *_result{nullptr};
public:
    explicit Future(marl::Allocator *allocator = marl::Allocator::Default) {}
    template<typename... Args>
        requires(std::is_constructible_v<T, Args &&...>)
    void signal(Args &&...) const {}
    void clear() const {}
    [[nodiscard]] T &wait() const { return *_result; }
    [[nodiscard]] bool test() const { return false; }
    [[nodiscard]] bool isSignalled() const { return false; }
    Future(Future const &) = default;
    Future(Future &&) = default;
    Future &operator=(Future &&rhs) noexcept { return *this; }
    Future &operator=(Future const &rhs) { return *this; }
};

}// namespace luisa::fiber
