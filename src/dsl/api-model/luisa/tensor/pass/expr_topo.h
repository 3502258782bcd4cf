#pragma once
// kernel-tidy API model of luisa/tensor/pass/expr_topo.h: orders a tensor graph's
// expressions by their dependencies (declarations only).
#include <cstddef>
#include <luisa/core/stl/span.h>
#include <luisa/core/stl/vector.h>
#include <luisa/tensor/tensor.h>
#include <luisa/tensor/expression.h>

namespace luisa::compute {

class LUISA_TENSOR_API ExprTopo {
public:
    [[nodiscard]] luisa::vector<TensorExpr *> topo_sort() noexcept;
    void init(luisa::span<TensorExpr *const> exprs, size_t tensor_count) noexcept;
    ExprTopo() noexcept;
    ~ExprTopo() noexcept;
    ExprTopo(ExprTopo const &) = delete;
    ExprTopo(ExprTopo &&) = delete;
};

}// namespace luisa::compute
