#pragma once
// kernel-tidy API model of luisa/tensor/fallback/softmax_impl.h: the fallback backend's
// executor of a SoftmaxExpr (declarations only).
#include <luisa/tensor/fallback/i_tensor_expr_executor.h>

namespace luisa::compute {

struct SoftmaxImpl : ITensorExprExecutor {
    SoftmaxExpr *expr;
    SoftmaxImpl(DeviceInterface *device, ShaderManager *shader_manager, SoftmaxExpr *expr);
    ~SoftmaxImpl();
    void execute(FallbackTensorCallback *callback, CommandList &cmdlist) const override;
};

}// namespace luisa::compute
