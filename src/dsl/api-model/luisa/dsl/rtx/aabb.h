#pragma once
#include <luisa/runtime/rtx/aabb.h>
#include <luisa/dsl/struct.h>
LUISA_STRUCT(luisa::compute::AABB, packed_min, packed_max) {
    [[nodiscard]] auto min() const noexcept { return luisa::compute::def<luisa::float3>(luisa::compute::detail::model_expression()); }
    [[nodiscard]] auto max() const noexcept { return luisa::compute::def<luisa::float3>(luisa::compute::detail::model_expression()); }
};
