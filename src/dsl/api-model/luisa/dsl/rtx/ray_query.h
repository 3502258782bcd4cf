#pragma once
// kernel-tidy API model of luisa/dsl/rtx/ray_query.h: ray-query candidates and the proxy
// chain `accel.traverse(ray, {}).on_surface_candidate(f).on_procedural_candidate(g).trace()`.
// Same class shapes (non-copyable candidates, `&&`-qualified handler setters, each proxy
// offering only the handler not yet given); declarations only.
#include <luisa/core/stl/functional.h>
#include <luisa/dsl/rtx/hit.h>
#include <luisa/dsl/rtx/ray.h>

namespace luisa::compute {

namespace detail {
template<bool terminate_on_first>
class RayQueryBase;
}// namespace detail

/// A triangle or curve hit the traversal found; the surface handler commits or skips it.
class SurfaceCandidate {
public:
    SurfaceCandidate(const SurfaceCandidate &) noexcept = delete;
    SurfaceCandidate(SurfaceCandidate &&) noexcept = delete;
    SurfaceCandidate &operator=(const SurfaceCandidate &) noexcept = delete;
    SurfaceCandidate &operator=(SurfaceCandidate &&) noexcept = delete;
    [[nodiscard]] Var<Ray> ray() const noexcept;
    [[nodiscard]] Var<TriangleHit> hit() const noexcept;
    void commit() const noexcept;
    void terminate() const noexcept;
};
using TriangleCandidate = SurfaceCandidate;

/// A procedural-primitive (AABB) hit; the handler commits it at a distance of its own.
class ProceduralCandidate {
public:
    ProceduralCandidate(const ProceduralCandidate &) noexcept = delete;
    ProceduralCandidate(ProceduralCandidate &&) noexcept = delete;
    ProceduralCandidate &operator=(const ProceduralCandidate &) noexcept = delete;
    ProceduralCandidate &operator=(ProceduralCandidate &&) noexcept = delete;
    [[nodiscard]] Var<Ray> ray() const noexcept;
    [[nodiscard]] Var<ProceduralHit> hit() const noexcept;
    void commit(Expr<float> distance) const noexcept;
    void terminate() const noexcept;
};

namespace detail {

template<bool terminate_on_first>
class RayQuerySurfaceProxy;
template<bool terminate_on_first>
class RayQueryProceduralProxy;

template<bool terminate_on_first>
class RayQueryBase {
public:
    using SurfaceCandidateHandler = luisa::function<void(SurfaceCandidate &)>;
    using ProceduralCandidateHandler = luisa::function<void(ProceduralCandidate &)>;
    virtual ~RayQueryBase() noexcept = default;
    RayQueryBase(RayQueryBase &&) noexcept;
    RayQueryBase(const RayQueryBase &) noexcept = delete;
    RayQueryBase &operator=(RayQueryBase &&) noexcept = delete;
    RayQueryBase &operator=(const RayQueryBase &) noexcept = delete;
    [[nodiscard]] Var<CommittedHit> trace() const noexcept;
};

/// The query after its surface handler: only the procedural one is left to give.
template<bool terminate_on_first>
class RayQueryProceduralProxy : public RayQueryBase<terminate_on_first> {
public:
    using ProceduralCandidateHandler = luisa::function<void(ProceduralCandidate &)>;
    RayQueryProceduralProxy(const RayQueryProceduralProxy &) noexcept = delete;
    RayQueryProceduralProxy &operator=(RayQueryProceduralProxy &&) noexcept = delete;
    RayQueryProceduralProxy &operator=(const RayQueryProceduralProxy &) noexcept = delete;
    [[nodiscard]] RayQueryBase<terminate_on_first> on_procedural_candidate(const ProceduralCandidateHandler &handler) && noexcept;
};

/// The query after its procedural handler: only the surface one is left to give.
template<bool terminate_on_first>
class RayQuerySurfaceProxy : public RayQueryBase<terminate_on_first> {
public:
    using SurfaceCandidateHandler = luisa::function<void(SurfaceCandidate &)>;
    using TriangleCandidateHandler = SurfaceCandidateHandler;
    RayQuerySurfaceProxy(const RayQuerySurfaceProxy &) noexcept = delete;
    RayQuerySurfaceProxy &operator=(RayQuerySurfaceProxy &&) noexcept = delete;
    RayQuerySurfaceProxy &operator=(const RayQuerySurfaceProxy &) noexcept = delete;
    [[nodiscard]] RayQueryBase<terminate_on_first> on_surface_candidate(const SurfaceCandidateHandler &handler) && noexcept;
    [[nodiscard, deprecated("Please use on_surface_candidate(), which unifies the code paths for triangles and curves.")]]
    RayQueryBase<terminate_on_first> on_triangle_candidate(const TriangleCandidateHandler &handler) && noexcept;
};

/// What Accel::traverse returns: a query with neither handler given yet.
template<bool terminate_on_first>
class RayQueryProxy : public RayQueryBase<terminate_on_first> {
public:
    using SurfaceCandidateHandler = luisa::function<void(SurfaceCandidate &)>;
    using ProceduralCandidateHandler = luisa::function<void(ProceduralCandidate &)>;
    using TriangleCandidateHandler = SurfaceCandidateHandler;
    RayQueryProxy(const RayQueryProxy &) noexcept = delete;
    RayQueryProxy &operator=(RayQueryProxy &&) noexcept = delete;
    RayQueryProxy &operator=(const RayQueryProxy &) noexcept = delete;
    [[nodiscard]] RayQueryProceduralProxy<terminate_on_first> on_surface_candidate(const SurfaceCandidateHandler &handler) && noexcept;
    [[nodiscard]] RayQuerySurfaceProxy<terminate_on_first> on_procedural_candidate(const ProceduralCandidateHandler &handler) && noexcept;
    [[nodiscard, deprecated("Please use on_surface_candidate(), which unifies the code paths for triangles and curves.")]]
    RayQueryProceduralProxy<terminate_on_first> on_triangle_candidate(const TriangleCandidateHandler &handler) && noexcept;
};

}// namespace detail

using RayQueryAny = detail::RayQueryProxy<true>;
using RayQueryAll = detail::RayQueryProxy<false>;

}// namespace luisa::compute
