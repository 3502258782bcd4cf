#pragma once
// kernel-tidy API model of luisa/dsl/expr_traits.h (same names and definitions of the traits).
#include <type_traits>
#include <concepts>
#include <luisa/core/basic_types.h>
#include <luisa/core/concepts.h>
#include <luisa/ast/type.h>
#include <luisa/runtime/buffer.h>

namespace luisa::compute {

template<typename T>
struct Expr;
template<typename T>
struct Var;
template<typename T>
class Local;

namespace detail {
template<typename T>
struct Ref;
template<typename T>
struct expr_value_impl { using type = T; };
template<typename T>
struct expr_value_impl<Expr<T>> { using type = T; };
template<typename T>
struct expr_value_impl<Ref<T>> { using type = T; };
template<typename T>
struct expr_value_impl<Var<T>> { using type = T; };
}// namespace detail

template<typename T>
using expr_value = detail::expr_value_impl<std::remove_cvref_t<T>>;
template<typename T>
using expr_value_t = typename expr_value<T>::type;
template<typename T>
using vector_expr_element = vector_element<expr_value_t<T>>;
template<typename T>
using vector_expr_element_t = typename vector_expr_element<T>::type;
template<typename T>
using vector_expr_dimension = vector_dimension<expr_value_t<T>>;
template<typename T>
constexpr auto vector_expr_dimension_v = vector_expr_dimension<T>::value;
template<typename... T>
using is_vector_expr_same_dimension = is_vector_same_dimension<expr_value_t<T>...>;
template<typename... T>
constexpr auto is_vector_expr_same_dimension_v = is_vector_expr_same_dimension<T...>::value;
template<typename... T>
using is_vector_expr_same_element = concepts::is_same<vector_expr_element_t<T>...>;
template<typename... T>
constexpr auto is_vector_expr_same_element_v = is_vector_expr_same_element<T...>::value;

namespace detail {
template<typename T>
struct is_dsl_impl : std::false_type {};
template<typename T>
struct is_dsl_impl<Expr<T>> : std::true_type {};
template<typename T>
struct is_dsl_impl<Ref<T>> : std::true_type {};
template<typename T>
struct is_dsl_impl<Var<T>> : std::true_type {};
template<typename T>
struct is_dsl_local_array_impl : std::false_type {};
template<typename T>
struct is_dsl_local_array_impl<Local<T>> : std::true_type {};
}// namespace detail

template<typename T>
using is_dsl = typename detail::is_dsl_impl<std::remove_cvref_t<T>>::type;
template<typename T>
constexpr auto is_dsl_v = is_dsl<T>::value;
template<typename T>
using is_dsl_local_array = typename detail::is_dsl_local_array_impl<std::remove_cvref_t<T>>::type;
template<typename T>
constexpr auto is_dsl_local_array_v = is_dsl_local_array<T>::value;
template<typename T>
using is_dsl_or_local_array = std::disjunction<is_dsl<T>, is_dsl_local_array<T>>;
template<typename T>
constexpr auto is_dsl_or_local_array_v = is_dsl_or_local_array<T>::value;
template<typename... T>
using any_dsl = std::disjunction<is_dsl<T>...>;
template<typename... T>
constexpr auto any_dsl_v = any_dsl<T...>::value;
template<typename... T>
using any_dsl_or_local_array = std::disjunction<is_dsl_or_local_array<T>...>;
template<typename... T>
constexpr auto any_dsl_or_local_array_v = any_dsl_or_local_array<T...>::value;
template<typename... T>
using is_same_expr = concepts::is_same<expr_value_t<T>...>;
template<typename... T>
constexpr auto is_same_expr_v = is_same_expr<T...>::value;

#define LUISA_MODEL_EXPR_TRAIT(name)                      \
    template<typename T>                                  \
    using name##_expr = name<expr_value_t<T>>;            \
    template<typename T>                                  \
    constexpr auto name##_expr_v = name##_expr<T>::value;
LUISA_MODEL_EXPR_TRAIT(is_integral)
LUISA_MODEL_EXPR_TRAIT(is_signed_integral)
LUISA_MODEL_EXPR_TRAIT(is_unsigned_integral)
LUISA_MODEL_EXPR_TRAIT(is_boolean)
LUISA_MODEL_EXPR_TRAIT(is_floating_point)
LUISA_MODEL_EXPR_TRAIT(is_scalar)
LUISA_MODEL_EXPR_TRAIT(is_vector)
LUISA_MODEL_EXPR_TRAIT(is_vector2)
LUISA_MODEL_EXPR_TRAIT(is_vector3)
LUISA_MODEL_EXPR_TRAIT(is_vector4)
LUISA_MODEL_EXPR_TRAIT(is_boolean_vector)
LUISA_MODEL_EXPR_TRAIT(is_floating_point_vector)
LUISA_MODEL_EXPR_TRAIT(is_integral_vector)
LUISA_MODEL_EXPR_TRAIT(is_signed_integral_vector)
LUISA_MODEL_EXPR_TRAIT(is_unsigned_integral_vector)
LUISA_MODEL_EXPR_TRAIT(is_matrix)
LUISA_MODEL_EXPR_TRAIT(is_matrix2)
LUISA_MODEL_EXPR_TRAIT(is_matrix3)
LUISA_MODEL_EXPR_TRAIT(is_matrix4)
LUISA_MODEL_EXPR_TRAIT(is_basic)
LUISA_MODEL_EXPR_TRAIT(is_array)
#undef LUISA_MODEL_EXPR_TRAIT

template<typename T>
using is_floating_point_or_vector_expr = std::disjunction<is_floating_point_expr<T>, is_floating_point_vector_expr<T>>;
template<typename T>
constexpr auto is_floating_point_or_vector_expr_v = is_floating_point_or_vector_expr<T>::value;
template<typename T>
using is_integral_or_vector_expr = std::disjunction<is_integral_expr<T>, is_integral_vector_expr<T>>;
template<typename T>
constexpr auto is_integral_or_vector_expr_v = is_integral_or_vector_expr<T>::value;
template<typename T>
using is_signed_integral_or_vector_expr = std::disjunction<is_signed_integral_expr<T>, is_signed_integral_vector_expr<T>>;
template<typename T>
constexpr auto is_signed_integral_or_vector_expr_v = is_signed_integral_or_vector_expr<T>::value;
template<typename T>
using is_unsigned_integral_or_vector_expr = std::disjunction<is_unsigned_integral_expr<T>, is_unsigned_integral_vector_expr<T>>;
template<typename T>
constexpr auto is_unsigned_integral_or_vector_expr_v = is_unsigned_integral_or_vector_expr<T>::value;
template<typename T>
using is_boolean_or_vector_expr = std::disjunction<is_boolean_expr<T>, is_boolean_vector_expr<T>>;
template<typename T>
constexpr auto is_boolean_or_vector_expr_v = is_boolean_or_vector_expr<T>::value;
template<typename T>
using is_buffer_expr = is_buffer_or_view<expr_value_t<T>>;
template<typename T>
constexpr auto is_buffer_expr_v = is_buffer_expr<T>::value;
template<typename T>
using buffer_expr_element = buffer_element<expr_value_t<T>>;
template<typename T>
using buffer_expr_element_t = typename buffer_expr_element<T>::type;
template<typename T>
using array_expr_element = array_element<expr_value_t<T>>;
template<typename T>
using array_expr_element_t = typename array_expr_element<T>::type;
template<typename T>
using array_expr_dimension = array_dimension<expr_value_t<T>>;
template<typename T>
constexpr auto array_expr_dimension_v = array_expr_dimension<T>::value;

template<typename T>
class SOAView;
template<typename T>
class SOA;
namespace detail {
template<typename T>
struct is_soa_expr_impl : std::false_type {};
template<typename T>
struct is_soa_expr_impl<SOAView<T>> : std::true_type {};
template<typename T>
struct is_soa_expr_impl<SOA<T>> : std::true_type {};
}// namespace detail
template<typename T>
using is_soa_expr = detail::is_soa_expr_impl<expr_value_t<T>>;
template<typename T>
constexpr auto is_soa_expr_v = is_soa_expr<T>::value;

}// namespace luisa::compute
