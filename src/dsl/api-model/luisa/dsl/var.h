#pragma once
// kernel-tidy API model of luisa/dsl/var.h
#include <luisa/dsl/ref.h>
#include <luisa/dsl/arg.h>

// X11 macro
#ifdef Bool
#undef Bool
#endif

namespace luisa::compute {

/// Var<T>: a local variable in the DSL (constructors mirror the real header)
template<typename T>
struct Var : public detail::Ref<T> {

private:
    struct LocalCreationTag {};
    explicit Var(LocalCreationTag) noexcept
        : detail::Ref<T>{detail::model_expression()} {}

public:
    static_assert(std::is_trivially_destructible_v<T>);

    explicit Var(const Expression *expr) noexcept
        : detail::Ref<T>{expr} {}

    Var() noexcept : Var{LocalCreationTag{}} {}

    void set_name(luisa::string_view name) const noexcept {}

    template<typename... Args, size_t... i>
    Var(std::tuple<Args...> args, std::index_sequence<i...>) noexcept : Var{LocalCreationTag{}} {}

    template<typename... Args>
    Var(std::tuple<Args...> args) noexcept
        : Var{std::move(args), std::index_sequence_for<Args...>{}} {}

    template<typename Arg>
        requires concepts::different<std::remove_cvref_t<Arg>, Var> &&
                 std::negation_v<std::is_pointer<std::remove_cvref_t<Arg>>>
    Var(Arg &&arg) noexcept : Var{LocalCreationTag{}} {}

    template<typename First, typename Second, typename... Other>
    Var(First &&first, Second &&second, Other &&...other) noexcept
        : Var{LocalCreationTag{}} {}

    // Internal use: create as function argument
    explicit Var(detail::ArgumentCreation) noexcept
        : detail::Ref<T>{detail::model_expression()} {}

    // Internal use: create as reference function argument
    explicit Var(detail::ReferenceArgumentCreation) noexcept
        : detail::Ref<T>{detail::model_expression()} {}

    Var(Var &&) noexcept = default;

    Var(const Var &another) noexcept : Var{LocalCreationTag{}} {}

