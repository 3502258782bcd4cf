#pragma once
// kernel-tidy API model of luisa/core/basic_traits.h (declarations only).
#include <cstdint>
#include <cstddef>
#include <type_traits>

namespace half_float {
/// light stand-in for half_float::half (real: half.hpp)
class half {
    unsigned short _bits{};
public:
    constexpr half() noexcept = default;
    constexpr half(float) noexcept {}
    constexpr operator float() const noexcept { return 0.f; }
    half &operator+=(half) noexcept { return *this; }
    half &operator-=(half) noexcept { return *this; }
    half &operator*=(half) noexcept { return *this; }
    half &operator/=(half) noexcept { return *this; }
};
[[nodiscard]] constexpr half operator+(half, half) noexcept { return {}; }
[[nodiscard]] constexpr half operator-(half, half) noexcept { return {}; }
[[nodiscard]] constexpr half operator*(half, half) noexcept { return {}; }
[[nodiscard]] constexpr half operator/(half, half) noexcept { return {}; }
[[nodiscard]] constexpr half operator-(half) noexcept { return {}; }
[[nodiscard]] constexpr bool operator==(half, half) noexcept { return true; }
[[nodiscard]] constexpr bool operator<(half, half) noexcept { return false; }
[[nodiscard]] constexpr bool operator>(half, half) noexcept { return false; }
[[nodiscard]] constexpr bool operator<=(half, half) noexcept { return true; }
[[nodiscard]] constexpr bool operator>=(half, half) noexcept { return true; }
// half.hpp's <cmath>-style functions of half, found by argument-dependent lookup
// (`pow(half(2.0f), half(1.0f))` in a kernel file resolves to these, not to luisa::pow).
#define LUISA_MODEL_HALF_UNARY(f) \
    [[nodiscard]] inline half f(half x) noexcept { return x; }
LUISA_MODEL_HALF_UNARY(abs)
LUISA_MODEL_HALF_UNARY(fabs)
LUISA_MODEL_HALF_UNARY(exp)
LUISA_MODEL_HALF_UNARY(exp2)
LUISA_MODEL_HALF_UNARY(log)
LUISA_MODEL_HALF_UNARY(log2)
LUISA_MODEL_HALF_UNARY(log10)
LUISA_MODEL_HALF_UNARY(sqrt)
LUISA_MODEL_HALF_UNARY(rsqrt)
LUISA_MODEL_HALF_UNARY(sin)
LUISA_MODEL_HALF_UNARY(cos)
LUISA_MODEL_HALF_UNARY(tan)
LUISA_MODEL_HALF_UNARY(asin)
LUISA_MODEL_HALF_UNARY(acos)
LUISA_MODEL_HALF_UNARY(atan)
LUISA_MODEL_HALF_UNARY(sinh)
LUISA_MODEL_HALF_UNARY(cosh)
LUISA_MODEL_HALF_UNARY(tanh)
LUISA_MODEL_HALF_UNARY(ceil)
LUISA_MODEL_HALF_UNARY(floor)
LUISA_MODEL_HALF_UNARY(trunc)
LUISA_MODEL_HALF_UNARY(round)
#undef LUISA_MODEL_HALF_UNARY
#define LUISA_MODEL_HALF_BINARY(f) \
    [[nodiscard]] inline half f(half x, half) noexcept { return x; }
LUISA_MODEL_HALF_BINARY(pow)
LUISA_MODEL_HALF_BINARY(fmod)
LUISA_MODEL_HALF_BINARY(fmin)
LUISA_MODEL_HALF_BINARY(fmax)
LUISA_MODEL_HALF_BINARY(atan2)
LUISA_MODEL_HALF_BINARY(copysign)
#undef LUISA_MODEL_HALF_BINARY
[[nodiscard]] inline half fma(half x, half, half) noexcept { return x; }
[[nodiscard]] inline bool isnan(half) noexcept { return false; }
[[nodiscard]] inline bool isinf(half) noexcept { return false; }
[[nodiscard]] inline bool isfinite(half) noexcept { return true; }
[[nodiscard]] inline bool signbit(half) noexcept { return false; }
namespace literal {
[[nodiscard]] constexpr half operator""_h(long double) noexcept { return {}; }
}// namespace literal
}// namespace half_float

