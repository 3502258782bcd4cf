#pragma once
// kernel-tidy API model of luisa/dsl/operators.h: global operator templates with the same
// constraints and call shape as the real header (bodies are stubs).

#include <luisa/core/basic_types.h>
#include <luisa/dsl/expr_traits.h>
#include <luisa/dsl/expr.h>

/// Define global unary operation of dsl objects
#define LUISA_MAKE_GLOBAL_DSL_UNARY_OP(op, op_tag)                                   \
    template<typename T>                                                             \
        requires luisa::compute::is_dsl_v<T>                                         \
    [[nodiscard]] inline auto operator op(T &&expr) noexcept {                       \
        using R = std::remove_cvref_t<                                               \
            decltype(op std::declval<luisa::compute::expr_value_t<T>>())>;           \
        return luisa::compute::dsl::def<R>(                                          \
            luisa::compute::detail::model_expression());                             \
    }
LUISA_MAKE_GLOBAL_DSL_UNARY_OP(+, PLUS)
LUISA_MAKE_GLOBAL_DSL_UNARY_OP(-, MINUS)
LUISA_MAKE_GLOBAL_DSL_UNARY_OP(!, NOT)
LUISA_MAKE_GLOBAL_DSL_UNARY_OP(~, BIT_NOT)
#undef LUISA_MAKE_GLOBAL_DSL_UNARY_OP

namespace luisa::compute::detail {

template<typename R, typename L, typename Rh>
struct dsl_binary_op_types {
    R ret;
    L lhs_cast;
    Rh rhs_cast;
};
template<typename R, typename L, typename Rh>
constexpr auto make_dsl_binary_op_types(R, L, Rh) noexcept { return dsl_binary_op_types<R, L, Rh>{}; }

/// (ret, lhs_cast, rhs_cast) as in the real header (same static_asserts on operand kinds)
template<BinaryOp op, typename Lhs, typename Rhs>
constexpr auto dsl_binary_op_return_type_helper() noexcept {
    constexpr auto lhs_is_scalar = luisa::is_scalar_v<Lhs>;
    constexpr auto rhs_is_scalar = luisa::is_scalar_v<Rhs>;
    constexpr auto lhs_is_integral = luisa::is_integral_or_vector_v<Lhs>;
    constexpr auto rhs_is_integral = luisa::is_integral_or_vector_v<Rhs>;
    constexpr auto lhs_is_fp = luisa::is_floating_point_or_vector_v<Lhs> || luisa::is_matrix_v<Lhs>;
    constexpr auto rhs_is_fp = luisa::is_floating_point_or_vector_v<Rhs> || luisa::is_matrix_v<Rhs>;
    constexpr auto lhs_is_vector = luisa::is_vector_v<Lhs>;
    constexpr auto rhs_is_vector = luisa::is_vector_v<Rhs>;
    constexpr auto lhs_is_boolean = luisa::is_boolean_or_vector_v<Lhs>;
    constexpr auto rhs_is_boolean = luisa::is_boolean_or_vector_v<Rhs>;
    using lhs_elem = std::conditional_t<luisa::is_matrix_v<Lhs>, float, vector_element_t<Lhs>>;
    using rhs_elem = std::conditional_t<luisa::is_matrix_v<Rhs>, float, vector_element_t<Rhs>>;
    // same operand rules as the real header
    static_assert(
        std::is_same_v<lhs_elem, rhs_elem> ||
            (lhs_is_scalar && rhs_is_scalar &&
                 ((lhs_is_integral && rhs_is_fp) ||
                  (lhs_is_fp && rhs_is_integral) ||
                  (lhs_is_integral && rhs_is_integral && sizeof(lhs_elem) == sizeof(rhs_elem))) ||
             ((op == BinaryOp::SHL || op == BinaryOp::SHR) &&
              lhs_is_integral && rhs_is_scalar && rhs_is_integral)),
        "Binary operator requires operands of the same element type.");
    if constexpr (op == BinaryOp::ADD || op == BinaryOp::SUB || op == BinaryOp::MUL || op == BinaryOp::DIV) {
        static_assert((lhs_is_integral || lhs_is_fp) && (rhs_is_integral || rhs_is_fp),
                      "Arithmetic operator requires integral or floating-point operands.");
    } else if constexpr (op == BinaryOp::MOD) {
        static_assert(lhs_is_integral && rhs_is_integral, "Modulo operator requires integral operands.");
    } else if constexpr (op == BinaryOp::BIT_AND || op == BinaryOp::BIT_OR || op == BinaryOp::BIT_XOR) {
        static_assert((lhs_is_integral && rhs_is_integral) ||
                          (lhs_is_scalar && lhs_is_boolean && rhs_is_scalar && rhs_is_boolean),
                      "Bitwise operator requires integral or boolean operands.");
    } else if constexpr (op == BinaryOp::AND || op == BinaryOp::OR) {
        static_assert(lhs_is_vector && rhs_is_vector && lhs_is_boolean && rhs_is_boolean,
                      "Logical operator requires boolean vector operands. To perform "
                      "logical operations on scalars, please use the bitwise operators "
                      "and note that the short-circuit evaluation is not supported.");
    } else if constexpr (op == BinaryOp::SHL || op == BinaryOp::SHR) {
        static_assert(lhs_is_integral && rhs_is_integral, "Shift operator requires integral operands.");
    }
    constexpr auto lhs = expr_value_t<Lhs>{};
    constexpr auto rhs = expr_value_t<Rhs>{};
    if constexpr (op == BinaryOp::ADD || op == BinaryOp::SUB ||
                  op == BinaryOp::MUL || op == BinaryOp::DIV) {
        if constexpr (lhs_is_scalar && rhs_is_scalar) {
            if constexpr (lhs_is_integral && rhs_is_fp) {
                return make_dsl_binary_op_types(rhs, rhs, rhs);
            } else if constexpr (lhs_is_fp && rhs_is_integral) {
                return make_dsl_binary_op_types(lhs, lhs, lhs);
            } else {
                auto ret = decltype(lhs * rhs){};
                return make_dsl_binary_op_types(ret, ret, ret);
            }
        } else {
            auto ret = decltype(lhs * rhs){};
            return make_dsl_binary_op_types(ret, lhs, rhs);
        }
    } else if constexpr (op == BinaryOp::MOD) {
        return make_dsl_binary_op_types(decltype(lhs % rhs){}, lhs, rhs);
    } else if constexpr (op == BinaryOp::EQUAL || op == BinaryOp::NOT_EQUAL ||
                         op == BinaryOp::LESS || op == BinaryOp::LESS_EQUAL ||
                         op == BinaryOp::GREATER || op == BinaryOp::GREATER_EQUAL) {
        if constexpr (lhs_is_scalar && rhs_is_scalar) {
            return make_dsl_binary_op_types(bool{}, lhs, rhs);
        } else {
            auto ret = decltype(lhs == rhs){};
            return make_dsl_binary_op_types(ret, lhs, rhs);
        }
    } else if constexpr (op == BinaryOp::BIT_AND || op == BinaryOp::BIT_OR || op == BinaryOp::BIT_XOR) {
        if constexpr (lhs_is_integral) {
            return make_dsl_binary_op_types(decltype(lhs & rhs){}, lhs, rhs);
        } else {
            return make_dsl_binary_op_types(decltype(lhs && rhs){}, lhs, rhs);
        }
    } else if constexpr (op == BinaryOp::AND || op == BinaryOp::OR) {
        return make_dsl_binary_op_types(decltype(lhs && rhs){}, lhs, rhs);
    } else if constexpr (op == BinaryOp::SHL || op == BinaryOp::SHR) {
        if constexpr (rhs_is_scalar) {
            auto rhs_cast = lhs_elem{};
            auto ret = decltype(lhs << rhs_cast){};
            return make_dsl_binary_op_types(ret, lhs, rhs_cast);
        } else {
            auto ret = decltype(lhs << rhs){};
            return make_dsl_binary_op_types(ret, lhs, rhs);
        }
    } else {
        static_assert(always_false_v<Lhs>);
    }
}

}// namespace luisa::compute::detail

