#pragma once
#include <luisa/core/stl/std_prelude.h>
// kernel-tidy API model of luisa/core/basic_types.h (declarations, stub bodies).
#include <cstddef>
#include <array>
#include <luisa/core/basic_traits.h>

namespace luisa {

namespace detail {

template<typename T, size_t N>
struct vector_alignment {
    static constexpr size_t _a = sizeof(T) * (N == 3 ? 4 : N);
    static constexpr size_t value = _a > 16u ? 16u : _a;
};
template<typename T, size_t N>
static constexpr size_t vector_alignment_v = vector_alignment<T, N>::value;

template<typename T, std::size_t N>
struct VectorStorage {
    static_assert(always_false_v<T>, "Invalid vector storage");
};

template<typename T>
struct alignas(vector_alignment_v<T, 2>) VectorStorage<T, 2> {
    T x, y;
    constexpr VectorStorage() noexcept : x{}, y{} {}
    explicit constexpr VectorStorage(T s) noexcept : x{s}, y{s} {}
    constexpr VectorStorage(T x, T y) noexcept : x{x}, y{y} {}
#include <luisa/core/swizzle_2.inl.h>
};

template<typename T>
struct alignas(vector_alignment_v<T, 3>) VectorStorage<T, 3> {
    T x, y, z;
    constexpr VectorStorage() noexcept : x{}, y{}, z{} {}
    explicit constexpr VectorStorage(T s) noexcept : x{s}, y{s}, z{s} {}
    constexpr VectorStorage(T x, T y, T z) noexcept : x{x}, y{y}, z{z} {}
#include <luisa/core/swizzle_3.inl.h>
};

template<typename T>
struct alignas(vector_alignment_v<T, 4>) VectorStorage<T, 4> {
    T x, y, z, w;
    constexpr VectorStorage() noexcept : x{}, y{}, z{}, w{} {}
    explicit constexpr VectorStorage(T s) noexcept : x{s}, y{s}, z{s}, w{s} {}
    constexpr VectorStorage(T x, T y, T z, T w) noexcept : x{x}, y{y}, z{z}, w{w} {}
#include <luisa/core/swizzle_4.inl.h>
};

}// namespace detail

template<typename T, std::size_t N>
struct Vector : public detail::VectorStorage<T, N> {
    using value_type = T;
    using size_type = std::size_t;
    using reference = value_type &;
    using const_reference = const value_type &;
    using Storage = detail::VectorStorage<value_type, N>;
    using Storage::VectorStorage;
    static_assert(is_scalar_v<value_type>, "Invalid vector type");
    static_assert(N == 2 || N == 3 || N == 4, "Invalid vector dimension");
    static constexpr size_type dimension{N};
    static Vector<value_type, N> zero() noexcept { return {}; }
    static Vector<value_type, N> one() noexcept { return Vector{static_cast<value_type>(1)}; }
    [[nodiscard]] constexpr reference operator[](size_type index) noexcept { return (&(this->x))[index]; }
    [[nodiscard]] constexpr const_reference operator[](size_type index) const noexcept { return (&(this->x))[index]; }
};

#define LUISA_MAKE_VECTOR_TYPES(T) \
    using T##2 = Vector<T, 2>;     \
    using T##3 = Vector<T, 3>;     \
    using T##4 = Vector<T, 4>;
LUISA_MAKE_VECTOR_TYPES(bool)
LUISA_MAKE_VECTOR_TYPES(short)
LUISA_MAKE_VECTOR_TYPES(ushort)
LUISA_MAKE_VECTOR_TYPES(byte)
LUISA_MAKE_VECTOR_TYPES(ubyte)
LUISA_MAKE_VECTOR_TYPES(int)
LUISA_MAKE_VECTOR_TYPES(uint)
LUISA_MAKE_VECTOR_TYPES(ulong)
LUISA_MAKE_VECTOR_TYPES(slong)
LUISA_MAKE_VECTOR_TYPES(half)
LUISA_MAKE_VECTOR_TYPES(float)
LUISA_MAKE_VECTOR_TYPES(double)
#undef LUISA_MAKE_VECTOR_TYPES

template<typename T, size_t N>
struct Matrix {
    static_assert(always_false_v<std::integral_constant<size_t, N>>, "Invalid matrix type");
};

template<typename T>
struct Matrix<T, 2> {
    using VectorType = Vector<T, 2>;
    using ElementType = T;
    VectorType cols[2];
    constexpr Matrix() noexcept : cols{} {}
    constexpr Matrix(const VectorType c0, const VectorType c1) noexcept : cols{c0, c1} {}
    static constexpr Matrix eye(const T) noexcept { return {}; }
    static constexpr Matrix fill(const T) noexcept { return {}; }
    [[nodiscard]] constexpr VectorType &operator[](size_t i) noexcept { return cols[i]; }
    [[nodiscard]] constexpr const VectorType &operator[](size_t i) const noexcept { return cols[i]; }
};

template<typename T>
struct Matrix<T, 3> {
    using VectorType = Vector<T, 3>;
    using ElementType = T;
    VectorType cols[3];
    constexpr Matrix() noexcept : cols{} {}
    constexpr Matrix(const VectorType c0, const VectorType c1, const VectorType c2) noexcept : cols{c0, c1, c2} {}
    static constexpr Matrix eye(const T) noexcept { return {}; }
    static constexpr Matrix fill(const T) noexcept { return {}; }
    [[nodiscard]] constexpr VectorType &operator[](size_t i) noexcept { return cols[i]; }
    [[nodiscard]] constexpr const VectorType &operator[](size_t i) const noexcept { return cols[i]; }
};

template<typename T>
struct Matrix<T, 4> {
    using VectorType = Vector<T, 4>;
    using ElementType = T;
    VectorType cols[4];
    constexpr Matrix() noexcept : cols{} {}
    constexpr Matrix(const VectorType c0, const VectorType c1, const VectorType c2, const VectorType c3) noexcept : cols{c0, c1, c2, c3} {}
    static constexpr Matrix eye(const T) noexcept { return {}; }
    static constexpr Matrix fill(const T) noexcept { return {}; }
    [[nodiscard]] constexpr VectorType &operator[](size_t i) noexcept { return cols[i]; }
    [[nodiscard]] constexpr const VectorType &operator[](size_t i) const noexcept { return cols[i]; }
};

using float2x2 = Matrix<float, 2>;
using float3x3 = Matrix<float, 3>;
using float4x4 = Matrix<float, 4>;
using double2x2 = Matrix<double, 2>;
using double3x3 = Matrix<double, 3>;
using double4x4 = Matrix<double, 4>;
using half2x2 = Matrix<half, 2>;
using half3x3 = Matrix<half, 3>;
using half4x4 = Matrix<half, 4>;

[[nodiscard]] constexpr bool any(const bool2 v) noexcept { return v.x || v.y; }
[[nodiscard]] constexpr bool any(const bool3 v) noexcept { return v.x || v.y || v.z; }
[[nodiscard]] constexpr bool any(const bool4 v) noexcept { return v.x || v.y || v.z || v.w; }
[[nodiscard]] constexpr bool all(const bool2 v) noexcept { return v.x && v.y; }
[[nodiscard]] constexpr bool all(const bool3 v) noexcept { return v.x && v.y && v.z; }
[[nodiscard]] constexpr bool all(const bool4 v) noexcept { return v.x && v.y && v.z && v.w; }
[[nodiscard]] constexpr bool none(const bool2 v) noexcept { return !any(v); }
[[nodiscard]] constexpr bool none(const bool3 v) noexcept { return !any(v); }
[[nodiscard]] constexpr bool none(const bool4 v) noexcept { return !any(v); }

}// namespace luisa