namespace luisa {

template<typename... T>
struct always_false : std::false_type {};
template<typename... T>
constexpr auto always_false_v = always_false<T...>::value;
template<typename... T>
struct always_true : std::true_type {};
template<typename... T>
constexpr auto always_true_v = always_true<T...>::value;

template<typename T>
    requires std::is_enum_v<T>
[[nodiscard]] constexpr auto to_underlying(T e) noexcept { return static_cast<std::underlying_type_t<T>>(e); }

using half = half_float::half;
using namespace half_float::literal;

using byte = int8_t;
using ubyte = uint8_t;
using uchar = unsigned char;
using ushort = uint16_t;
using uint = uint32_t;
using ulong = unsigned long long;
using slong = long long;
using canonical_c_long = std::conditional_t<sizeof(long) == sizeof(int), int, slong>;
using canonical_c_ulong = std::conditional_t<sizeof(long) == sizeof(int), uint, ulong>;

template<typename T>
using is_integral = std::disjunction<
    std::is_same<std::remove_cvref_t<T>, int>,
    std::is_same<std::remove_cvref_t<T>, uint>,
    std::is_same<std::remove_cvref_t<T>, long>,
    std::is_same<std::remove_cvref_t<T>, unsigned long>,
    std::is_same<std::remove_cvref_t<T>, long long>,
    std::is_same<std::remove_cvref_t<T>, unsigned long long>,
    std::is_same<std::remove_cvref_t<T>, short>,
    std::is_same<std::remove_cvref_t<T>, ushort>,
    std::is_same<std::remove_cvref_t<T>, char>,
    std::is_same<std::remove_cvref_t<T>, uchar>,
    std::is_same<std::remove_cvref_t<T>, byte>,
    std::is_same<std::remove_cvref_t<T>, ubyte>>;
template<typename T>
constexpr auto is_integral_v = is_integral<T>::value;

template<typename T>
using is_boolean = std::is_same<std::remove_cvref_t<T>, bool>;
template<typename T>
constexpr auto is_boolean_v = is_boolean<T>::value;

template<typename T>
using is_floating_point = std::disjunction<
    std::is_same<std::remove_cvref_t<T>, half>,
    std::is_same<std::remove_cvref_t<T>, float>,
    std::is_same<std::remove_cvref_t<T>, double>>;
template<typename T>
constexpr auto is_floating_point_v = is_floating_point<T>::value;

template<typename T>
using is_signed = std::disjunction<
    is_floating_point<T>,
    std::is_same<std::remove_cvref_t<T>, int>,
    std::is_same<std::remove_cvref_t<T>, long>,
    std::is_same<std::remove_cvref_t<T>, long long>,
    std::is_same<std::remove_cvref_t<T>, short>,
    std::is_same<std::remove_cvref_t<T>, char>,
    std::is_same<std::remove_cvref_t<T>, byte>>;
template<typename T>
constexpr auto is_signed_v = is_signed<T>::value;

template<typename T>
using is_unsigned = std::disjunction<
    std::is_same<std::remove_cvref_t<T>, uint>,
    std::is_same<std::remove_cvref_t<T>, unsigned long>,
    std::is_same<std::remove_cvref_t<T>, unsigned long long>,
    std::is_same<std::remove_cvref_t<T>, ushort>,
    std::is_same<std::remove_cvref_t<T>, uchar>,
    std::is_same<std::remove_cvref_t<T>, ubyte>>;
template<typename T>
constexpr auto is_unsigned_v = is_unsigned<T>::value;

template<typename T>
using is_signed_integral = std::conjunction<is_signed<T>, is_integral<T>>;
template<typename T>
using is_unsigned_integral = std::conjunction<is_unsigned<T>, is_integral<T>>;
template<typename T>
constexpr auto is_signed_integral_v = is_signed_integral<T>::value;
template<typename T>
constexpr auto is_unsigned_integral_v = is_unsigned_integral<T>::value;

template<typename T>
using is_scalar = std::disjunction<is_integral<T>, is_boolean<T>, is_floating_point<T>>;
template<typename T>
constexpr auto is_scalar_v = is_scalar<T>::value;

template<typename T, size_t N>
struct Vector;
template<typename T, size_t N>
struct Matrix;

namespace detail {
template<typename T, size_t N = 0u>
struct is_vector_impl : std::false_type {};
template<typename T, size_t N>
struct is_vector_impl<Vector<T, N>, N> : std::true_type {};
template<typename T, size_t N>
struct is_vector_impl<Vector<T, N>, 0u> : std::true_type {};
template<typename T, size_t N = 0u>
struct is_matrix_impl : std::false_type {};
template<size_t N>
struct is_matrix_impl<Matrix<float, N>, N> : std::true_type {};
template<size_t N>
struct is_matrix_impl<Matrix<float, N>, 0u> : std::true_type {};
template<typename T>
struct vector_element_impl { using type = T; };
template<typename T, size_t N>
struct vector_element_impl<Vector<T, N>> { using type = T; };
template<typename T>
struct matrix_element_impl { using type = T; };
template<typename T, size_t N>
struct matrix_element_impl<Matrix<T, N>> { using type = T; };
template<typename T>
struct vector_dimension_impl { static constexpr auto value = static_cast<size_t>(1u); };
template<typename T, size_t N>
struct vector_dimension_impl<Vector<T, N>> { static constexpr auto value = N; };
template<typename T>
struct matrix_dimension_impl { static constexpr auto value = static_cast<size_t>(1u); };
template<typename T, size_t N>
struct matrix_dimension_impl<Matrix<T, N>> { static constexpr auto value = N; };
template<typename U, typename V>
struct is_vector_same_dimension_impl : std::false_type {};
template<typename U, typename V, size_t N>
struct is_vector_same_dimension_impl<Vector<U, N>, Vector<V, N>> : std::true_type {};
template<typename... T>
struct is_vector_all_same_dimension_impl : std::true_type {};
template<typename First, typename... Other>
struct is_vector_all_same_dimension_impl<First, Other...>
    : std::conjunction<is_vector_same_dimension_impl<First, Other>...> {};
}// namespace detail

template<typename... T>
using is_vector_same_dimension = detail::is_vector_all_same_dimension_impl<std::remove_cvref_t<T>...>;
template<typename... T>
constexpr auto is_vector_same_dimension_v = is_vector_same_dimension<T...>::value;
template<typename T>
using vector_dimension = detail::vector_dimension_impl<std::remove_cvref_t<T>>;
template<typename T>
constexpr auto vector_dimension_v = vector_dimension<T>::value;
template<typename T>
using matrix_dimension = detail::matrix_dimension_impl<std::remove_cvref_t<T>>;
template<typename T>
constexpr auto matrix_dimension_v = matrix_dimension<T>::value;
template<typename T>
using vector_element = detail::vector_element_impl<std::remove_cvref_t<T>>;
template<typename T>
using vector_element_t = typename vector_element<T>::type;
template<typename T>
using matrix_element = detail::matrix_element_impl<std::remove_cvref_t<T>>;
template<typename T>
using matrix_element_t = typename matrix_element<T>::type;

template<typename T, size_t N = 0u>
using is_vector = detail::is_vector_impl<std::remove_cvref_t<T>, N>;
template<typename T>
using is_vector2 = is_vector<T, 2u>;
template<typename T>
using is_vector3 = is_vector<T, 3u>;
template<typename T>
using is_vector4 = is_vector<T, 4u>;
template<typename T, size_t N = 0u>
constexpr auto is_vector_v = is_vector<T, N>::value;
template<typename T>
constexpr auto is_vector2_v = is_vector2<T>::value;
template<typename T>
constexpr auto is_vector3_v = is_vector3<T>::value;
template<typename T>
constexpr auto is_vector4_v = is_vector4<T>::value;

template<typename T>
using is_boolean_vector = std::conjunction<is_vector<T>, is_boolean<vector_element_t<T>>>;
template<typename T>
constexpr auto is_boolean_vector_v = is_boolean_vector<T>::value;
template<typename T>
using is_floating_point_vector = std::conjunction<is_vector<T>, is_floating_point<vector_element_t<T>>>;
template<typename T>
constexpr auto is_floating_point_vector_v = is_floating_point_vector<T>::value;
template<typename T>
using is_integral_vector = std::conjunction<is_vector<T>, is_integral<vector_element_t<T>>>;
template<typename T>
constexpr auto is_integral_vector_v = is_integral_vector<T>::value;
template<typename T>
using is_signed_integral_vector = std::conjunction<is_vector<T>, is_signed_integral<vector_element_t<T>>>;
template<typename T>
constexpr auto is_signed_integral_vector_v = is_signed_integral_vector<T>::value;
template<typename T>
using is_unsigned_integral_vector = std::conjunction<is_vector<T>, is_unsigned_integral<vector_element_t<T>>>;
template<typename T>
constexpr auto is_unsigned_integral_vector_v = is_unsigned_integral_vector<T>::value;
template<typename T>
using is_boolean_or_vector = std::disjunction<is_boolean<T>, is_boolean_vector<T>>;
template<typename T>
constexpr auto is_boolean_or_vector_v = is_boolean_or_vector<T>::value;
template<typename T>
using is_floating_point_or_vector = std::disjunction<is_floating_point<T>, is_floating_point_vector<T>>;
template<typename T>
constexpr auto is_floating_point_or_vector_v = is_floating_point_or_vector<T>::value;
template<typename T>
using is_integral_or_vector = std::disjunction<is_integral<T>, is_integral_vector<T>>;
template<typename T>
constexpr auto is_integral_or_vector_v = is_integral_or_vector<T>::value;
template<typename T>
using is_signed_integral_or_vector = std::disjunction<is_signed_integral<T>, is_signed_integral_vector<T>>;
template<typename T>
constexpr auto is_signed_integral_or_vector_v = is_signed_integral_or_vector<T>::value;
template<typename T>
using is_unsigned_integral_or_vector = std::disjunction<is_unsigned_integral<T>, is_unsigned_integral_vector<T>>;
template<typename T>
constexpr auto is_unsigned_integral_or_vector_v = is_unsigned_integral_or_vector<T>::value;

template<typename T, size_t N = 0u>
using is_matrix = detail::is_matrix_impl<std::remove_cvref_t<T>, N>;
template<typename T>
using is_matrix2 = is_matrix<T, 2u>;
template<typename T>
using is_matrix3 = is_matrix<T, 3u>;
template<typename T>
using is_matrix4 = is_matrix<T, 4u>;
template<typename T, size_t N = 0u>
constexpr auto is_matrix_v = is_matrix<T, N>::value;
template<typename T>
constexpr auto is_matrix2_v = is_matrix2<T>::value;
template<typename T>
constexpr auto is_matrix3_v = is_matrix3<T>::value;
template<typename T>
constexpr auto is_matrix4_v = is_matrix4<T>::value;

template<typename T>
using is_basic = std::disjunction<is_scalar<T>, is_vector<T>, is_matrix<T>>;
template<typename T>
constexpr auto is_basic_v = is_basic<T>::value;

}// namespace luisa
