#pragma once
// kernel-tidy API model of luisa/dsl/builtin.h: same names, template heads and requires-clauses
// as the real builtins (in inline namespace luisa::compute::dsl); bodies return stub Vars of the
// real result types.
#include <luisa/core/stl/string.h>
#include <luisa/dsl/expr.h>
#include <luisa/dsl/var.h>
#include <luisa/dsl/operators.h>

namespace luisa::compute {

enum struct CurveBasis : uint32_t { PIECEWISE_LINEAR, CUBIC_BSPLINE, CATMULL_ROM, BEZIER };
class CurveBasisSet {
public:
    constexpr CurveBasisSet() noexcept = default;
};

inline namespace dsl {

template<typename Dest, typename Src>
    requires is_dsl_v<Src>
[[nodiscard]] inline auto cast(Src &&s) noexcept {
    Expr expr{std::forward<Src>(s)};
    return expr.template cast<expr_value_t<Dest>>();
}

template<typename Dest, typename Src>
    requires std::negation_v<is_dsl<Src>>
[[nodiscard]] inline auto cast(Src &&s) noexcept {
    return static_cast<Dest>(std::forward<Src>(s));
}

template<typename Dest, typename Src>
    requires is_dsl_v<Src>
[[nodiscard]] inline auto as(Src &&s) noexcept {
    Expr expr{std::forward<Src>(s)};
    return expr.template as<Dest>();
}

template<typename Dest, typename Src>
    requires std::negation_v<is_dsl<Src>>
[[nodiscard]] inline auto as(Src &&s) noexcept {
    return __builtin_bit_cast(Dest, s);
}

inline void assume(Expr<bool> pred) noexcept {}
inline void unreachable() noexcept {}
inline void unreachable(luisa::string_view msg) noexcept {}
inline Var<ulong> device_clock() noexcept { return Var<ulong>{detail::model_expression()}; }
inline void device_assert(Expr<bool> pred) noexcept {}
inline void device_assert(Expr<bool> pred, luisa::string_view msg) noexcept {}

[[nodiscard]] inline const auto thread_id() noexcept { return Var<uint3>{detail::model_expression()}; }
[[nodiscard]] inline auto thread_x() noexcept { return thread_id().x; }
[[nodiscard]] inline auto thread_y() noexcept { return thread_id().y; }
[[nodiscard]] inline auto thread_z() noexcept { return thread_id().z; }
[[nodiscard]] inline const auto block_id() noexcept { return Var<uint3>{detail::model_expression()}; }
[[nodiscard]] inline auto block_x() noexcept { return block_id().x; }
[[nodiscard]] inline auto block_y() noexcept { return block_id().y; }
[[nodiscard]] inline auto block_z() noexcept { return block_id().z; }
[[nodiscard]] inline const auto dispatch_id() noexcept { return Var<uint3>{detail::model_expression()}; }
[[nodiscard]] inline auto kernel_id() noexcept { return Var<uint>{detail::model_expression()}; }
[[nodiscard]] inline auto warp_lane_count() noexcept { return Var<uint>{detail::model_expression()}; }
[[nodiscard]] inline auto warp_lane_id() noexcept { return Var<uint>{detail::model_expression()}; }
[[nodiscard]] inline auto dispatch_x() noexcept { return dispatch_id().x; }
[[nodiscard]] inline auto dispatch_y() noexcept { return dispatch_id().y; }
[[nodiscard]] inline auto dispatch_z() noexcept { return dispatch_id().z; }
[[nodiscard]] inline const auto dispatch_size() noexcept { return Var<uint3>{detail::model_expression()}; }
[[nodiscard]] inline auto dispatch_size_x() noexcept { return dispatch_size().x; }
[[nodiscard]] inline auto dispatch_size_y() noexcept { return dispatch_size().y; }
[[nodiscard]] inline auto dispatch_size_z() noexcept { return dispatch_size().z; }
[[nodiscard]] inline const auto block_size() noexcept { return Var<uint3>{detail::model_expression()}; }
[[nodiscard]] inline auto block_size_x() noexcept { return block_size().x; }
[[nodiscard]] inline auto block_size_y() noexcept { return block_size().y; }
[[nodiscard]] inline auto block_size_z() noexcept { return block_size().z; }

inline void set_block_size(uint x, uint y = 1u, uint z = 1u) noexcept {}
inline void set_warp_size(uint8_t warp_size) noexcept {}
inline void set_block_size(uint3 size) noexcept {}
inline void set_block_size(uint2 size) noexcept {}
inline void set_name(luisa::string_view name) noexcept {}
inline void require_curve_basis(CurveBasis basis) noexcept {}
inline void require_curve_basis_set(CurveBasisSet bs) noexcept {}
template<typename... T>
    requires std::conjunction_v<std::is_same<T, CurveBasis>...>
inline void require_curve_basis(T... basis) noexcept {}

}// namespace dsl

inline namespace dsl {

/// Define a var of type T and construct params args
template<typename T, typename... Args>
    requires std::negation_v<std::disjunction<std::is_pointer<std::remove_cvref_t<Args>>...>>
[[nodiscard]] auto def(Args &&...args) noexcept {
    return Var<expr_value_t<T>>{std::forward<Args>(args)...};
}

/// Define a var using rvalue
template<typename T>
[[nodiscard]] auto def(T &&x) noexcept -> Var<expr_value_t<T>> {
    return Var{Expr{std::forward<T>(x)}};
}

/// Define a var using expression
template<typename T>
[[nodiscard]] auto def(const Expression *expr) noexcept -> Var<expr_value_t<T>> {
    return Var<expr_value_t<T>>{expr};
}

}// namespace dsl

namespace detail {

template<typename T, size_t N>
struct vectorized { using type = Vector<T, N>; };
template<typename T>
struct vectorized<T, 1u> { using type = T; };
template<typename T, size_t N>
using vectorized_t = typename vectorized<T, N>::type;

template<typename... T>
struct vectorized_dimension { static constexpr size_t value = 0u; };
template<typename T>
struct vectorized_dimension<T> { static constexpr auto value = vector_expr_dimension_v<T>; };
template<typename First, typename... Other>
struct vectorized_dimension<First, Other...> {
    static constexpr auto value =
        vector_expr_dimension_v<First> > vectorized_dimension<Other...>::value ?
            vector_expr_dimension_v<First> :
            vectorized_dimension<Other...>::value;
};
template<typename... T>
constexpr auto vectorized_dimension_v = vectorized_dimension<T...>::value;

template<size_t max, typename T>
using is_dimension_compatible = std::disjunction<
    std::bool_constant<vector_expr_dimension_v<T> == max>,
    std::bool_constant<vector_expr_dimension_v<T> == 1u>>;

template<typename... T>
concept vector_expr_compatible = std::conjunction<
    is_dimension_compatible<vectorized_dimension_v<T...>, T>...>::value;

template<typename Scalar, typename... T>
    requires vector_expr_compatible<T...>
[[nodiscard]] inline auto make_vector_call(CallOp op, T &&...x) noexcept {
    constexpr auto N = vectorized_dimension_v<T...>;
    using V = vectorized_t<Scalar, N>;
    return dsl::def<V>(model_expression());
}

#define LUISA_MODEL_RET(...) return dsl::def<__VA_ARGS__>(model_expression())
/// model helper: a stub Var<T>, instantiated only once Dep is known (keeps parsing lazy)
template<typename T, typename Dep>
[[nodiscard]] inline auto model_def() noexcept { return dsl::def<T>(model_expression()); }

template<typename Ts>
    requires is_dsl_v<Ts> && is_scalar_expr_v<Ts>
[[nodiscard]] inline auto make_vector2(Ts &&s) noexcept { return detail::model_def<Vector<expr_value_t<Ts>, 2>, Ts>(); }
template<typename Tx, typename Ty>
    requires any_dsl_v<Tx, Ty> && is_scalar_expr_v<Tx> && is_scalar_expr_v<Ty> && is_same_expr_v<Tx, Ty>
[[nodiscard]] inline auto make_vector2(Tx &&x, Ty &&y) noexcept { return detail::model_def<Vector<expr_value_t<Tx>, 2>, Tx>(); }
template<typename T, typename Tv>
    requires is_dsl_v<Tv> && is_vector_expr_v<Tv>
[[nodiscard]] inline auto make_vector2(Tv &&v) noexcept { return detail::model_def<Vector<T, 2>, T>(); }
template<typename Ts>
    requires is_dsl_v<Ts> && is_scalar_expr_v<Ts>
[[nodiscard]] inline auto make_vector3(Ts &&s) noexcept { return detail::model_def<Vector<expr_value_t<Ts>, 3>, Ts>(); }
template<typename Ts>
    requires is_dsl_v<Ts> && is_scalar_expr_v<Ts>
[[nodiscard]] inline auto make_vector4(Ts &&s) noexcept { return detail::model_def<Vector<expr_value_t<Ts>, 4>, Ts>(); }

#undef LUISA_MODEL_RET
}// namespace detail

inline namespace dsl {

using namespace luisa;

using luisa::make_bool2;
using luisa::make_float2;
using luisa::make_half2;
using luisa::make_double2;
using luisa::make_int2;
using luisa::make_short2;
using luisa::make_slong2;
using luisa::make_uint2;
using luisa::make_ulong2;
using luisa::make_ushort2;
using luisa::make_bool3;
using luisa::make_float3;
using luisa::make_half3;
using luisa::make_double3;
using luisa::make_int3;
using luisa::make_short3;
using luisa::make_slong3;
using luisa::make_uint3;
using luisa::make_ulong3;
using luisa::make_ushort3;
using luisa::make_bool4;
using luisa::make_float4;
using luisa::make_half4;
using luisa::make_double4;
using luisa::make_int4;
using luisa::make_short4;
using luisa::make_slong4;
using luisa::make_uint4;
using luisa::make_ulong4;
using luisa::make_ushort4;
using luisa::make_float2x2;
using luisa::make_float3x3;
using luisa::make_float4x4;
using luisa::make_half2x2;
using luisa::make_half3x3;
using luisa::make_half4x4;
using luisa::make_double2x2;
using luisa::make_double3x3;
using luisa::make_double4x4;

#define LUISA_MODEL_RET(...) return def<__VA_ARGS__>(detail::model_expression())
#define LUISA_MAKE_VECTOR(type)                                                             \
    template<typename S>                                                                    \
        requires is_dsl_v<S> && is_same_expr_v<S, type>                                     \
    [[nodiscard]] inline auto make_##type##2(S && s) noexcept { return detail::model_def<type##2, S>(); } \
    template<typename X, typename Y>                                                        \
        requires any_dsl_v<X, Y> && is_same_expr_v<X, type> && is_same_expr_v<Y, type>     \
    [[nodiscard]] inline auto make_##type##2(X && x, Y && y) noexcept { return detail::model_def<type##2, X>(); } \
    template<typename V>                                                                    \
        requires is_dsl_v<V> && is_same_expr_v<V, type##3>                                  \
    [[nodiscard]] inline auto make_##type##2(V && v) noexcept { return detail::model_def<type##2, V>(); } \
    template<typename V>                                                                    \
        requires is_dsl_v<V> && is_same_expr_v<V, type##4>                                  \
    [[nodiscard]] inline auto make_##type##2(V && v) noexcept { return detail::model_def<type##2, V>(); } \
    template<typename Tv>                                                                   \
        requires is_dsl_v<Tv> && is_vector2_expr_v<Tv>                                      \
    [[nodiscard]] inline auto make_##type##2(Tv && v) noexcept { return detail::model_def<type##2, Tv>(); } \
    template<typename X, typename Y, typename Z>                                            \
        requires any_dsl_v<X, Y, Z> && is_same_expr_v<X, type> &&                           \
                 is_same_expr_v<Y, type> && is_same_expr_v<Z, type>                         \
    [[nodiscard]] inline auto make_##type##3(X && x, Y && y, Z && z) noexcept { return detail::model_def<type##3, X>(); } \
    template<typename S>                                                                    \
        requires is_dsl_v<S> && is_same_expr_v<S, type>                                     \
    [[nodiscard]] inline auto make_##type##3(S && s) noexcept { return detail::model_def<type##3, S>(); } \
    template<typename V, typename Z>                                                        \
        requires any_dsl_v<V, Z> && is_same_expr_v<V, type##2> && is_same_expr_v<Z, type>   \
    [[nodiscard]] inline auto make_##type##3(V && v, Z && z) noexcept { return detail::model_def<type##3, V>(); } \
    template<typename X, typename V>                                                        \
        requires any_dsl_v<X, V> && is_same_expr_v<X, type> && is_same_expr_v<V, type##2>   \
    [[nodiscard]] inline auto make_##type##3(X && x, V && v) noexcept { return detail::model_def<type##3, X>(); } \
    template<typename V>                                                                    \
        requires is_dsl_v<V> && is_same_expr_v<V, type##4>                                  \
    [[nodiscard]] inline auto make_##type##3(V && v) noexcept { return detail::model_def<type##3, V>(); } \
    template<typename Tv>                                                                   \
        requires is_dsl_v<Tv> && is_vector3_expr_v<Tv>                                      \
    [[nodiscard]] inline auto make_##type##3(Tv && v) noexcept { return detail::model_def<type##3, Tv>(); } \
    template<typename S>                                                                    \
        requires is_dsl_v<S> && is_same_expr_v<S, type>                                     \
    [[nodiscard]] inline auto make_##type##4(S && s) noexcept { return detail::model_def<type##4, S>(); } \
    template<typename X, typename Y, typename Z, typename W>                                \
        requires any_dsl_v<X, Y, Z, W> && is_same_expr_v<X, type> && is_same_expr_v<Y, type> && \
                 is_same_expr_v<Z, type> && is_same_expr_v<W, type>                         \
    [[nodiscard]] inline auto make_##type##4(X && x, Y && y, Z && z, W && w) noexcept { return detail::model_def<type##4, X>(); } \
    template<typename V, typename Z, typename W>                                            \
        requires any_dsl_v<V, Z, W> && is_same_expr_v<V, type##2> &&                        \
                 is_same_expr_v<Z, type> && is_same_expr_v<W, type>                         \
    [[nodiscard]] inline auto make_##type##4(V && v, Z && z, W && w) noexcept { return detail::model_def<type##4, V>(); } \
    template<typename X, typename YZ, typename W>                                           \
        requires any_dsl_v<X, YZ, W> && is_same_expr_v<X, type> &&                          \
                 is_same_expr_v<YZ, type##2> && is_same_expr_v<W, type>                     \
    [[nodiscard]] inline auto make_##type##4(X && x, YZ && yz, W && w) noexcept { return detail::model_def<type##4, X>(); } \
    template<typename X, typename Y, typename ZW>                                           \
        requires any_dsl_v<X, Y, ZW> && is_same_expr_v<X, type> &&                          \
                 is_same_expr_v<Y, type> && is_same_expr_v<ZW, type##2>                     \
    [[nodiscard]] inline auto make_##type##4(X && x, Y && y, ZW && zw) noexcept { return detail::model_def<type##4, X>(); } \
    template<typename XY, typename ZW>                                                      \
        requires any_dsl_v<XY, ZW> && is_same_expr_v<XY, type##2> && is_same_expr_v<ZW, type##2> \
    [[nodiscard]] inline auto make_##type##4(XY && xy, ZW && zw) noexcept { return detail::model_def<type##4, XY>(); } \
    template<typename XYZ, typename W>                                                      \
        requires any_dsl_v<XYZ, W> && is_same_expr_v<XYZ, type##3> && is_same_expr_v<W, type> \
    [[nodiscard]] inline auto make_##type##4(XYZ && xyz, W && w) noexcept { return detail::model_def<type##4, XYZ>(); } \
    template<typename X, typename YZW>                                                      \
        requires any_dsl_v<X, YZW> && is_same_expr_v<X, type> && is_same_expr_v<YZW, type##3> \
    [[nodiscard]] inline auto make_##type##4(X && x, YZW && yzw) noexcept { return detail::model_def<type##4, X>(); } \
    template<typename Tv>                                                                   \
        requires is_dsl_v<Tv> && is_vector4_expr_v<Tv>                                      \
    [[nodiscard]] inline auto make_##type##4(Tv && v) noexcept { return detail::model_def<type##4, Tv>(); }
LUISA_MAKE_VECTOR(bool)
LUISA_MAKE_VECTOR(int)
LUISA_MAKE_VECTOR(uint)
LUISA_MAKE_VECTOR(float)
LUISA_MAKE_VECTOR(double)
LUISA_MAKE_VECTOR(short)
LUISA_MAKE_VECTOR(ushort)
LUISA_MAKE_VECTOR(slong)
LUISA_MAKE_VECTOR(ulong)
LUISA_MAKE_VECTOR(half)
#undef LUISA_MAKE_VECTOR

template<typename C0, typename C1>
    requires any_dsl_v<C0, C1> && is_same_expr_v<C0, float2> && is_same_expr_v<C1, float2>
[[nodiscard]] inline auto make_float2x2(C0 &&c0, C1 &&c1) noexcept { return detail::model_def<float2x2, C0>(); }
template<typename M00, typename M01, typename M10, typename M11>
    requires any_dsl_v<M00, M01, M10, M11> &&
             is_floating_point_expr_v<M00> && is_floating_point_expr_v<M01> &&
             is_floating_point_expr_v<M10> && is_floating_point_expr_v<M11>
[[nodiscard]] inline auto make_float2x2(M00 &&m00, M01 &&m01, M10 &&m10, M11 &&m11) noexcept { return detail::model_def<float2x2, M00>(); }
template<typename M>
    requires is_dsl_v<M> && is_matrix_expr_v<M>
[[nodiscard]] inline auto make_float2x2(M &&m) noexcept { return detail::model_def<float2x2, M>(); }
template<typename C0, typename C1, typename C2>
    requires any_dsl_v<C0, C1, C2> && is_same_expr_v<C0, float3> && is_same_expr_v<C1, float3> && is_same_expr_v<C2, float3>
[[nodiscard]] inline auto make_float3x3(C0 &&c0, C1 &&c1, C2 &&c2) noexcept { return detail::model_def<float3x3, C0>(); }
template<typename M00, typename M01, typename M02,
         typename M10, typename M11, typename M12,
         typename M20, typename M21, typename M22>
    requires any_dsl_v<M00, M01, M02, M10, M11, M12, M20, M21, M22> &&
             is_same_expr_v<M00, float> && is_same_expr_v<M01, float> && is_same_expr_v<M02, float> &&
             is_same_expr_v<M10, float> && is_same_expr_v<M11, float> && is_same_expr_v<M12, float> &&
             is_same_expr_v<M20, float> && is_same_expr_v<M21, float> && is_same_expr_v<M22, float>
[[nodiscard]] inline auto make_float3x3(M00 &&m00, M01 &&m01, M02 &&m02,
                                        M10 &&m10, M11 &&m11, M12 &&m12,
                                        M20 &&m20, M21 &&m21, M22 &&m22) noexcept { return detail::model_def<float3x3, M00>(); }
template<typename M>
    requires is_dsl_v<M> && is_matrix2_expr_v<M>
[[nodiscard]] inline auto make_float3x3(M &&m) noexcept { return detail::model_def<float3x3, M>(); }
template<typename M>
    requires is_dsl_v<M> && std::disjunction_v<is_matrix3_expr<M>, is_matrix4_expr<M>>
[[nodiscard]] inline auto make_float3x3(M &&m) noexcept { return detail::model_def<float3x3, M>(); }
template<typename C0, typename C1, typename C2, typename C3>
    requires any_dsl_v<C0, C1, C2, C3> && is_same_expr_v<C0, float4> && is_same_expr_v<C1, float4> &&
             is_same_expr_v<C2, float4> && is_same_expr_v<C3, float4>
[[nodiscard]] inline auto make_float4x4(C0 &&c0, C1 &&c1, C2 &&c2, C3 &&c3) noexcept { return detail::model_def<float4x4, C0>(); }
template<typename M00, typename M01, typename M02, typename M03,
         typename M10, typename M11, typename M12, typename M13,
         typename M20, typename M21, typename M22, typename M23,
         typename M30, typename M31, typename M32, typename M33>
    requires any_dsl_v<M00, M01, M02, M03, M10, M11, M12, M13, M20, M21, M22, M23, M30, M31, M32, M33> &&
             is_same_expr_v<M00, float> && is_same_expr_v<M01, float> && is_same_expr_v<M02, float> && is_same_expr_v<M03, float> &&
             is_same_expr_v<M10, float> && is_same_expr_v<M11, float> && is_same_expr_v<M12, float> && is_same_expr_v<M13, float> &&
             is_same_expr_v<M20, float> && is_same_expr_v<M21, float> && is_same_expr_v<M22, float> && is_same_expr_v<M23, float> &&
             is_same_expr_v<M30, float> && is_same_expr_v<M31, float> && is_same_expr_v<M32, float> && is_same_expr_v<M33, float>
[[nodiscard]] inline auto make_float4x4(M00 &&m00, M01 &&m01, M02 &&m02, M03 &&m03,
                                        M10 &&m10, M11 &&m11, M12 &&m12, M13 &&m13,
                                        M20 &&m20, M21 &&m21, M22 &&m22, M23 &&m23,
                                        M30 &&m30, M31 &&m31, M32 &&m32, M33 &&m33) noexcept { return detail::model_def<float4x4, M00>(); }
template<typename M>
    requires is_dsl_v<M> && is_matrix2_expr_v<M>
[[nodiscard]] inline auto make_float4x4(M &&m) noexcept { return detail::model_def<float4x4, M>(); }
template<typename M>
    requires is_dsl_v<M> && is_matrix3_expr_v<M>
[[nodiscard]] inline auto make_float4x4(M &&m) noexcept { return detail::model_def<float4x4, M>(); }
template<typename M>
    requires is_dsl_v<M> && is_matrix4_expr_v<M>
[[nodiscard]] inline auto make_float4x4(M &&m) noexcept { return detail::model_def<float4x4, M>(); }

template<typename Tx>
    requires is_dsl_v<Tx> && is_boolean_vector_expr_v<Tx>
[[nodiscard]] inline auto all(Tx &&x) noexcept { return detail::model_def<bool, Tx>(); }
template<typename Tx>
    requires is_dsl_v<Tx> && is_boolean_vector_expr_v<Tx>
[[nodiscard]] inline auto any(Tx &&x) noexcept { return detail::model_def<bool, Tx>(); }
template<typename Tx>
    requires is_dsl_v<Tx> && is_boolean_vector_expr_v<Tx>
[[nodiscard]] inline auto none(Tx &&x) noexcept { return detail::model_def<bool, Tx>(); }

template<typename Tf, typename Tt, typename Tp>
    requires any_dsl_v<Tf, Tt, Tp> &&
             is_boolean_or_vector_expr_v<Tp> &&
             std::disjunction_v<is_scalar_expr<Tf>, is_vector_expr<Tf>> &&
             std::disjunction_v<is_scalar_expr<Tt>, is_vector_expr<Tt>> &&
             is_vector_expr_same_element_v<Tf, Tt>
[[nodiscard]] inline auto select(Tf &&f, Tt &&t, Tp &&p) noexcept {
    return detail::make_vector_call<vector_expr_element_t<Tf>>(
        CallOp::CUSTOM, std::forward<Tf>(f), std::forward<Tt>(t), std::forward<Tp>(p));
}
template<typename Tf, typename Tt, typename Tp>
    requires any_dsl_v<Tf, Tt, Tp> &&
             is_boolean_expr_v<Tp> &&
             is_same_expr_v<Tf, Tt> &&
             std::negation_v<std::disjunction<is_scalar_expr<Tf>, is_vector_expr<Tf>>>
[[nodiscard]] inline auto select(Tf &&f, Tt &&t, Tp &&p) noexcept { return detail::model_def<expr_value_t<Tf>, Tf>(); }
template<typename Tp, typename Tt, typename Tf>
    requires any_dsl_v<Tp, Tt, Tf> &&
             is_boolean_or_vector_expr_v<Tp> &&
             std::disjunction_v<is_dsl<Tt>, is_basic<Tt>> &&
             std::disjunction_v<is_dsl<Tf>, is_basic<Tf>>
[[nodiscard]] inline auto ite(Tp &&p, Tt &&t, Tf &&f) noexcept {
    return select(std::forward<Tf>(f), std::forward<Tt>(t), std::forward<Tp>(p));
}

template<typename Tv, typename Tl, typename Tu>
    requires any_dsl_v<Tv, Tl, Tu> && is_vector_expr_same_element_v<Tv, Tl, Tu>
[[nodiscard]] inline auto clamp(Tv &&v, Tl &&l, Tu &&u) noexcept { return detail::make_vector_call<vector_expr_element_t<Tv>>(CallOp::CUSTOM, std::forward<Tv>(v), std::forward<Tl>(l), std::forward<Tu>(u)); }
template<typename Ta, typename Tb, typename Tt>
    requires any_dsl_v<Ta, Tb, Tt> && is_floating_point_or_vector_expr_v<Ta> && is_vector_expr_same_element_v<Ta, Tb, Tt>
[[nodiscard]] inline auto lerp(Ta &&a, Tb &&b, Tt &&t) noexcept { return detail::make_vector_call<vector_expr_element_t<Ta>>(CallOp::CUSTOM, std::forward<Ta>(a), std::forward<Tb>(b), std::forward<Tt>(t)); }
template<typename X, typename Y, typename Z>
    requires any_dsl_v<X, Y, Z> && is_floating_point_or_vector_expr_v<X> && is_floating_point_or_vector_expr_v<Y> && is_floating_point_or_vector_expr_v<Z>
[[nodiscard]] inline auto fma(X &&x, Y &&y, Z &&z) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<X>(x), std::forward<Y>(y), std::forward<Z>(z)); }
template<typename Tv>
    requires is_dsl_v<Tv> && is_floating_point_or_vector_expr_v<Tv>
