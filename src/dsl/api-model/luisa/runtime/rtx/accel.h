#pragma once
// kernel-tidy API model of luisa/runtime/rtx/accel.h
#include <luisa/runtime/rtx/mesh.h>
#include <luisa/runtime/rtx/ray.h>
#include <luisa/runtime/rtx/hit.h>
namespace luisa::compute {
namespace detail {
class AccelExprProxy;
}// namespace detail
class Accel final : public Resource {
public:
    using BuildRequest = AccelBuildRequest;
    Accel() noexcept = default;
    Accel(Accel &&) noexcept = default;
    Accel &operator=(Accel &&) noexcept = default;
    [[nodiscard]] size_t size() const noexcept { return 0u; }
    void emplace_back(const Mesh &mesh, float4x4 transform = make_float4x4(1.f), uint8_t visibility_mask = 0xffu,
                      bool opaque = true, uint user_id = 0) noexcept {}
    void emplace_back(const ProceduralPrimitive &prim, float4x4 transform = make_float4x4(1.f),
                      uint8_t visibility_mask = 0xffu, uint user_id = 0) noexcept {}
    void set(size_t index, const Mesh &mesh, float4x4 transform = make_float4x4(1.f), uint8_t visibility_mask = 0xffu,
             bool opaque = true, uint user_id = 0) noexcept {}
    void pop_back() noexcept {}
    void set_transform_on_update(size_t index, float4x4 transform) noexcept {}
    void set_visibility_on_update(size_t index, uint8_t visibility_mask) noexcept {}
    void set_opaque_on_update(size_t index, bool opaque) noexcept {}
    void set_instance_user_id_on_update(size_t index, uint user_id) noexcept {}
    [[nodiscard]] luisa::unique_ptr<Command> build(BuildRequest request = BuildRequest::PREFER_UPDATE) noexcept { return {}; }
    [[nodiscard]] const detail::AccelExprProxy *operator->() const noexcept {
        return reinterpret_cast<const detail::AccelExprProxy *>(this);
    }
};
}// namespace luisa::compute
