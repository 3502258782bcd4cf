#pragma once
// kernel-tidy API model of luisa/core/logging.h
#include <luisa/core/macro.h>
#include <luisa/core/stl/string.h>
#include <luisa/core/stl/format.h>

namespace luisa {
template<typename... Args>
inline void log_verbose(Args &&...) noexcept {}
template<typename... Args>
inline void log_info(Args &&...) noexcept {}
template<typename... Args>
inline void log_warning(Args &&...) noexcept {}
template<typename... Args>
[[noreturn]] inline void log_error(Args &&...) noexcept { __builtin_trap(); }
inline void log_flush() noexcept {}
inline void log_level_verbose() noexcept {}
inline void log_level_info() noexcept {}
inline void log_level_warning() noexcept {}
inline void log_level_error() noexcept {}
}// namespace luisa

#define LUISA_VERBOSE(fmt, ...) ::luisa::log_verbose(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_INFO(fmt, ...) ::luisa::log_info(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_WARNING(fmt, ...) ::luisa::log_warning(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_ERROR(fmt, ...) ::luisa::log_error(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_VERBOSE_WITH_LOCATION(fmt, ...) LUISA_VERBOSE(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_INFO_WITH_LOCATION(fmt, ...) LUISA_INFO(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_WARNING_WITH_LOCATION(fmt, ...) LUISA_WARNING(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_ERROR_WITH_LOCATION(fmt, ...) LUISA_ERROR(fmt __VA_OPT__(, ) __VA_ARGS__)
#define LUISA_NOT_IMPLEMENTED(...) LUISA_ERROR("Not implemented.")
#define LUISA_ASSERT(x, ...)                                             \
    do {                                                                 \
        if (!(x)) [[unlikely]] {                                         \
            ::luisa::log_error(#x __VA_OPT__(, ) __VA_ARGS__);           \
        }                                                                \
    } while (false)
#define LUISA_DEBUG_ASSERT(x, ...) LUISA_ASSERT(x __VA_OPT__(, ) __VA_ARGS__)