// host vector operators (global namespace, as in the real header)
template<typename T, size_t N, std::enable_if_t<std::negation_v<luisa::is_boolean<T>>, int> = 0>
[[nodiscard]] constexpr auto operator+(const luisa::Vector<T, N> v) noexcept { return v; }
template<typename T, size_t N, std::enable_if_t<std::negation_v<luisa::is_boolean<T>>, int> = 0>
[[nodiscard]] constexpr auto operator-(const luisa::Vector<T, N> v) noexcept { return v; }
template<typename T, size_t N>
[[nodiscard]] constexpr auto operator!(const luisa::Vector<T, N>) noexcept { return luisa::Vector<bool, N>{}; }
template<typename T, size_t N, std::enable_if_t<luisa::is_integral_v<T>, int> = 0>
[[nodiscard]] constexpr auto operator~(const luisa::Vector<T, N> v) noexcept { return v; }

#define LUISA_MAKE_VECTOR_BINARY_OPERATOR(op, ...)                                                         \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    [[nodiscard]] constexpr auto operator op(luisa::Vector<T, N> lhs, luisa::Vector<T, N>) noexcept {      \
        return lhs;                                                                                        \
    }                                                                                                      \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    [[nodiscard]] constexpr auto operator op(luisa::Vector<T, N> lhs, T) noexcept { return lhs; }          \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    [[nodiscard]] constexpr auto operator op(T, luisa::Vector<T, N> rhs) noexcept { return rhs; }