/// Define global binary operation of dsl objects
#define LUISA_MAKE_GLOBAL_DSL_BINARY_OP(op, op_tag_name)                                     \
    template<typename LhsT, typename RhsT>                                                   \
        requires luisa::compute::any_dsl_v<LhsT, RhsT> &&                                    \
                 luisa::is_basic_v<luisa::compute::expr_value_t<LhsT>> &&                    \
                 luisa::is_basic_v<luisa::compute::expr_value_t<RhsT>>                       \
    [[nodiscard]] inline auto operator op(LhsT &&lhs, RhsT &&rhs) noexcept {                 \
        using Lhs = luisa::compute::expr_value_t<LhsT>;                                      \
        using Rhs = luisa::compute::expr_value_t<RhsT>;                                      \
        auto [ret, lhs_cast, rhs_cast] =                                                     \
            luisa::compute::detail::dsl_binary_op_return_type_helper<                        \
                luisa::compute::BinaryOp::op_tag_name, Lhs, Rhs>();                          \
        using Ret = decltype(ret);                                                           \
        return luisa::compute::dsl::def<Ret>(luisa::compute::detail::model_expression());    \
    }
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(+, ADD)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(-, SUB)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(*, MUL)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(/, DIV)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(%, MOD)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(&, BIT_AND)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(|, BIT_OR)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(^, BIT_XOR)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(<<, SHL)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(>>, SHR)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(&&, AND)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(||, OR)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(==, EQUAL)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(!=, NOT_EQUAL)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(<, LESS)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(<=, LESS_EQUAL)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(>, GREATER)
LUISA_MAKE_GLOBAL_DSL_BINARY_OP(>=, GREATER_EQUAL)
#undef LUISA_MAKE_GLOBAL_DSL_BINARY_OP

/// Define global assign operation of dsl objects; returns *const* reference to lhs
#define LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(op)                                      \
    template<typename T, typename U>                                             \
        requires std::same_as<decltype(std::declval<luisa::compute::Var<T> &>()  \
                                           op std::declval<U &>()),              \
                              luisa::compute::Var<T>>                            \
    const auto &operator op##=(luisa::compute::Var<T> &lhs, U && rhs) noexcept { \
        return lhs;                                                              \
    }
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(+)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(-)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(*)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(/)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(%)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(&)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(|)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(^)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(<<)
LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP(>>)
#undef LUISA_MAKE_GLOBAL_DSL_ASSIGN_OP

#define LUISA_DISABLE_DSL_ADDRESS_OF_MESSAGE \
    "Address-of operator is not allowed for DSL objects."

// disable the address-of operator for dsl objects
template<typename T>
    requires ::luisa::compute::is_dsl_v<T>
[[nodiscard]] inline T *operator&(T &&) noexcept {
    static_assert(::luisa::always_false_v<T>, LUISA_DISABLE_DSL_ADDRESS_OF_MESSAGE);
    __builtin_abort();
}

#define LUISA_DISABLE_DSL_ADDRESS_OF_OPERATOR(...)                                  \
    template<typename T>                                                            \
        requires std::same_as<T, __VA_ARGS__>                                       \
    [[nodiscard]] inline T *operator&(T &&) noexcept {                              \
        static_assert(::luisa::always_false_v<T>, LUISA_DISABLE_DSL_ADDRESS_OF_MESSAGE); \
        __builtin_abort();                                                               \
    }
