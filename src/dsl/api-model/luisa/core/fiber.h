#pragma once
// kernel-tidy API model of luisa/core/fiber.h: luisa::fiber (task parallelism on marl's
// fibers): scheduler, counter, event, mutex, lock, condition_variable, future, schedule,
// async, parallel, async_parallel, worker_thread_count, and the luisa_fiber_defer macro.
// Declarations with stub bodies; the tasks are not invoked.
#include <type_traits>
#include <luisa/core/fiber_marl.h>
#include <luisa/core/fiber_future.h>

#define LUISA_MARL_CONCAT_(a, b) a##b
#define LUISA_MARL_CONCAT(a, b) LUISA_MARL_CONCAT_(a, b)
#define luisa_fiber_defer(...) \
    auto LUISA_MARL_CONCAT(defer_, __LINE__) = marl::make_finally([&]() noexcept { __VA_ARGS__; })

namespace luisa::fiber {

class scheduler {
public:
    using internal_t = marl::Scheduler;
    scheduler() noexcept {}
    explicit scheduler(uint32_t thread_count) noexcept {}
    scheduler(scheduler const &) = delete;
    scheduler(scheduler &&) = delete;
    ~scheduler() noexcept {}
};
using counter = marl::WaitGroup;
using lock = marl::lock;
using condition_variable = marl::ConditionVariable;
using mutex = marl::mutex;
struct event {
    using Mode = marl::Event::Mode;
    explicit event(Mode mode = Mode::Manual, bool init_signalled = false) noexcept {}
    void signal() const noexcept {}
    void clear() const noexcept {}
    void wait() const noexcept {}
    [[nodiscard]] bool test() const noexcept { return false; }
    [[nodiscard]] bool is_signalled() const noexcept { return false; }
};
template<typename T>
using future = Future<T>;

inline uint32_t worker_thread_count() { return 1u; }

template<class F>
    requires(std::is_invocable_v<F>)
void schedule(F &&f) noexcept {}

// An event for a void task, else a future of its result.
template<class F>
    requires(std::is_invocable_v<F>)
[[nodiscard]] auto async(F &&lambda) noexcept {
    using RetType = decltype(lambda());
    if constexpr (std::is_same_v<RetType, void>) {
        return event{};
    } else {
        return future<RetType>{};
    }
}
template<class F>
    requires(std::is_invocable_v<F, uint32_t>)
[[nodiscard]] auto async_parallel(uint32_t job_count, F &&lambda, uint32_t internal_jobs = 1) noexcept {
    return counter{};
}
template<class F>
    requires(std::is_invocable_v<F, uint32_t>)
void async_parallel(luisa::fiber::counter &evt, uint32_t job_count, F &&lambda, uint32_t internal_jobs = 1) noexcept {}
template<class F>
    requires(std::is_invocable_v<F, uint32_t> || std::is_invocable_v<F, uint32_t, uint32_t>)
void parallel(uint32_t job_count, F &&lambda, uint32_t internal_jobs = 1) noexcept {}
template<class Iter, class F>
    requires(std::is_invocable_v<F, Iter, Iter> || std::is_invocable_v<F, Iter>)
void parallel(Iter begin, Iter end, size_t batch, F f, size_t inplace_batch_threahold = 1ull) {}
template<class F, class Iter>
    requires(std::is_invocable_v<F, Iter, Iter>)
auto async_parallel(Iter begin, Iter end, size_t batch, F f, size_t inplace_batch_threahold = 1ull) {
    return counter{};
}
template<class F, class Iter>
    requires(std::is_invocable_v<F, Iter, Iter>)
void async_parallel(luisa::fiber::counter &counter, Iter begin, Iter end, size_t batch, F f,
                    size_t inplace_batch_threahold = 1ull) {}

}// namespace luisa::fiber
