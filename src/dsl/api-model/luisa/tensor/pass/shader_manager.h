#pragma once
// kernel-tidy API model of luisa/tensor/pass/shader_manager.h: the fallback backend's cache
// of tensor shaders (declarations only).
#include <array>
#include <cstddef>
#include <luisa/core/basic_types.h>
#include <luisa/runtime/device.h>
#include <luisa/tensor/expression.h>

namespace luisa::compute {

class LUISA_TENSOR_API ShaderManager {
public:
    struct Key {
        TensorExpr::Tag tag;
        std::array<uint, 4> user_ids;
    };
    struct ShaderDispatch {
        uint64_t shader_handle;
        uint3 desired_dispatch_size;
        size_t uniform_size;
    };
    ShaderManager(DeviceInterface *device) noexcept;
    ~ShaderManager() noexcept;
};

}// namespace luisa::compute
