#pragma once
// kernel-tidy API model: export macros are no-ops.
#define LUISA_EXPORT_API
#define LUISA_IMPORT_API
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
