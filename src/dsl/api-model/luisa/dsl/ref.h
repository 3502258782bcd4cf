#pragma once
// kernel-tidy API model of luisa/dsl/ref.h
#include <luisa/dsl/expr.h>

namespace luisa::compute {

template<typename T>
struct Var;

inline namespace dsl {
/// Assign rhs to lhs
template<typename Lhs, typename Rhs>
void assign(Lhs &&lhs, Rhs &&rhs) noexcept;// defined in dsl/stmt.h
}// namespace dsl

namespace detail {

/// Enable subscript access
template<typename T>
struct RefEnableSubscriptAccess {
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto &operator[](I &&index) & noexcept {
        using Elem = std::remove_cvref_t<decltype(std::declval<expr_value_t<T>>()[0])>;
        return *static_cast<Var<Elem> *>(nullptr);
    }
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] const auto &operator[](I &&index) const & noexcept {
        return (*const_cast<RefEnableSubscriptAccess *>(this))[std::forward<I>(index)];
    }
};

/// Enable get member by index
template<typename T>
struct RefEnableGetMemberByIndex {
    template<size_t i>
    [[nodiscard]] const auto &get() const noexcept {
        auto self = const_cast<T *>(static_cast<const T *>(this));
        return (*self)[static_cast<uint>(i)];
    }
};

template<typename T>
struct RefEnableGetAddress {
    [[nodiscard]] Var<ulong> address() const noexcept;
};

#define LUISA_REF_COMMON(...)                                              \
private:                                                                   \
    const Expression *_expression;                                         \
                                                                           \
public:                                                                    \
    explicit Ref(const Expression *e) noexcept : _expression{e} {}         \
    [[nodiscard]] auto expression() const noexcept { return _expression; } \
    Ref(Ref &&) noexcept = default;                                        \
    Ref(Var<__VA_ARGS__> &&other) noexcept                                 \
        : Ref{static_cast<Ref &&>(other)} {}                               \
    Ref(const Ref &) noexcept = default;                                   \
    template<typename Rhs>                                                 \
    void operator=(Rhs &&rhs) & noexcept {                                 \
        dsl::assign(*this, std::forward<Rhs>(rhs));                        \
    }                                                                      \
    [[nodiscard]] operator Expr<__VA_ARGS__>() const noexcept {            \
        return Expr<__VA_ARGS__>{this->expression()};                      \
    }                                                                      \
    void operator=(Ref rhs) & noexcept { (*this) = Expr<__VA_ARGS__>{rhs}; }

/// Ref<T>
template<typename T>
struct Ref
    : detail::ExprEnableStaticCast<Ref<T>>,
      detail::ExprEnableBitwiseCast<Ref<T>>,
      detail::RefEnableGetAddress<Ref<T>> {
    static_assert(concepts::scalar<T>);
    LUISA_REF_COMMON(T)
    template<size_t i>
    [[nodiscard]] const auto &get() const noexcept {
        static_assert(i == 0u);
        return *this;
    }
};

/// Ref<std::array<T, N>>
template<typename T, size_t N>
struct Ref<std::array<T, N>>
    : detail::ExprEnableBitwiseCast<Ref<std::array<T, N>>>,
      detail::RefEnableSubscriptAccess<Ref<std::array<T, N>>>,
      detail::RefEnableGetMemberByIndex<Ref<std::array<T, N>>>,
      detail::RefEnableGetAddress<Ref<std::array<T, N>>> {
    LUISA_REF_COMMON(std::array<T, N>)
};

/// Ref<T[N]>
template<typename T, size_t N>
struct Ref<T[N]>
    : detail::ExprEnableBitwiseCast<Ref<T[N]>>,
      detail::RefEnableSubscriptAccess<Ref<T[N]>>,
      detail::RefEnableGetMemberByIndex<Ref<T[N]>>,
      detail::RefEnableGetAddress<Ref<T[N]>> {
    LUISA_REF_COMMON(T[N])
};

/// Ref<Matrix<float, N>>
template<size_t N>
struct Ref<Matrix<float, N>>
    : detail::ExprEnableBitwiseCast<Ref<Matrix<float, N>>>,
      detail::RefEnableSubscriptAccess<Ref<Matrix<float, N>>>,
      detail::RefEnableGetMemberByIndex<Ref<Matrix<float, N>>>,
      detail::RefEnableGetAddress<Ref<Matrix<float, N>>> {
    LUISA_REF_COMMON(Matrix<float, N>)
};

/// Ref<std::tuple<T...>>
template<typename... T>
struct Ref<std::tuple<T...>> {
    LUISA_REF_COMMON(std::tuple<T...>)
    template<size_t i>
    [[nodiscard]] const auto &get() const noexcept {
        using M = std::tuple_element_t<i, std::tuple<T...>>;
        return *static_cast<Var<M> *>(nullptr);
    }
};

/// Ref<Vector<T, 2>>
template<typename T>
struct Ref<Vector<T, 2>>
    : detail::ExprEnableStaticCast<Ref<Vector<T, 2>>>,
      detail::ExprEnableBitwiseCast<Ref<Vector<T, 2>>>,
      detail::RefEnableSubscriptAccess<Ref<Vector<T, 2>>>,
      detail::RefEnableGetMemberByIndex<Ref<Vector<T, 2>>>,
      detail::RefEnableGetAddress<Ref<Vector<T, 2>>> {
    LUISA_REF_COMMON(Vector<T, 2>)
    Var<T> x{detail::swizzle_expression()};
    Var<T> y{detail::swizzle_expression()};
#include <luisa/dsl/swizzle_2.inl.h>
};

/// Ref<Vector<T, 3>>
template<typename T>
struct Ref<Vector<T, 3>>
    : detail::ExprEnableStaticCast<Ref<Vector<T, 3>>>,
      detail::ExprEnableBitwiseCast<Ref<Vector<T, 3>>>,
      detail::RefEnableSubscriptAccess<Ref<Vector<T, 3>>>,
      detail::RefEnableGetMemberByIndex<Ref<Vector<T, 3>>>,
      detail::RefEnableGetAddress<Ref<Vector<T, 3>>> {
    LUISA_REF_COMMON(Vector<T, 3>)
    Var<T> x{detail::swizzle_expression()};
    Var<T> y{detail::swizzle_expression()};
    Var<T> z{detail::swizzle_expression()};
#include <luisa/dsl/swizzle_3.inl.h>
};

/// Ref<Vector<T, 4>>
template<typename T>
struct Ref<Vector<T, 4>>
    : detail::ExprEnableStaticCast<Ref<Vector<T, 4>>>,
      detail::ExprEnableBitwiseCast<Ref<Vector<T, 4>>>,
      detail::RefEnableSubscriptAccess<Ref<Vector<T, 4>>>,
      detail::RefEnableGetMemberByIndex<Ref<Vector<T, 4>>>,
      detail::RefEnableGetAddress<Ref<Vector<T, 4>>> {
    LUISA_REF_COMMON(Vector<T, 4>)
    Var<T> x{detail::swizzle_expression()};
    Var<T> y{detail::swizzle_expression()};
    Var<T> z{detail::swizzle_expression()};
    Var<T> w{detail::swizzle_expression()};
#include <luisa/dsl/swizzle_4.inl.h>
};

#undef LUISA_REF_COMMON

}// namespace detail

}// namespace luisa::compute
