#pragma once
// kernel-tidy API model of luisa/runtime/rtx/hit.h
#include <luisa/core/basic_types.h>
namespace luisa::compute {
enum class HitType : uint32_t {
    Miss = 0,
    Surface = 1,
    Procedural = 2,
    Triangle = Surface,
};
struct alignas(8) CommittedHit {
    uint inst;
    uint prim;
    float2 bary;
    uint hit_type;
    float committed_ray_t;
};
struct alignas(8) SurfaceHit {
    uint inst;
    uint prim;
    float2 bary;
    float committed_ray_t;
};
struct alignas(8) AABBHit {
    uint inst;
    uint prim;
};
using TriangleHit = SurfaceHit;
using ProceduralHit = AABBHit;
}// namespace luisa::compute
