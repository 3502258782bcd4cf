#pragma once
// kernel-tidy API model of luisa/tensor/expression.h: the expressions of a tensor graph
// (TensorExpr and its kinds), as opaque declarations.
#include <cstdint>
#include <type_traits>
#include <luisa/core/macro.h>
#include <luisa/core/stl/vector.h>
#include <luisa/tensor/tensor.h>

#define LUISA_COMPUTE_TENSOR_EXPRRESSIONS \
    ScopeExpr, SetValueExpr, LCGRandExpr, GEMMExpr, ConvExpr, SoftmaxExpr

namespace luisa::compute {

class TensorExprVisitor;
class TensorExpr {
    uint64_t _idx;
public:
    explicit TensorExpr(uint64_t idx) noexcept : _idx(idx) {}
    enum struct Tag : uint32_t { EScopeExpr, ESetValueExpr, ELCGRandExpr, EGEMMExpr, EConvExpr, ESoftmaxExpr };
    [[nodiscard]] virtual Tag tag() noexcept = 0;
    [[nodiscard]] uint64_t idx() const noexcept { return _idx; }
    virtual void accept(TensorExprVisitor *) const noexcept = 0;
    virtual ~TensorExpr() noexcept = default;
};

class ScopeExpr : public TensorExpr {
public:
    luisa::vector<TensorExpr *> expressions;
    explicit ScopeExpr(uint64_t idx) noexcept : TensorExpr{idx} {}
    ~ScopeExpr() noexcept;
    Tag tag() noexcept override { return Tag::EScopeExpr; }
    void accept(TensorExprVisitor *) const noexcept override {}
    template<typename T, typename... Args>
        requires(std::is_base_of_v<TensorExpr, T> && std::is_constructible_v<T, uint64_t, Args &&...>)
    T *allocate_expr(Args &&...args) noexcept { return nullptr; }
};
class SetValueExpr;
class LCGRandExpr;
class GEMMExpr;
class ConvExpr;
class SoftmaxExpr;

}// namespace luisa::compute
