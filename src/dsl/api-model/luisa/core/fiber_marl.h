#pragma once
// kernel-tidy API model: the part of marl (the fiber library LuisaCompute bundles) that
// luisa/core/fiber.h and fiber_future.h expose: Allocator, mutex, lock, ConditionVariable,
// WaitGroup, Event, Scheduler, schedule, make_finally. No std threading headers.
#include <cstddef>
#include <cstdint>
#include <utility>

namespace marl {

class Allocator {
public:
    static inline Allocator *Default = nullptr;
};

class mutex {
public:
    void lock() {}
    void unlock() {}
    bool try_lock() { return true; }
};

class lock {
public:
    explicit lock(mutex &m) {}
    bool owns_lock() const { return true; }
    void lock_no_tsa() {}
    void unlock_no_tsa() {}
};

class ConditionVariable {
public:
    explicit ConditionVariable(Allocator *allocator = Allocator::Default) {}
    void notify_one() {}
    void notify_all() {}
    template<typename Predicate>
    void wait(lock &l, Predicate &&pred) {}
};

class WaitGroup {
public:
    explicit WaitGroup(unsigned int initialCount = 0, Allocator *allocator = Allocator::Default) {}
    void add(unsigned int count = 1) const {}
    bool done() const { return true; }
    void wait() const {}
    bool test() const { return true; }
    size_t hash() const { return 0u; }
};

class Event {
public:
    enum class Mode : uint8_t { Auto, Manual };
    explicit Event(Mode mode = Mode::Auto, bool initialState = false,
                   Allocator *allocator = Allocator::Default) {}
    void signal() const {}
    void clear() const {}
    void wait() const {}
    bool test() const { return false; }
    bool isSignalled() const { return false; }
    size_t hash() const { return 0u; }
};

class Scheduler {
public:
    struct Config {
        struct WorkerThread {
            int count = 0;
        } workerThread;
        static Config allCores() { return {}; }
        Config &setWorkerThreadCount(int count) { return *this; }
    };
    explicit Scheduler(const Config &config) {}
    static Scheduler *get() { return nullptr; }
    void bind() {}
    static void unbind() {}
    const Config &config() const { return _config; }
private:
    Config _config;
};

template<typename Function>
void schedule(Function &&f) {}

template<typename F>
class Finally {
public:
    explicit Finally(F &&f) {}
    Finally(Finally &&) = default;
    ~Finally() {}
};
template<typename F>
inline Finally<F> make_finally(F &&f) { return Finally<F>{std::forward<F>(f)}; }

}// namespace marl
