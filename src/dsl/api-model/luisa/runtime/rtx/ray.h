#pragma once
// kernel-tidy API model of luisa/runtime/rtx/ray.h
#include <array>
#include <luisa/core/basic_types.h>
namespace luisa::compute {
struct alignas(16) Ray {
    std::array<float, 3> compressed_origin;
    float compressed_t_min;
    std::array<float, 3> compressed_direction;
    float compressed_t_max;
};
}// namespace luisa::compute
