#pragma once
// kernel-tidy API model of luisa/tensor/tensor_builder.h: records a tensor graph (the
// tensors it allocates, the kernel's arguments and outputs, the expression scopes); one
// per thread while a TensorKernel compiles.
#include <type_traits>
#include <utility>
#include <luisa/core/stl/span.h>
#include <luisa/core/stl/vector.h>
#include <luisa/runtime/rhi/argument.h>
#include <luisa/tensor/tensor.h>
#include <luisa/tensor/expression.h>

namespace luisa::compute {

class LUISA_TENSOR_API TensorBuilder {
    friend class Tensor;
    luisa::vector<TensorData *> _tensors;
    ScopeExpr _root_expr{0u};
public:
    auto &root_expr() noexcept { return _root_expr; }
    auto const &root_expr() const noexcept { return _root_expr; }
    [[nodiscard]] luisa::span<TensorData *const> allocated_tensor() const noexcept { return {}; }
    [[nodiscard]] luisa::span<TensorData *const> arguments() const noexcept { return {}; }
    [[nodiscard]] luisa::span<std::pair<TensorData *, Argument::Buffer> const> captured_arguments() const noexcept { return {}; }
    [[nodiscard]] luisa::span<TensorData *const> outputs() const noexcept { return {}; }
    [[nodiscard]] ScopeExpr *current_scope() noexcept { return &_root_expr; }
    static void set_thd_local(TensorBuilder *builder);
    static TensorBuilder *get_thd_local();
    void *allocate_stack(uint64_t size_bytes, uint64_t alignment = 8) noexcept;
    template<typename T>
        requires(std::is_trivially_destructible_v<T>)
    T *allocate_array(uint64_t size) noexcept { return nullptr; }
    TensorData *allocate_tensor(luisa::span<uint64_t const> sizes, TensorElementType element_type) noexcept;
    void push_argument(TensorData *data) noexcept {}
    void push_captured_arguments(TensorData *data, Argument::Buffer buffer) noexcept {}
    void push_output(TensorData *data) noexcept {}
    void push_scope() noexcept;
    void pop_scope() noexcept;
    TensorBuilder() noexcept;
    ~TensorBuilder() noexcept;
    TensorBuilder(TensorBuilder const &) = delete;
    TensorBuilder(TensorBuilder &&) = delete;
};

}// namespace luisa::compute