    const Var &operator=(Var &&rhs) & noexcept {
        detail::Ref<T>::operator=(std::move(rhs));
        return *this;
    }
    const Var &operator=(const Var &rhs) & noexcept {
        detail::Ref<T>::operator=(rhs);
        return *this;
    }
};

template<typename T>
Var(T &&) -> Var<expr_value_t<T>>;

template<typename... T>
Var(std::tuple<T...>) -> Var<std::tuple<expr_value_t<T>...>>;

template<typename T, size_t N>
using ArrayVar = Var<std::array<expr_value_t<T>, N>>;

using Int = Var<int>;
using Int2 = Var<int2>;
using Int3 = Var<int3>;
using Int4 = Var<int4>;
using UInt = Var<uint>;
using UInt2 = Var<uint2>;
using UInt3 = Var<uint3>;
using UInt4 = Var<uint4>;
using Float = Var<float>;
using Float2 = Var<float2>;
using Float3 = Var<float3>;
using Float4 = Var<float4>;
using Double2 = Var<double2>;
using Double3 = Var<double3>;
using Double4 = Var<double4>;
using Bool = Var<bool>;
using Bool2 = Var<bool2>;
using Bool3 = Var<bool3>;
using Bool4 = Var<bool4>;
using Short = Var<short>;
using Short2 = Var<short2>;
using Short3 = Var<short3>;
using Short4 = Var<short4>;
using UShort = Var<ushort>;
using UShort2 = Var<ushort2>;
using UShort3 = Var<ushort3>;
using UShort4 = Var<ushort4>;
using SLong = Var<slong>;
using SLong2 = Var<slong2>;
using SLong3 = Var<slong3>;
using SLong4 = Var<slong4>;
using ULong = Var<ulong>;
using ULong2 = Var<ulong2>;
using ULong3 = Var<ulong3>;
using ULong4 = Var<ulong4>;
using Half = Var<half>;
using Half2 = Var<half2>;
using Half3 = Var<half3>;
using Half4 = Var<half4>;
using Float2x2 = Var<float2x2>;
using Float3x3 = Var<float3x3>;
using Float4x4 = Var<float4x4>;
using Double2x2 = Var<double2x2>;
using Double3x3 = Var<double3x3>;
using Double4x4 = Var<double4x4>;
using Half2x2 = Var<half2x2>;
using Half3x3 = Var<half3x3>;
using Half4x4 = Var<half4x4>;

template<size_t N>
using ArrayInt = ArrayVar<int, N>;
template<size_t N>
using ArrayInt2 = ArrayVar<int2, N>;
template<size_t N>
using ArrayInt3 = ArrayVar<int3, N>;
template<size_t N>
using ArrayInt4 = ArrayVar<int4, N>;
template<size_t N>
using ArrayUInt = ArrayVar<uint, N>;
template<size_t N>
using ArrayUInt2 = ArrayVar<uint2, N>;
template<size_t N>
using ArrayUInt3 = ArrayVar<uint3, N>;
template<size_t N>
using ArrayUInt4 = ArrayVar<uint4, N>;
template<size_t N>
using ArrayFloat = ArrayVar<float, N>;
template<size_t N>
using ArrayFloat2 = ArrayVar<float2, N>;
template<size_t N>
using ArrayFloat3 = ArrayVar<float3, N>;
template<size_t N>
using ArrayFloat4 = ArrayVar<float4, N>;
template<size_t N>
using ArrayBool = ArrayVar<bool, N>;
template<size_t N>
using ArrayBool2 = ArrayVar<bool2, N>;
template<size_t N>
using ArrayBool3 = ArrayVar<bool3, N>;
template<size_t N>
using ArrayBool4 = ArrayVar<bool4, N>;
template<size_t N>
using ArrayShort = ArrayVar<short, N>;
template<size_t N>
using ArrayShort2 = ArrayVar<short2, N>;
template<size_t N>
using ArrayShort3 = ArrayVar<short3, N>;
template<size_t N>
using ArrayShort4 = ArrayVar<short4, N>;
template<size_t N>
using ArrayUShort = ArrayVar<ushort, N>;
template<size_t N>
using ArrayUShort2 = ArrayVar<ushort2, N>;
template<size_t N>
using ArrayUShort3 = ArrayVar<ushort3, N>;
template<size_t N>
using ArrayUShort4 = ArrayVar<ushort4, N>;
template<size_t N>
using ArraySLong = ArrayVar<slong, N>;
template<size_t N>
using ArraySLong2 = ArrayVar<slong2, N>;
template<size_t N>
using ArraySLong3 = ArrayVar<slong3, N>;
template<size_t N>
using ArraySLong4 = ArrayVar<slong4, N>;
template<size_t N>
using ArrayULong = ArrayVar<ulong, N>;
template<size_t N>
using ArrayULong2 = ArrayVar<ulong2, N>;
template<size_t N>
using ArrayULong3 = ArrayVar<ulong3, N>;
template<size_t N>
using ArrayULong4 = ArrayVar<ulong4, N>;
template<size_t N>
using ArrayHalf = ArrayVar<half, N>;
template<size_t N>
using ArrayHalf2 = ArrayVar<half2, N>;
template<size_t N>
using ArrayHalf3 = ArrayVar<half3, N>;
template<size_t N>
using ArrayHalf4 = ArrayVar<half4, N>;
template<size_t N>
using ArrayFloat2x2 = ArrayVar<float2x2, N>;
template<size_t N>
using ArrayFloat3x3 = ArrayVar<float3x3, N>;
template<size_t N>
using ArrayFloat4x4 = ArrayVar<float4x4, N>;

namespace detail {

template<typename>
struct is_var_impl : std::false_type {};

template<typename T>
struct is_var_impl<Var<T>> : std::true_type {};

template<typename T>
Var<ulong> RefEnableGetAddress<T>::address() const noexcept {
    return Var<ulong>{model_expression()};
}

}// namespace detail

template<typename T>
struct is_var : detail::is_var_impl<std::remove_cvref_t<T>> {};

template<typename T>
inline constexpr bool is_var_v = is_var<T>::value;

namespace dsl_literals {
[[nodiscard]] Var<short> operator""_short(unsigned long long v) noexcept;
[[nodiscard]] Var<short2> operator""_short2(unsigned long long v) noexcept;
[[nodiscard]] Var<short3> operator""_short3(unsigned long long v) noexcept;
[[nodiscard]] Var<short4> operator""_short4(unsigned long long v) noexcept;
[[nodiscard]] Var<ushort> operator""_ushort(unsigned long long v) noexcept;
[[nodiscard]] Var<ushort2> operator""_ushort2(unsigned long long v) noexcept;
[[nodiscard]] Var<ushort3> operator""_ushort3(unsigned long long v) noexcept;
[[nodiscard]] Var<ushort4> operator""_ushort4(unsigned long long v) noexcept;
[[nodiscard]] Var<int> operator""_int(unsigned long long v) noexcept;
[[nodiscard]] Var<int2> operator""_int2(unsigned long long v) noexcept;
[[nodiscard]] Var<int3> operator""_int3(unsigned long long v) noexcept;
[[nodiscard]] Var<int4> operator""_int4(unsigned long long v) noexcept;
[[nodiscard]] Var<uint> operator""_uint(unsigned long long v) noexcept;
[[nodiscard]] Var<uint2> operator""_uint2(unsigned long long v) noexcept;
[[nodiscard]] Var<uint3> operator""_uint3(unsigned long long v) noexcept;
[[nodiscard]] Var<uint4> operator""_uint4(unsigned long long v) noexcept;
[[nodiscard]] Var<slong> operator""_slong(unsigned long long v) noexcept;
[[nodiscard]] Var<slong2> operator""_slong2(unsigned long long v) noexcept;
[[nodiscard]] Var<slong3> operator""_slong3(unsigned long long v) noexcept;
[[nodiscard]] Var<slong4> operator""_slong4(unsigned long long v) noexcept;
[[nodiscard]] Var<ulong> operator""_ulong(unsigned long long v) noexcept;
[[nodiscard]] Var<ulong2> operator""_ulong2(unsigned long long v) noexcept;
[[nodiscard]] Var<ulong3> operator""_ulong3(unsigned long long v) noexcept;
[[nodiscard]] Var<ulong4> operator""_ulong4(unsigned long long v) noexcept;
[[nodiscard]] Var<half> operator""_half(long double v) noexcept;
[[nodiscard]] Var<half2> operator""_half2(long double v) noexcept;
[[nodiscard]] Var<half3> operator""_half3(long double v) noexcept;
[[nodiscard]] Var<half4> operator""_half4(long double v) noexcept;
[[nodiscard]] Var<float> operator""_float(long double v) noexcept;
[[nodiscard]] Var<float2> operator""_float2(long double v) noexcept;
[[nodiscard]] Var<float3> operator""_float3(long double v) noexcept;
[[nodiscard]] Var<float4> operator""_float4(long double v) noexcept;
[[nodiscard]] Var<double> operator""_double(long double v) noexcept;
[[nodiscard]] Var<double2> operator""_double2(long double v) noexcept;
[[nodiscard]] Var<double3> operator""_double3(long double v) noexcept;
[[nodiscard]] Var<double4> operator""_double4(long double v) noexcept;
}// namespace dsl_literals

}// namespace luisa::compute
