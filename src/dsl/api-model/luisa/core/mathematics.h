#pragma once
// kernel-tidy API model of luisa/core/mathematics.h (host math).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <luisa/core/basic_types.h>
#include <luisa/core/constants.h>

namespace luisa {

// Scalar host math is the standard library's, as in the real header (using-declarations,
// not overloads of its own: `ceil(int)` or `abs(int)` next to <cmath>/<cstdlib> must find
// the one std function, not an ambiguous pair).
using std::acos;
using std::asin;
using std::atan;
using std::atan2;
using std::cos;
using std::sin;
using std::tan;
using std::fma;
using std::sqrt;
using std::ceil;
using std::floor;
using std::fmod;
using std::round;
using std::exp;
using std::exp2;
using std::log;
using std::log10;
using std::log2;
using std::pow;
using std::abs;
using std::max;
using std::min;

template<typename T, std::enable_if_t<std::is_unsigned_v<T> && (sizeof(T) == 4u || sizeof(T) == 8u), int> = 0>
[[nodiscard]] constexpr auto next_pow2(T v) noexcept { return v; }
[[nodiscard]] inline auto fract(float x) noexcept { return x; }
[[nodiscard]] constexpr float radians(float deg) noexcept { return deg; }
[[nodiscard]] constexpr float degrees(float rad) noexcept { return rad; }

#define LUISA_MAKE_VECTOR_UNARY_FUNC(func)                                \
    [[nodiscard]] inline auto func(float2 v) noexcept { return v; }       \
    [[nodiscard]] inline auto func(float3 v) noexcept { return v; }       \
    [[nodiscard]] inline auto func(float4 v) noexcept { return v; }       \
    [[nodiscard]] inline auto func(double2 v) noexcept { return v; }      \
    [[nodiscard]] inline auto func(double3 v) noexcept { return v; }      \
    [[nodiscard]] inline auto func(double4 v) noexcept { return v; }
LUISA_MAKE_VECTOR_UNARY_FUNC(acos)
LUISA_MAKE_VECTOR_UNARY_FUNC(asin)
LUISA_MAKE_VECTOR_UNARY_FUNC(atan)
LUISA_MAKE_VECTOR_UNARY_FUNC(cos)
LUISA_MAKE_VECTOR_UNARY_FUNC(sin)
LUISA_MAKE_VECTOR_UNARY_FUNC(tan)
LUISA_MAKE_VECTOR_UNARY_FUNC(sqrt)
LUISA_MAKE_VECTOR_UNARY_FUNC(ceil)
LUISA_MAKE_VECTOR_UNARY_FUNC(floor)
LUISA_MAKE_VECTOR_UNARY_FUNC(fract)
LUISA_MAKE_VECTOR_UNARY_FUNC(round)
LUISA_MAKE_VECTOR_UNARY_FUNC(exp)
LUISA_MAKE_VECTOR_UNARY_FUNC(exp2)
LUISA_MAKE_VECTOR_UNARY_FUNC(log)
LUISA_MAKE_VECTOR_UNARY_FUNC(log10)
LUISA_MAKE_VECTOR_UNARY_FUNC(log2)
LUISA_MAKE_VECTOR_UNARY_FUNC(radians)
LUISA_MAKE_VECTOR_UNARY_FUNC(degrees)
#undef LUISA_MAKE_VECTOR_UNARY_FUNC

// sign: -1, 0 or 1 per component, of float, double and int scalars and vectors.
[[nodiscard]] constexpr auto sign(float x) noexcept { return static_cast<float>(x > 0.0f) - static_cast<float>(x < 0.0f); }
[[nodiscard]] constexpr auto sign(double x) noexcept { return static_cast<double>(x > 0.0) - static_cast<double>(x < 0.0); }
[[nodiscard]] constexpr auto sign(int x) noexcept { return static_cast<int>(x > 0) - static_cast<int>(x < 0); }
#define LUISA_MAKE_VECTOR_SIGN(T)                                          \
    [[nodiscard]] constexpr auto sign(T##2 v) noexcept { return v; }       \
    [[nodiscard]] constexpr auto sign(T##3 v) noexcept { return v; }       \
    [[nodiscard]] constexpr auto sign(T##4 v) noexcept { return v; }
LUISA_MAKE_VECTOR_SIGN(float)
LUISA_MAKE_VECTOR_SIGN(double)
LUISA_MAKE_VECTOR_SIGN(int)
#undef LUISA_MAKE_VECTOR_SIGN

template<typename T>
[[nodiscard]] inline auto abs(Vector<T, 2> v) noexcept { return v; }
template<typename T>
[[nodiscard]] inline auto abs(Vector<T, 3> v) noexcept { return v; }
template<typename T>
[[nodiscard]] inline auto abs(Vector<T, 4> v) noexcept { return v; }

#define LUISA_MAKE_VECTOR_BINARY_FUNC(func)                                                 \
    template<typename T>                                                                    \
    [[nodiscard]] constexpr auto func(Vector<T, 2> v, Vector<T, 2>) noexcept { return v; }  \
    template<typename T>                                                                    \
    [[nodiscard]] constexpr auto func(Vector<T, 3> v, Vector<T, 3>) noexcept { return v; }  \
    template<typename T>                                                                    \
    [[nodiscard]] constexpr auto func(Vector<T, 4> v, Vector<T, 4>) noexcept { return v; }
LUISA_MAKE_VECTOR_BINARY_FUNC(atan2)
LUISA_MAKE_VECTOR_BINARY_FUNC(pow)
LUISA_MAKE_VECTOR_BINARY_FUNC(min)
LUISA_MAKE_VECTOR_BINARY_FUNC(max)
LUISA_MAKE_VECTOR_BINARY_FUNC(fmod)
#undef LUISA_MAKE_VECTOR_BINARY_FUNC

[[nodiscard]] inline bool isnan(float) noexcept { return false; }
[[nodiscard]] inline bool isnan(double) noexcept { return false; }
[[nodiscard]] inline bool isinf(float) noexcept { return false; }
[[nodiscard]] inline bool isinf(double) noexcept { return false; }
template<size_t N>
[[nodiscard]] inline auto isnan(Vector<float, N>) noexcept { return Vector<bool, N>{}; }
template<size_t N>
[[nodiscard]] inline auto isinf(Vector<float, N>) noexcept { return Vector<bool, N>{}; }

template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto min(T, Vector<T, 2> u) noexcept { return u; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto min(T, Vector<T, 3> u) noexcept { return u; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto min(T, Vector<T, 4> u) noexcept { return u; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto min(Vector<T, 2> v, T) noexcept { return v; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto min(Vector<T, 3> v, T) noexcept { return v; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto min(Vector<T, 4> v, T) noexcept { return v; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto max(T, Vector<T, 2> u) noexcept { return u; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto max(T, Vector<T, 3> u) noexcept { return u; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto max(T, Vector<T, 4> u) noexcept { return u; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto max(Vector<T, 2> v, T) noexcept { return v; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto max(Vector<T, 3> v, T) noexcept { return v; }
template<typename T, std::enable_if_t<is_scalar_v<T>, int> = 0>
[[nodiscard]] constexpr auto max(Vector<T, 4> v, T) noexcept { return v; }

template<typename T, std::enable_if_t<std::disjunction_v<is_scalar<T>, is_vector<T>>, int> = 0>
[[nodiscard]] constexpr auto select(T f, T, bool) noexcept { return f; }
template<typename T, size_t N>
[[nodiscard]] constexpr auto select(Vector<T, N> f, Vector<T, N>, Vector<bool, N>) noexcept { return f; }
template<typename A, typename B, typename T,
         std::enable_if_t<std::conjunction_v<std::disjunction<is_scalar<A>, is_vector<A>>,
                                             std::disjunction<is_scalar<B>, is_vector<B>>,
                                             std::disjunction<is_scalar<T>, is_vector<T>>>, int> = 0>
[[nodiscard]] constexpr auto lerp(A a, B b, T t) noexcept { return a + (b - a) * t; }
template<typename X, typename A, typename B,
         std::enable_if_t<std::conjunction_v<std::disjunction<is_scalar<X>, is_vector<X>>,
                                             std::disjunction<is_scalar<A>, is_vector<A>>,
                                             std::disjunction<is_scalar<B>, is_vector<B>>>, int> = 0>
[[nodiscard]] constexpr auto clamp(X x, A, B) noexcept { return x; }

[[nodiscard]] constexpr float dot(float2, float2) noexcept { return 0.f; }
[[nodiscard]] constexpr float dot(float3, float3) noexcept { return 0.f; }
[[nodiscard]] constexpr float dot(float4, float4) noexcept { return 0.f; }
template<size_t N>
[[nodiscard]] constexpr float length(Vector<float, N>) noexcept { return 0.f; }
template<size_t N>
[[nodiscard]] constexpr float distance(Vector<float, N>, Vector<float, N>) noexcept { return 0.f; }
template<size_t N>
[[nodiscard]] constexpr auto normalize(Vector<float, N> u) noexcept { return u; }
[[nodiscard]] constexpr float3 cross(float3 u, float3) noexcept { return u; }
[[nodiscard]] constexpr float2x2 transpose(const float2x2 m) noexcept { return m; }
[[nodiscard]] constexpr float3x3 transpose(const float3x3 m) noexcept { return m; }
[[nodiscard]] constexpr float4x4 transpose(const float4x4 m) noexcept { return m; }
[[nodiscard]] constexpr float2x2 inverse(const float2x2 m) noexcept { return m; }
[[nodiscard]] constexpr float3x3 inverse(const float3x3 m) noexcept { return m; }
[[nodiscard]] constexpr float4x4 inverse(const float4x4 m) noexcept { return m; }
[[nodiscard]] constexpr float determinant(const float2x2) noexcept { return 0.f; }
[[nodiscard]] constexpr float determinant(const float3x3) noexcept { return 0.f; }
[[nodiscard]] constexpr float determinant(const float4x4) noexcept { return 0.f; }
[[nodiscard]] constexpr float4x4 translation(const float3) noexcept { return {}; }
[[nodiscard]] constexpr float4x4 scaling(const float3) noexcept { return {}; }
[[nodiscard]] constexpr float4x4 scaling(float) noexcept { return {}; }
[[nodiscard]] inline float4x4 rotation(const float3, float) noexcept { return {}; }

}// namespace luisa