[[nodiscard]] inline auto saturate(Tv &&v) noexcept { return detail::model_def<expr_value_t<Tv>, Tv>(); }
template<typename E, typename X>
    requires any_dsl_v<E, X> && is_floating_point_or_vector_expr_v<E> && is_floating_point_or_vector_expr_v<X>
[[nodiscard]] inline auto step(E &&edge, X &&x) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<E>(edge), std::forward<X>(x)); }
template<typename L, typename R, typename T>
    requires any_dsl_v<L, R, T> && is_floating_point_or_vector_expr_v<L> && is_floating_point_or_vector_expr_v<R> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto smoothstep(L &&left, R &&right, T &&x) noexcept { return detail::make_vector_call<vector_expr_element_t<T>>(CallOp::CUSTOM, std::forward<L>(left), std::forward<R>(right), std::forward<T>(x)); }
template<typename Tx>
    requires is_dsl_v<Tx> && is_floating_point_or_vector_expr_v<Tx>
[[nodiscard]] inline auto abs(Tx &&x) noexcept { return detail::model_def<expr_value_t<Tx>, Tx>(); }
template<typename Tx>
    requires is_dsl_v<Tx> && is_signed_integral_or_vector_expr_v<Tx>
[[nodiscard]] inline auto abs(Tx &&x) noexcept { return detail::model_def<expr_value_t<Tx>, Tx>(); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_floating_point_or_vector_expr_v<X> && is_floating_point_or_vector_expr_v<Y>
[[nodiscard]] inline auto mod(X &&x_in, Y &&y_in) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<X>(x_in), std::forward<Y>(y_in)); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_floating_point_or_vector_expr_v<X> && is_floating_point_or_vector_expr_v<Y>
[[nodiscard]] inline auto fmod(X &&x_in, Y &&y_in) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<X>(x_in), std::forward<Y>(y_in)); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_vector_expr_same_element_v<X, Y>
[[nodiscard]] inline auto min(X &&x, Y &&y) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<X>(x), std::forward<Y>(y)); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_vector_expr_same_element_v<X, Y>
[[nodiscard]] inline auto max(X &&x, Y &&y) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<X>(x), std::forward<Y>(y)); }

