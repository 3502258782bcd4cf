#pragma once
// kernel-tidy API model of luisa/tensor/fallback/matmul_impl.h: the fallback backend's
// executor of a GEMMExpr (declarations only).
#include <luisa/tensor/fallback/i_tensor_expr_executor.h>

namespace luisa::compute {

struct MatMulImpl : ITensorExprExecutor {
    GEMMExpr *expr;
    MatMulImpl(DeviceInterface *device, ShaderManager *shader_manager, GEMMExpr *expr);
    ~MatMulImpl();
    void execute(FallbackTensorCallback *callback, CommandList &cmdlist) const override;
};

}// namespace luisa::compute
