#pragma once
// kernel-tidy API model of luisa/core/spin_mutex.h. The real header includes
// <atomic> and <thread>, which files using it rely on.
#include <atomic>
#include <thread>

namespace luisa {

class spin_mutex {
public:
    spin_mutex() noexcept = default;
    void lock() noexcept {}
    bool try_lock() noexcept { return true; }
    void unlock() noexcept {}
};

}// namespace luisa
