#pragma once
// kernel-tidy API model of luisa/tensor/fallback/set_value_impl.h: the fallback backend's
// executor of a SetValueExpr (declarations only).
#include <luisa/tensor/fallback/i_tensor_expr_executor.h>

namespace luisa::compute {

struct SetValueImpl : ITensorExprExecutor {
    SetValueExpr *expr;
    SetValueImpl(DeviceInterface *device, ShaderManager *shader_manager, SetValueExpr *expr);
    ~SetValueImpl();
    void execute(FallbackTensorCallback *callback, CommandList &cmdlist) const override;
};

}// namespace luisa::compute