template<typename T>
    requires is_dsl_v<T> && is_vector_expr_v<T>
[[nodiscard]] inline auto reduce_sum(T &&x) noexcept { return detail::model_def<vector_expr_element_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_vector_expr_v<T>
[[nodiscard]] inline auto reduce_prod(T &&x) noexcept { return detail::model_def<vector_expr_element_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_vector_expr_v<T>
[[nodiscard]] inline auto reduce_min(T &&x) noexcept { return detail::model_def<vector_expr_element_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_vector_expr_v<T>
[[nodiscard]] inline auto reduce_max(T &&x) noexcept { return detail::model_def<vector_expr_element_t<T>, T>(); }
template<typename X>
    requires is_dsl_v<X> && is_unsigned_integral_or_vector_expr_v<X>
[[nodiscard]] inline auto clz(X &&x) noexcept { return detail::make_vector_call<uint>(CallOp::CUSTOM, std::forward<X>(x)); }
template<typename X>
    requires is_dsl_v<X> && is_unsigned_integral_or_vector_expr_v<X>
[[nodiscard]] inline auto ctz(X &&x) noexcept { return detail::make_vector_call<uint>(CallOp::CUSTOM, std::forward<X>(x)); }
template<typename X>
    requires is_dsl_v<X> && is_unsigned_integral_or_vector_expr_v<X>
[[nodiscard]] inline auto popcount(X &&x) noexcept { return detail::make_vector_call<uint>(CallOp::CUSTOM, std::forward<X>(x)); }
template<typename X>
    requires is_dsl_v<X> && is_unsigned_integral_or_vector_expr_v<X>
[[nodiscard]] inline auto reverse(X &&x) noexcept { return detail::make_vector_call<uint>(CallOp::CUSTOM, std::forward<X>(x)); }
template<typename X>
    requires is_dsl_v<X> && is_floating_point_or_vector_expr_v<X>
[[nodiscard]] inline auto isinf(X &&x) noexcept { return detail::make_vector_call<bool>(CallOp::CUSTOM, std::forward<X>(x)); }
template<typename X>
    requires is_dsl_v<X> && is_floating_point_or_vector_expr_v<X>
[[nodiscard]] inline auto isnan(X &&x) noexcept { return detail::make_vector_call<bool>(CallOp::CUSTOM, std::forward<X>(x)); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto acos(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto acosh(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto asin(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto asinh(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto atan(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto atanh(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto cos(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto cosh(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto sin(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto sinh(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto tan(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto tanh(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto exp(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto exp2(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto exp10(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto log(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto log2(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto log10(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto sqrt(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto rsqrt(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto ceil(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto floor(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto fract(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto trunc(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto round(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto degrees(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_or_vector_expr_v<T>
[[nodiscard]] inline auto radians(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename Y, typename X>
    requires any_dsl_v<Y, X> && is_floating_point_or_vector_expr_v<Y> && is_floating_point_or_vector_expr_v<X>
[[nodiscard]] inline auto atan2(Y &&y, X &&x) noexcept { return detail::make_vector_call<vector_expr_element_t<Y>>(CallOp::CUSTOM, std::forward<Y>(y), std::forward<X>(x)); }
template<typename X, typename A>
    requires any_dsl_v<X, A> && is_floating_point_or_vector_expr_v<X> && is_floating_point_or_vector_expr_v<A>
[[nodiscard]] inline auto pow(X &&x, A &&a) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<X>(x), std::forward<A>(a)); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_floating_point_or_vector_expr_v<X> && is_floating_point_or_vector_expr_v<Y>
[[nodiscard]] inline auto copysign(X &&x, Y &&y) noexcept { return detail::make_vector_call<vector_expr_element_t<X>>(CallOp::CUSTOM, std::forward<X>(x), std::forward<Y>(y)); }
template<typename X>
    requires is_dsl_v<X> && is_floating_point_or_vector_expr_v<X>
[[nodiscard]] inline auto sign(X &&x) noexcept { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires is_dsl_v<X> && (is_scalar_v<expr_value_t<X>> || is_matrix_v<expr_value_t<X>> || is_vector_v<expr_value_t<X>>)
[[nodiscard]] inline auto ddx(X &&x) noexcept { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires is_dsl_v<X> && (is_scalar_v<expr_value_t<X>> || is_matrix_v<expr_value_t<X>> || is_vector_v<expr_value_t<X>>)
[[nodiscard]] inline auto ddy(X &&x) noexcept { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_same_expr_v<X, Y, float3>
[[nodiscard]] inline auto cross(X &&x, Y &&y) noexcept { return detail::model_def<float3, X>(); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_floating_point_vector_expr_v<X> && is_floating_point_vector_expr_v<Y> && is_vector_expr_same_dimension_v<X, Y>
[[nodiscard]] inline auto dot(X &&x, Y &&y) noexcept { return detail::model_def<vector_expr_element_t<X>, X>(); }
template<typename Tx>
    requires is_dsl_v<Tx> && is_floating_point_vector_expr_v<Tx>
[[nodiscard]] inline auto length(Tx &&x) noexcept { return detail::model_def<vector_expr_element_t<Tx>, Tx>(); }
template<typename Tx>
    requires is_dsl_v<Tx> && is_floating_point_vector_expr_v<Tx>
[[nodiscard]] inline auto length_squared(Tx &&x) noexcept { return detail::model_def<vector_expr_element_t<Tx>, Tx>(); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_floating_point_vector_expr_v<X> && is_floating_point_vector_expr_v<Y> && is_vector_expr_same_dimension_v<X, Y>
[[nodiscard]] inline auto distance(X &&x, Y &&y) noexcept { return detail::model_def<vector_expr_element_t<X>, X>(); }
template<typename X, typename Y>
    requires any_dsl_v<X, Y> && is_floating_point_vector_expr_v<X> && is_floating_point_vector_expr_v<Y> && is_vector_expr_same_dimension_v<X, Y>
[[nodiscard]] inline auto distance_squared(X &&x, Y &&y) noexcept { return detail::model_def<vector_expr_element_t<X>, X>(); }
template<typename T>
    requires is_dsl_v<T> && is_floating_point_vector_expr_v<T>
[[nodiscard]] inline auto normalize(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename I, typename N>
    requires any_dsl_v<I, N> && std::same_as<expr_value_t<I>, float3> && std::same_as<expr_value_t<N>, float3>
[[nodiscard]] inline auto reflect(I &&i, N &&n) noexcept { return detail::model_def<float3, I>(); }
template<typename N, typename I, typename NRef>
    requires any_dsl_v<N, I, NRef> && is_same_expr_v<N, I, NRef, float3>
[[nodiscard]] inline auto faceforward(N &&n, I &&i, NRef &&n_ref) noexcept { return detail::model_def<float3, N>(); }
template<typename Tm>
    requires is_dsl_v<Tm> && is_matrix_expr_v<Tm>
[[nodiscard]] inline auto determinant(Tm &&m) noexcept { return detail::model_def<float, Tm>(); }
template<typename Tm>
    requires is_dsl_v<Tm> && is_matrix_expr_v<Tm>
[[nodiscard]] inline auto transpose(Tm &&m) noexcept { return detail::model_def<expr_value_t<Tm>, Tm>(); }
template<typename Tm>
    requires is_dsl_v<Tm> && is_matrix_expr_v<Tm>
[[nodiscard]] inline auto inverse(Tm &&m) noexcept { return detail::model_def<expr_value_t<Tm>, Tm>(); }

template<typename T>
[[nodiscard]] auto zero() noexcept { return detail::model_def<T, T>(); }
template<typename T>
[[nodiscard]] auto one() noexcept { return detail::model_def<T, T>(); }

template<typename... T>
    requires any_dsl_or_local_array_v<T...>
void requires_grad(T &&...args) noexcept {}
template<typename T>
    requires is_dsl_or_local_array_v<T>
auto detach(T &&x) noexcept { return std::forward<T>(x); }
template<typename T, typename G>
    requires is_dsl_v<T> && is_dsl_v<G> && is_same_expr_v<T, G>
void backward(T &&x, G &&grad) noexcept {}
template<typename T>
    requires is_dsl_v<T>
void backward(T &&x) noexcept {}
template<typename T>
void backward(const Local<T> &x, const Local<T> &grad) noexcept {}
template<typename T>
void backward(const Local<T> &x) noexcept {}
template<typename T>
    requires is_dsl_v<T>
[[nodiscard]] inline auto grad(T &&x) noexcept { return detail::model_def<expr_value_t<T>, T>(); }
template<typename T>
[[nodiscard]] inline auto grad(const Local<T> &x) noexcept { return x; }

/// Synchronize all threads in the block
inline void sync_block() noexcept {}

[[nodiscard]] inline auto warp_is_first_active_lane() noexcept { LUISA_MODEL_RET(bool); }
[[nodiscard]] inline auto warp_first_active_lane() noexcept { LUISA_MODEL_RET(uint); }
template<typename X>
    requires is_scalar_expr_v<X> || is_vector_expr_v<X>
[[nodiscard]] inline auto warp_active_all_equal(X &&value) noexcept {
    using T = expr_value_t<X>;
    if constexpr (vector_dimension_v<T> == 1) {
        return detail::model_def<bool, X>();
    } else {
        return detail::model_def<Vector<bool, vector_dimension_v<T>>, X>();
    }
}
template<typename X>
    requires is_integral_or_vector_expr_v<X>
[[nodiscard]] inline auto warp_active_bit_and(X &&value) noexcept { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires is_integral_or_vector_expr_v<X>
[[nodiscard]] inline auto warp_active_bit_or(X &&value) noexcept { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires is_integral_or_vector_expr_v<X>
[[nodiscard]] inline auto warp_active_bit_xor(X &&value) noexcept { return detail::model_def<expr_value_t<X>, X>(); }
[[nodiscard]] inline auto warp_active_count_bits(Expr<bool> value) noexcept { LUISA_MODEL_RET(uint); }
[[nodiscard]] inline auto warp_prefix_count_bits(Expr<bool> value) noexcept { LUISA_MODEL_RET(uint); }
[[nodiscard]] inline auto warp_active_all(Expr<bool> value) noexcept { LUISA_MODEL_RET(bool); }
[[nodiscard]] inline auto warp_active_any(Expr<bool> value) noexcept { LUISA_MODEL_RET(bool); }
[[nodiscard]] inline auto warp_active_bit_mask(Expr<bool> value) noexcept { LUISA_MODEL_RET(uint4); }

template<typename X>
    requires(is_scalar_expr_v<X> || is_vector_expr_v<X>) &&
            (!is_boolean_or_vector_expr_v<X>)
[[nodiscard]] inline auto warp_active_min(X &&value) { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires(is_scalar_expr_v<X> || is_vector_expr_v<X>) &&
            (!is_boolean_or_vector_expr_v<X>)
[[nodiscard]] inline auto warp_active_max(X &&value) { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires(is_scalar_expr_v<X> || is_vector_expr_v<X>) &&
            (!is_boolean_or_vector_expr_v<X>)
[[nodiscard]] inline auto warp_active_product(X &&value) { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires(is_scalar_expr_v<X> || is_vector_expr_v<X>) &&
            (!is_boolean_or_vector_expr_v<X>)
[[nodiscard]] inline auto warp_active_sum(X &&value) { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires(is_scalar_expr_v<X> || is_vector_expr_v<X>) &&
            (!is_boolean_or_vector_expr_v<X>)
[[nodiscard]] inline auto warp_prefix_product(X &&value) { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires(is_scalar_expr_v<X> || is_vector_expr_v<X>) &&
            (!is_boolean_or_vector_expr_v<X>)
[[nodiscard]] inline auto warp_prefix_sum(X &&value) { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X, typename Y>
    requires(is_scalar_expr_v<X> || is_vector_expr_v<X> || is_matrix_expr_v<X>) &&
            is_integral_expr_v<Y>
[[nodiscard]] inline auto warp_read_lane(X &&value, Y &&index) { return detail::model_def<expr_value_t<X>, X>(); }
template<typename X>
    requires is_scalar_expr_v<X> || is_vector_expr_v<X> || is_matrix_expr_v<X>
[[nodiscard]] inline auto warp_read_first_active_lane(X &&value) { return detail::model_def<expr_value_t<X>, X>(); }

inline void reorder_shader_execution(Expr<uint> hint, Expr<uint> hint_bits) noexcept {}
inline void reorder_shader_execution() noexcept {}

#undef LUISA_MODEL_RET
}// namespace dsl

}// namespace luisa::compute

