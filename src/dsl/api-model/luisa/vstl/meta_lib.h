#pragma once
// kernel-tidy API model of luisa/vstl/meta_lib.h: only vstd::IOperatorNewBase (the base
// that routes a class's new/delete to LuisaCompute's allocator; user classes derive from it).
#include <cstddef>
#include <new>
#include <luisa/core/stl.h>
#include <luisa/vstl/config.h>

namespace vstd {

struct IOperatorNewBase {
    static void *operator new(size_t size) noexcept;
    static void *operator new(size_t, void *place) noexcept { return place; }
    static void *operator new[](size_t size) noexcept;
    static void *operator new(size_t size, const std::nothrow_t &) noexcept;
    static void *operator new(size_t, void *place, const std::nothrow_t &) noexcept { return place; }
    static void *operator new[](size_t size, const std::nothrow_t &) noexcept;
    static void operator delete(void *p) noexcept;
    static void operator delete(void *p, void *place) noexcept {}
    static void operator delete[](void *p) noexcept;
    static void operator delete(void *p, size_t) noexcept;
    static void operator delete[](void *p, size_t) noexcept;
};

}// namespace vstd
