#pragma once
// kernel-tidy API model of luisa/tensor/fallback/i_tensor_expr_executor.h: how the fallback
// backend runs one tensor expression (declarations only).
#include <luisa/core/stl/unordered_map.h>
#include <luisa/runtime/command_list.h>
#include <luisa/runtime/rhi/argument.h>
#include <luisa/tensor/expression.h>
#include <luisa/tensor/pass/shader_manager.h>

namespace luisa::compute {

struct FallbackTensorKernel;
struct FallbackTensorCallback {
    luisa::unordered_map<TensorData *, Argument::Buffer> *args;
    FallbackTensorKernel *kernel;
    ShaderManager *shader_manager;
    Argument::Buffer get_tensor_buffer(TensorData *data);
};
struct ITensorExprExecutor {
    virtual ~ITensorExprExecutor() = default;
    ITensorExprExecutor() = default;
    ITensorExprExecutor(ITensorExprExecutor const &) = delete;
    ITensorExprExecutor(ITensorExprExecutor &&) = delete;
    virtual void execute(FallbackTensorCallback *callback, CommandList &cmdlist) const = 0;
};

}// namespace luisa::compute
