#pragma once
// kernel-tidy API model of luisa/dsl/constant.h
#include <luisa/dsl/var.h>
#include <luisa/core/stl/span.h>
namespace luisa::compute {
template<typename T>
class Constant {
public:
    Constant() noexcept = default;
    Constant(luisa::span<const T> data) noexcept {}
    Constant(const T *data, size_t size) noexcept {}
    template<typename U>
    Constant(U &&data) noexcept {}
    Constant(std::initializer_list<T> init) noexcept {}
    Constant(Constant &&) noexcept = default;
    Constant(const Constant &) noexcept = delete;
    Constant &operator=(Constant &&) noexcept = delete;
    Constant &operator=(const Constant &) noexcept = delete;
    [[nodiscard]] auto operator->() const noexcept { return this; }
    template<typename U>
        requires is_integral_expr_v<U>
    [[nodiscard]] auto operator[](U &&index) const noexcept { return def<T>(detail::model_expression()); }
    template<typename I>
    [[nodiscard]] auto read(I &&index) const noexcept { return def<T>(detail::model_expression()); }
};
template<typename T>
Constant(luisa::span<T> data) -> Constant<T>;
template<typename T>
Constant(luisa::span<const T> data) -> Constant<T>;
template<typename T>
Constant(std::initializer_list<T>) -> Constant<T>;
template<concepts::container T>
Constant(T &&) -> Constant<std::remove_const_t<typename std::remove_cvref_t<T>::value_type>>;
}// namespace luisa::compute
