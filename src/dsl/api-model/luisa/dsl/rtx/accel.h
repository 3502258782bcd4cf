#pragma once
// kernel-tidy API model of luisa/dsl/rtx/accel.h
#include <luisa/runtime/rtx/accel.h>
#include <luisa/dsl/rtx/ray_query.h>
#include <luisa/dsl/rtx/ray.h>
#include <luisa/dsl/rtx/hit.h>
#include <luisa/dsl/rtx/triangle.h>
#include <luisa/dsl/rtx/aabb.h>
#include <luisa/dsl/resource.h>

namespace luisa::compute {

struct AccelTraceOptions {
    CurveBasisSet curve_bases{};
    UInt visibility_mask{0xffu};
};

template<>
struct Expr<Accel> {
private:
    const RefExpr *_expression{nullptr};
public:
    explicit Expr(const RefExpr *expr) noexcept : _expression{expr} {}
    explicit Expr(const Accel &accel) noexcept {}
    [[nodiscard]] auto expression() const noexcept { return _expression; }
    [[nodiscard]] Var<SurfaceHit> intersect(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept { return Var<SurfaceHit>{detail::model_expression()}; }
    [[nodiscard]] Var<bool> intersect_any(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept { return Var<bool>{detail::model_expression()}; }
    [[nodiscard]] RayQueryAll traverse(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept;
    [[nodiscard]] RayQueryAny traverse_any(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept;
    [[nodiscard]] Var<SurfaceHit> intersect_motion(Expr<Ray> ray, Expr<float> time, const AccelTraceOptions &options) const noexcept { return Var<SurfaceHit>{detail::model_expression()}; }
    [[nodiscard]] Var<bool> intersect_any_motion(Expr<Ray> ray, Expr<float> time, const AccelTraceOptions &options) const noexcept { return Var<bool>{detail::model_expression()}; }
    [[nodiscard]] RayQueryAll traverse_motion(Expr<Ray> ray, Expr<float> time, const AccelTraceOptions &options) const noexcept;
    [[nodiscard]] RayQueryAny traverse_any_motion(Expr<Ray> ray, Expr<float> time, const AccelTraceOptions &options) const noexcept;
    [[nodiscard]] Var<float4x4> instance_transform(Expr<uint> instance_id) const noexcept { return Var<float4x4>{detail::model_expression()}; }
    [[nodiscard]] Var<float4x4> instance_transform(Expr<int> instance_id) const noexcept { return Var<float4x4>{detail::model_expression()}; }
    [[nodiscard]] Var<uint> instance_user_id(Expr<uint> instance_id) const noexcept { return Var<uint>{detail::model_expression()}; }
    [[nodiscard]] Var<uint> instance_user_id(Expr<int> instance_id) const noexcept { return Var<uint>{detail::model_expression()}; }
    [[nodiscard]] Var<uint> instance_visibility_mask(Expr<uint> instance_id) const noexcept { return Var<uint>{detail::model_expression()}; }
    [[nodiscard]] Var<uint> instance_visibility_mask(Expr<int> instance_id) const noexcept { return Var<uint>{detail::model_expression()}; }
    void set_instance_transform(Expr<int> instance_id, Expr<float4x4> mat) const noexcept {}
    void set_instance_visibility(Expr<int> instance_id, Expr<uint> vis_mask) const noexcept {}
    void set_instance_opaque(Expr<int> instance_id, Expr<bool> opaque) const noexcept {}
    void set_instance_user_id(Expr<int> instance_id, Expr<uint> id) const noexcept {}
    void set_instance_transform(Expr<uint> instance_id, Expr<float4x4> mat) const noexcept {}
    void set_instance_visibility(Expr<uint> instance_id, Expr<uint> vis_mask) const noexcept {}
    void set_instance_opaque(Expr<uint> instance_id, Expr<bool> opaque) const noexcept {}
    void set_instance_user_id(Expr<uint> instance_id, Expr<uint> id) const noexcept {}
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

Expr(const Accel &) noexcept -> Expr<Accel>;

template<>
struct Var<Accel> : public Expr<Accel> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<Accel>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

using AccelVar = Var<Accel>;

namespace detail {
class AccelExprProxy {
private:
    Accel _accel;
public:
    LUISA_RESOURCE_PROXY_AVOID_CONSTRUCTION(AccelExprProxy)
    [[nodiscard]] Var<SurfaceHit> intersect(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept { return Expr<Accel>{_accel}.intersect(ray, options); }
    [[nodiscard]] Var<bool> intersect_any(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept { return Expr<Accel>{_accel}.intersect_any(ray, options); }
    [[nodiscard]] RayQueryAll traverse(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept;
    [[nodiscard]] RayQueryAny traverse_any(Expr<Ray> ray, const AccelTraceOptions &options) const noexcept;
    [[nodiscard]] RayQueryAll traverse_motion(Expr<Ray> ray, Expr<float> time, const AccelTraceOptions &options) const noexcept;
    [[nodiscard]] RayQueryAny traverse_any_motion(Expr<Ray> ray, Expr<float> time, const AccelTraceOptions &options) const noexcept;
    template<typename I>
    [[nodiscard]] Var<float4x4> instance_transform(I &&instance_id) const noexcept { return Var<float4x4>{model_expression()}; }
};
}// namespace detail

}// namespace luisa::compute