LUISA_MAKE_VECTOR_BINARY_OPERATOR(+, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(-, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(*, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(/, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(%, luisa::is_integral_v<T>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(<<, luisa::is_integral_v<T>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(>>, luisa::is_integral_v<T>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(|, std::negation_v<luisa::is_floating_point<T>>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(&, std::negation_v<luisa::is_floating_point<T>>)
LUISA_MAKE_VECTOR_BINARY_OPERATOR(^, std::negation_v<luisa::is_floating_point<T>>)
#undef LUISA_MAKE_VECTOR_BINARY_OPERATOR

#define LUISA_MAKE_VECTOR_LOGIC_OPERATOR(op, ...)                                                          \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    [[nodiscard]] constexpr auto operator op(luisa::Vector<T, N>, luisa::Vector<T, N>) noexcept {          \
        return luisa::Vector<bool, N>{};                                                                   \
    }                                                                                                      \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    [[nodiscard]] constexpr auto operator op(luisa::Vector<T, N>, T) noexcept { return luisa::Vector<bool, N>{}; } \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    [[nodiscard]] constexpr auto operator op(T, luisa::Vector<T, N>) noexcept { return luisa::Vector<bool, N>{}; }
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(||, luisa::is_boolean_v<T>)
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(&&, luisa::is_boolean_v<T>)
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(==, true)
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(!=, true)
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(<, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(>, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(<=, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_LOGIC_OPERATOR(>=, std::negation_v<luisa::is_boolean<T>>)
#undef LUISA_MAKE_VECTOR_LOGIC_OPERATOR

#define LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(op, ...)                                                         \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    constexpr decltype(auto) operator op(luisa::Vector<T, N> &lhs, luisa::Vector<T, N>) noexcept { return (lhs); } \
    template<typename T, size_t N, std::enable_if_t<__VA_ARGS__, int> = 0>                                 \
    constexpr decltype(auto) operator op(luisa::Vector<T, N> &lhs, T) noexcept { return (lhs); }
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(+=, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(-=, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(*=, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(/=, std::negation_v<luisa::is_boolean<T>>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(%=, luisa::is_integral_v<T>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(<<=, luisa::is_integral_v<T>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(>>=, luisa::is_integral_v<T>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(|=, std::negation_v<luisa::is_floating_point<T>>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(&=, std::negation_v<luisa::is_floating_point<T>>)
LUISA_MAKE_VECTOR_ASSIGN_OPERATOR(^=, std::negation_v<luisa::is_floating_point<T>>)
#undef LUISA_MAKE_VECTOR_ASSIGN_OPERATOR

#define LUISA_MAKE_MATRIX_OPERATORS(M, V, S)                                                           \
    template<int = 0> [[nodiscard]] constexpr auto operator*(const luisa::M m, S) noexcept { return m; }                 \
    template<int = 0> [[nodiscard]] constexpr auto operator*(S, const luisa::M m) noexcept { return m; }                 \
    template<int = 0> [[nodiscard]] constexpr auto operator/(const luisa::M m, S) noexcept { return m; }                 \
    template<int = 0> [[nodiscard]] constexpr auto operator*(const luisa::M, const luisa::V v) noexcept { return v; }    \
    template<int = 0> [[nodiscard]] constexpr auto operator*(const luisa::M lhs, const luisa::M) noexcept { return lhs; } \
    template<int = 0> [[nodiscard]] constexpr auto operator+(const luisa::M lhs, const luisa::M) noexcept { return lhs; } \
    template<int = 0> [[nodiscard]] constexpr auto operator-(const luisa::M lhs, const luisa::M) noexcept { return lhs; }
LUISA_MAKE_MATRIX_OPERATORS(float2x2, float2, float)
LUISA_MAKE_MATRIX_OPERATORS(float3x3, float3, float)
LUISA_MAKE_MATRIX_OPERATORS(float4x4, float4, float)
LUISA_MAKE_MATRIX_OPERATORS(double2x2, double2, double)
LUISA_MAKE_MATRIX_OPERATORS(double3x3, double3, double)
LUISA_MAKE_MATRIX_OPERATORS(double4x4, double4, double)
#undef LUISA_MAKE_MATRIX_OPERATORS

namespace luisa {

// make_typeN (model: declared as `template<int = 0>` so that bodies are instantiated lazily)
#define LUISA_MAKE_TYPE_N(type)                                                                               \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##2(type s = {}) noexcept { return Vector<type, 2u + I * 0u>{s, s}; }               \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##2(type x, type y) noexcept { return Vector<type, 2u + I * 0u>{x, y}; }            \
    template<typename T, size_t N>                                                                            \
    [[nodiscard]] constexpr auto make_##type##2(Vector<T, N> v) noexcept { return Vector<type, 2u + N * 0u>{}; }                \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##3(type s = {}) noexcept { return Vector<type, 3u + I * 0u>{s, s, s}; }            \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##3(type x, type y, type z) noexcept { return Vector<type, 3u + I * 0u>{x, y, z}; } \
    template<typename T, size_t N>                                                                            \
    [[nodiscard]] constexpr auto make_##type##3(Vector<T, N> v) noexcept { return Vector<type, 3u + N * 0u>{}; }                \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##3(type##2 v, type z) noexcept { return Vector<type, 3u + I * 0u>{}; }             \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##3(type x, type##2 v) noexcept { return Vector<type, 3u + I * 0u>{}; }             \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type s = {}) noexcept { return Vector<type, 4u + I * 0u>{s, s, s, s}; }         \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type x, type y, type z, type w) noexcept { return Vector<type, 4u + I * 0u>{x, y, z, w}; } \
    template<typename T, size_t N>                                                                            \
    [[nodiscard]] constexpr auto make_##type##4(Vector<T, N> v) noexcept { return Vector<type, 4u + N * 0u>{}; }                \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type##2 v, type z, type w) noexcept { return Vector<type, 4u + I * 0u>{}; }     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type x, type##2 yz, type w) noexcept { return Vector<type, 4u + I * 0u>{}; }    \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type x, type y, type##2 zw) noexcept { return Vector<type, 4u + I * 0u>{}; }    \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type##2 xy, type##2 zw) noexcept { return Vector<type, 4u + I * 0u>{}; }        \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type##3 v, type w) noexcept { return Vector<type, 4u + I * 0u>{}; }             \
    template<int I = 0> [[nodiscard]] constexpr auto make_##type##4(type x, type##3 yzw) noexcept { return Vector<type, 4u + I * 0u>{}; }
LUISA_MAKE_TYPE_N(byte)
LUISA_MAKE_TYPE_N(ubyte)
LUISA_MAKE_TYPE_N(bool)
LUISA_MAKE_TYPE_N(float)
LUISA_MAKE_TYPE_N(int)
LUISA_MAKE_TYPE_N(uint)
LUISA_MAKE_TYPE_N(short)
LUISA_MAKE_TYPE_N(ushort)
LUISA_MAKE_TYPE_N(slong)
LUISA_MAKE_TYPE_N(ulong)
LUISA_MAKE_TYPE_N(half)
LUISA_MAKE_TYPE_N(double)
#undef LUISA_MAKE_TYPE_N

#define LUISA_MAKE_MATRIX_N(T)                                                                          \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##2x2(T s = 1) noexcept { return Matrix<T, 2u + I * 0u>{}; }                    \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##2x2(T m00, T m01, T m10, T m11) noexcept { return Matrix<T, 2u + I * 0u>{}; } \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##2x2(T##2 c0, T##2 c1) noexcept { return Matrix<T, 2u + I * 0u>{c0, c1}; }     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##2x2(T##2x2 m) noexcept { return Matrix<T, decltype(m)::VectorType::dimension + I * 0u>{}; }                          \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##2x2(T##3x3) noexcept { return Matrix<T, 2u + I * 0u>{}; }                     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##2x2(T##4x4) noexcept { return Matrix<T, 2u + I * 0u>{}; }                     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##3x3(T s = 1) noexcept { return Matrix<T, 3u + I * 0u>{}; }                    \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##3x3(T##3 c0, T##3 c1, T##3 c2) noexcept { return Matrix<T, 3u + I * 0u>{c0, c1, c2}; } \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##3x3(T m00, T m01, T m02, T m10, T m11, T m12,                \
                                               T m20, T m21, T m22) noexcept { return Matrix<T, 3u + I * 0u>{}; }        \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##3x3(T##2x2) noexcept { return Matrix<T, 3u + I * 0u>{}; }                     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##3x3(T##3x3 m) noexcept { return Matrix<T, decltype(m)::VectorType::dimension + I * 0u>{}; }                          \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##3x3(T##4x4) noexcept { return Matrix<T, 3u + I * 0u>{}; }                     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##4x4(T s = 1) noexcept { return Matrix<T, 4u + I * 0u>{}; }                    \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##4x4(T##4 c0, T##4 c1, T##4 c2, T##4 c3) noexcept { return Matrix<T, 4u + I * 0u>{c0, c1, c2, c3}; } \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##4x4(T m00, T m01, T m02, T m03, T m10, T m11, T m12, T m13,  \
                                               T m20, T m21, T m22, T m23,                               \
                                               T m30, T m31, T m32, T m33) noexcept { return Matrix<T, 4u + I * 0u>{}; } \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##4x4(T##2x2) noexcept { return Matrix<T, 4u + I * 0u>{}; }                     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##4x4(T##3x3) noexcept { return Matrix<T, 4u + I * 0u>{}; }                     \
    template<int I = 0> [[nodiscard]] constexpr auto make_##T##4x4(T##4x4 m) noexcept { return Matrix<T, decltype(m)::VectorType::dimension + I * 0u>{}; }
LUISA_MAKE_MATRIX_N(float)
LUISA_MAKE_MATRIX_N(double)
LUISA_MAKE_MATRIX_N(half)
#undef LUISA_MAKE_MATRIX_N

}// namespace luisa
