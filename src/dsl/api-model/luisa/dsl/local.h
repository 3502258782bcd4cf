#pragma once
// kernel-tidy API model of luisa/dsl/local.h (dynamically sized local arrays)
#include <luisa/dsl/var.h>
namespace luisa::compute {
template<typename T>
class Local {
private:
    const RefExpr *_expression{nullptr};
    size_t _size{};
public:
    explicit Local(size_t n) noexcept : _size{n} {}
    Local(Local &&) noexcept = default;
    Local(const Local &another) noexcept = default;
    Local &operator=(const Local &rhs) noexcept { return *this; }
    Local &operator=(Local &&rhs) noexcept { return *this; }
    [[nodiscard]] auto expression() const noexcept { return _expression; }
    [[nodiscard]] auto size() const noexcept { return _size; }
    template<typename U>
        requires is_integral_expr_v<U>
    [[nodiscard]] Var<T> &operator[](U &&index) const noexcept { return *static_cast<Var<T> *>(nullptr); }
    template<typename I>
    [[nodiscard]] auto read(I &&index) const noexcept { return def<T>(detail::model_expression()); }
    template<typename I, typename U>
    void write(I &&i, U &&u) const noexcept {}
    void requires_grad() const noexcept;
    void backward() const noexcept;
    void backward(const Local<T> &grad) const noexcept;
    [[nodiscard]] Local<T> grad() const noexcept;
    [[nodiscard]] Local<T> detach() const noexcept;
    [[nodiscard]] auto address() const noexcept { return def<uint64_t>(detail::model_expression()); }
};
}// namespace luisa::compute
