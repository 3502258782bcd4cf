#pragma once
// kernel-tidy API model: the per-module export macros are no-ops; LUISA_EXPORT_API and
// LUISA_IMPORT_API keep the real `extern "C"` (an imported variable is a declaration).
#define LUISA_EXTERN_C extern "C"
#define LUISA_NOEXCEPT noexcept
#define LUISA_EXPORT_API LUISA_EXTERN_C
#define LUISA_IMPORT_API LUISA_EXTERN_C
#define LUISA_CORE_API
#define LUISA_AST_API
#define LUISA_RUNTIME_API
#define LUISA_DSL_API
#define LUISA_IR_API
#define LUISA_BACKEND_API
#define LUISA_TENSOR_API
#define LUISA_GUI_API
#define LUISA_XIR_API
#define LUISA_CLANGCXX_API
#define LUISA_OSL_API
#define LUISA_VSTL_API
