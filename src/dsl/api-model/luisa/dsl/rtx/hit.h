#pragma once
// kernel-tidy API model of luisa/dsl/rtx/hit.h
#include <luisa/runtime/rtx/hit.h>
#include <luisa/dsl/struct.h>
#include <luisa/dsl/builtin.h>

namespace luisa::compute {
[[nodiscard]] LUISA_DSL_API Var<float> triangle_interpolate(Expr<float2> bary, Expr<float> a, Expr<float> b, Expr<float> c) noexcept;
[[nodiscard]] LUISA_DSL_API Var<float2> triangle_interpolate(Expr<float2> bary, Expr<float2> a, Expr<float2> b, Expr<float2> c) noexcept;
[[nodiscard]] LUISA_DSL_API Var<float3> triangle_interpolate(Expr<float2> bary, Expr<float3> a, Expr<float3> b, Expr<float3> c) noexcept;
[[nodiscard]] LUISA_DSL_API Var<float4> triangle_interpolate(Expr<float2> bary, Expr<float4> a, Expr<float4> b, Expr<float4> c) noexcept;
[[deprecated("Use triangle_interpolate instead.")]] [[nodiscard]] LUISA_DSL_API Var<float> interpolate(Expr<float2> bary, Expr<float> a, Expr<float> b, Expr<float> c) noexcept;
[[deprecated("Use triangle_interpolate instead.")]] [[nodiscard]] LUISA_DSL_API Var<float2> interpolate(Expr<float2> bary, Expr<float2> a, Expr<float2> b, Expr<float2> c) noexcept;
[[deprecated("Use triangle_interpolate instead.")]] [[nodiscard]] LUISA_DSL_API Var<float3> interpolate(Expr<float2> bary, Expr<float3> a, Expr<float3> b, Expr<float3> c) noexcept;
[[deprecated("Use triangle_interpolate instead.")]] [[nodiscard]] LUISA_DSL_API Var<float4> interpolate(Expr<float2> bary, Expr<float4> a, Expr<float4> b, Expr<float4> c) noexcept;
}// namespace luisa::compute

LUISA_STRUCT(luisa::compute::CommittedHit, inst, prim, bary, hit_type, committed_ray_t) {
    [[nodiscard]] auto miss() const noexcept { return hit_type == static_cast<uint32_t>(luisa::compute::HitType::Miss); }
    [[nodiscard]] auto is_triangle() const noexcept { return hit_type == static_cast<uint32_t>(luisa::compute::HitType::Surface); }
    [[nodiscard]] auto is_curve() const noexcept { return hit_type == static_cast<uint32_t>(luisa::compute::HitType::Surface); }
    [[nodiscard]] auto is_procedural() const noexcept { return hit_type == static_cast<uint32_t>(luisa::compute::HitType::Procedural); }
    [[nodiscard]] auto distance() const noexcept { return committed_ray_t; }
    [[nodiscard]] auto triangle_barycentric_coord() const noexcept { return bary; }
    [[nodiscard]] auto curve_parameter() const noexcept { return bary.x; }
    template<typename A, typename B, typename C>
    [[nodiscard]] auto interpolate(const A &a, const B &b, const C &c) const noexcept { return luisa::compute::triangle_interpolate(bary, a, b, c); }
};

LUISA_STRUCT(luisa::compute::SurfaceHit, inst, prim, bary, committed_ray_t) {
    [[nodiscard]] auto miss() const noexcept { return inst == ~0u; }
    [[nodiscard]] auto distance() const noexcept { return committed_ray_t; }
    [[nodiscard]] auto is_curve() const noexcept { return !miss() & bary.y < 0.f; }
    [[nodiscard]] auto is_triangle() const noexcept { return !miss() & !is_curve(); }
    [[nodiscard]] auto triangle_barycentric_coord() const noexcept { return bary; }
    [[nodiscard]] auto curve_parameter() const noexcept { return bary.x; }
    template<typename A, typename B, typename C>
    [[nodiscard]] auto interpolate(const A &a, const B &b, const C &c) const noexcept { return luisa::compute::triangle_interpolate(bary, a, b, c); }
};

LUISA_STRUCT(luisa::compute::ProceduralHit, inst, prim) {};
