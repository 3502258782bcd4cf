#pragma once
// kernel-tidy API model of luisa/dsl/rtx/ray.h
#include <luisa/runtime/rtx/ray.h>
#include <luisa/dsl/struct.h>
#include <luisa/dsl/builtin.h>

LUISA_STRUCT(luisa::compute::Ray,
             compressed_origin,
             compressed_t_min,
             compressed_direction,
             compressed_t_max) {
    [[nodiscard]] auto origin() const noexcept { return luisa::compute::def<luisa::float3>(luisa::compute::detail::model_expression()); }
    [[nodiscard]] auto direction() const noexcept { return luisa::compute::def<luisa::float3>(luisa::compute::detail::model_expression()); }
    [[nodiscard]] auto t_min() const noexcept { return compressed_t_min; }
    [[nodiscard]] auto t_max() const noexcept { return compressed_t_max; }
    void set_origin(luisa::compute::Expr<luisa::float3> origin) noexcept {}
    void set_direction(luisa::compute::Expr<luisa::float3> direction) noexcept {}
    void set_t_min(luisa::compute::Expr<float> t_min) noexcept {}
    void set_t_max(luisa::compute::Expr<float> t_max) noexcept {}
};

namespace luisa::compute {
[[nodiscard]] LUISA_DSL_API Float3 offset_ray_origin(Expr<float3> p, Expr<float3> n) noexcept;
[[nodiscard]] LUISA_DSL_API Float3 offset_ray_origin(Expr<float3> p, Expr<float3> n, Expr<float3> w) noexcept;
[[nodiscard]] LUISA_DSL_API Var<Ray> make_ray(Expr<float3> origin, Expr<float3> direction, Expr<float> t_min, Expr<float> t_max) noexcept;
[[nodiscard]] LUISA_DSL_API Var<Ray> make_ray(Expr<float3> origin, Expr<float3> direction) noexcept;
}// namespace luisa::compute
