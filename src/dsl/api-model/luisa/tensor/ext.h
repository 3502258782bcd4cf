#pragma once
// kernel-tidy API model of luisa/tensor/ext.h: the device extension that runs tensor
// graphs natively (declarations only).
#include <luisa/core/stl/memory.h>
#include <luisa/core/stl/span.h>
#include <luisa/core/stl/string.h>
#include <luisa/runtime/device.h>
#include <luisa/runtime/rhi/command.h>
#include <luisa/runtime/rhi/resource.h>

namespace luisa::compute {

class TensorBuilder;
class TensorExt {
public:
    static constexpr luisa::string_view name = "TensorExt";
    [[nodiscard]] virtual ResourceCreationInfo create_graph(TensorBuilder &&builder) noexcept = 0;
    virtual void destroy_graph(uint64_t handle) noexcept = 0;
    [[nodiscard]] virtual luisa::unique_ptr<Command> execute(uint64_t graph_handle,
                                                             luisa::span<uint64_t const> resources) noexcept;
    [[nodiscard]] virtual DeviceInterface *device() const noexcept = 0;
};

}// namespace luisa::compute
