#pragma once
// kernel-tidy API model: luisa::compute::detail::FunctionBuilder is opaque here.
#include <luisa/ast/expression.h>
#include <luisa/ast/statement.h>
#include <luisa/ast/op.h>
#include <luisa/ast/type.h>
#include <luisa/core/stl/memory.h>

namespace luisa::compute {
class Function {
public:
    Function() noexcept = default;
    template<typename T>
    explicit Function(const T *) noexcept {}
    [[nodiscard]] uint64_t hash() const noexcept { return 0u; }
};
namespace detail {
class FunctionBuilder {
public:
    [[nodiscard]] static FunctionBuilder *current() noexcept { return nullptr; }
    [[nodiscard]] Function function() const noexcept { return {}; }
    void set_name(luisa::string_view) const noexcept {}
};
/// model-only helper: all stub bodies produce this (null) expression
[[nodiscard]] inline const Expression *model_expression() noexcept { return nullptr; }
[[nodiscard]] inline const Expression *swizzle_expression() noexcept { return nullptr; }
[[nodiscard]] inline const RefExpr *model_ref_expression() noexcept { return nullptr; }
}// namespace detail
}// namespace luisa::compute
