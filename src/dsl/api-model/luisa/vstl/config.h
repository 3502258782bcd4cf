#pragma once
// kernel-tidy API model of luisa/vstl/config.h: its macros and the global integer aliases
// it declares (user files write `int32`, `uint64` unqualified after including it).
#include <cstdint>
#include <cstdlib>
#include <luisa/core/dll_export.h>

#define VSTL_ABORT() std::abort()
#define VSTL_EXPORT_C LUISA_EXPORT_API
#define VENGINE_C_FUNC_COMMON
#define VENGINE_EXIT std::abort()

using uint = uint32_t;
using uint64 = uint64_t;
using int64 = int64_t;
using int32 = int32_t;
