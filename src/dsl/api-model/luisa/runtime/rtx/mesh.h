#pragma once
// kernel-tidy API model of luisa/runtime/rtx/mesh.h (+ AccelOption, build requests)
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/command.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/rtx/triangle.h>
namespace luisa::compute {
enum struct AccelBuildRequest : uint32_t { PREFER_UPDATE, FORCE_BUILD };
struct AccelOption {
    enum struct UsageHint : uint32_t { FAST_TRACE, FAST_BUILD };
    UsageHint hint{UsageHint::FAST_TRACE};
    bool allow_compaction{true};
    bool allow_update{false};
};
class Mesh final : public Resource {
public:
    using BuildRequest = AccelBuildRequest;
    Mesh() noexcept = default;
    Mesh(Mesh &&) noexcept = default;
    Mesh &operator=(Mesh &&) noexcept = default;
    [[nodiscard]] luisa::unique_ptr<Command> build(BuildRequest request = BuildRequest::PREFER_UPDATE) noexcept { return {}; }
};
class ProceduralPrimitive final : public Resource {
public:
    using BuildRequest = AccelBuildRequest;
    ProceduralPrimitive() noexcept = default;
    ProceduralPrimitive(ProceduralPrimitive &&) noexcept = default;
    ProceduralPrimitive &operator=(ProceduralPrimitive &&) noexcept = default;
    [[nodiscard]] luisa::unique_ptr<Command> build(BuildRequest request = BuildRequest::PREFER_UPDATE) noexcept { return {}; }
};
}// namespace luisa::compute
