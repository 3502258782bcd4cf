#pragma once
// kernel-tidy API model of luisa/core/thread_pool.h (in the 2024-02 releases LuisaRender pins;
// removed later): a host task pool whose async() returns a shared future of the task's result.
// Declarations only; the task is not run.
#include <future>
#include <type_traits>
#include <luisa/core/basic_types.h>
#include <luisa/core/stl/functional.h>

namespace luisa {

class ThreadPool {
public:
    explicit ThreadPool(size_t num_threads = 0u) noexcept;
    ~ThreadPool() noexcept;
    ThreadPool(ThreadPool &&) noexcept = delete;
    ThreadPool(const ThreadPool &) noexcept = delete;
    ThreadPool &operator=(ThreadPool &&) noexcept = delete;
    ThreadPool &operator=(const ThreadPool &) noexcept = delete;
    [[nodiscard]] static bool is_worker_thread() noexcept;
    [[nodiscard]] static uint worker_thread_index() noexcept;
    void barrier() noexcept;
    void synchronize() noexcept;
    [[nodiscard]] uint size() const noexcept;
    [[nodiscard]] uint task_count() const noexcept;
    template<typename F>
        requires std::is_invocable_v<F>
    auto async(F &&f) noexcept { return std::shared_future<std::invoke_result_t<F>>{}; }
    template<typename F>
        requires std::is_invocable_v<F, uint>
    void parallel(uint n, F &&f) noexcept {}
    template<typename F>
        requires std::is_invocable_v<F, uint, uint>
    void parallel(uint nx, uint ny, F &&f) noexcept {}
    template<typename F>
        requires std::is_invocable_v<F, uint, uint, uint>
    void parallel(uint nx, uint ny, uint nz, F &&f) noexcept {}
    template<typename F>
        requires std::is_invocable_v<F, uint>
    auto async_parallel(uint n, F &&f) noexcept { return std::shared_future<void>{}; }
    template<typename F>
        requires std::is_invocable_v<F, uint, uint>
    auto async_parallel(uint nx, uint ny, F &&f) noexcept { return std::shared_future<void>{}; }
    template<typename F>
        requires std::is_invocable_v<F, uint, uint, uint>
    auto async_parallel(uint nx, uint ny, uint nz, F &&f) noexcept { return std::shared_future<void>{}; }
};

}// namespace luisa
