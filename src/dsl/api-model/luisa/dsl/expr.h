#pragma once
// kernel-tidy API model of luisa/dsl/expr.h: same class templates, constructors and members;
// bodies are stubs (nothing is recorded).
#include <array>
#include <tuple>
#include <utility>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/image.h>
#include <luisa/runtime/volume.h>
#include <luisa/runtime/bindless_array.h>
#include <luisa/ast/function_builder.h>
#include <luisa/dsl/expr_traits.h>
#include <luisa/dsl/arg.h>

namespace luisa::compute {

inline namespace dsl {
template<typename T>
[[nodiscard]] auto def(const Expression *expr) noexcept -> Var<expr_value_t<T>>;
template<typename T>
[[nodiscard]] auto def(T &&x) noexcept -> Var<expr_value_t<T>>;
}// namespace dsl

namespace detail {
/// Extract or construct expression from given data
template<typename T>
[[nodiscard]] inline auto extract_expression(T &&v) noexcept -> const Expression * {
    return model_expression();
}
}// namespace detail

#define LUISA_EXPR_COMMON(...)                                                   \
private:                                                                         \
    const Expression *_expression;                                               \
                                                                                 \
public:                                                                          \
    explicit Expr(const Expression *expr) noexcept : _expression{expr} {}        \
    [[nodiscard]] auto expression() const noexcept { return this->_expression; } \
    Expr(Expr &&another) noexcept = default;                                     \
    Expr(const Expr &another) noexcept = default;                                \
    Expr &operator=(Expr) noexcept = delete;

#define LUISA_EXPR_FROM_LITERAL(...)                                        \
    template<typename U>                                                    \
        requires std::same_as<U, __VA_ARGS__>                               \
    Expr(U literal) noexcept : Expr{detail::model_expression()} {}

namespace detail {
template<typename T>
struct ExprEnableStaticCast;
template<typename T>
struct ExprEnableBitwiseCast;
template<typename T>
struct ExprEnableSubscriptAccess;
template<typename T>
struct ExprEnableGetMemberByIndex;
}// namespace detail

inline namespace dsl {
/// Compose tuple of values to var of tuple
template<typename... T>
[[nodiscard]] inline auto compose(std::tuple<T...> t) noexcept {
    return Var<std::tuple<expr_value_t<T>...>>{detail::model_expression()};
}
/// Do nothing
template<typename T>
[[nodiscard]] inline auto compose(T &&v) noexcept { return std::forward<T>(v); }
/// Compose values to var of tuple
template<typename... T>
[[nodiscard]] inline auto compose(T &&...v) noexcept {
    return Var<std::tuple<expr_value_t<T>...>>{detail::model_expression()};
}
/// Decompose var of tuple to tuple
template<typename T>
[[nodiscard]] inline auto decompose(T &&t) noexcept {
    return []<typename... M>(std::tuple<M...> *) {
        return std::make_tuple(Expr<M>{detail::model_expression()}...);
    }(static_cast<struct_member_tuple_t<expr_value_t<T>> *>(nullptr));
}
}// namespace dsl

/// Class of Expr<T> (scalars and custom structs)
template<typename T>
struct Expr
    : detail::ExprEnableStaticCast<Expr<T>>,
      detail::ExprEnableBitwiseCast<Expr<T>> {
    static_assert(is_scalar_v<T> || is_custom_struct_v<T>);
    LUISA_EXPR_COMMON(T)
    LUISA_EXPR_FROM_LITERAL(T)
    template<size_t i>
    [[nodiscard]] auto get() const noexcept {
        static_assert(i == 0u);
        return *this;
    }
};

/// Class of Expr<std::array<T, N>>
template<typename T, size_t N>
struct Expr<std::array<T, N>>
    : detail::ExprEnableBitwiseCast<Expr<std::array<T, N>>>,
      detail::ExprEnableSubscriptAccess<Expr<std::array<T, N>>>,
      detail::ExprEnableGetMemberByIndex<Expr<std::array<T, N>>> {
    LUISA_EXPR_COMMON(std::array<T, N>)
};

/// Class of Expr<T[N]>
template<typename T, size_t N>
struct Expr<T[N]>
    : detail::ExprEnableBitwiseCast<Expr<T[N]>>,
      detail::ExprEnableSubscriptAccess<Expr<T[N]>>,
      detail::ExprEnableGetMemberByIndex<Expr<T[N]>> {
    LUISA_EXPR_COMMON(T[N])
};

/// Class of Expr<Matrix<float, N>>
template<size_t N>
struct Expr<Matrix<float, N>>
    : detail::ExprEnableBitwiseCast<Expr<Matrix<float, N>>>,
      detail::ExprEnableSubscriptAccess<Expr<Matrix<float, N>>>,
      detail::ExprEnableGetMemberByIndex<Expr<Matrix<float, N>>> {
    LUISA_EXPR_COMMON(Matrix<float, N>)
    LUISA_EXPR_FROM_LITERAL(Matrix<float, N>)
};

/// Class of Expr<std::tuple<T...>>
template<typename... T>
struct Expr<std::tuple<T...>> {
    LUISA_EXPR_COMMON(std::tuple<T...>)
    template<size_t i>
    [[nodiscard]] auto get() const noexcept {
        using M = std::tuple_element_t<i, std::tuple<T...>>;
        return Expr<M>{detail::model_expression()};
    };
};

/// Class of Expr<Vector<T, 2>>
template<typename T>
struct Expr<Vector<T, 2>>
    : detail::ExprEnableStaticCast<Expr<Vector<T, 2>>>,
      detail::ExprEnableBitwiseCast<Expr<Vector<T, 2>>>,
      detail::ExprEnableSubscriptAccess<Expr<Vector<T, 2>>>,
      detail::ExprEnableGetMemberByIndex<Expr<Vector<T, 2>>> {
    LUISA_EXPR_COMMON(Vector<T, 2>)
    LUISA_EXPR_FROM_LITERAL(Vector<T, 2>)
    Expr<T> x{detail::swizzle_expression()};
    Expr<T> y{detail::swizzle_expression()};
#include <luisa/dsl/swizzle_2.inl.h>
};

/// Class of Expr<Vector<T, 3>>
template<typename T>
struct Expr<Vector<T, 3>>
    : detail::ExprEnableStaticCast<Expr<Vector<T, 3>>>,
      detail::ExprEnableBitwiseCast<Expr<Vector<T, 3>>>,
      detail::ExprEnableSubscriptAccess<Expr<Vector<T, 3>>>,
      detail::ExprEnableGetMemberByIndex<Expr<Vector<T, 3>>> {
    LUISA_EXPR_COMMON(Vector<T, 3>)
    LUISA_EXPR_FROM_LITERAL(Vector<T, 3>)
    Expr<T> x{detail::swizzle_expression()};
    Expr<T> y{detail::swizzle_expression()};
    Expr<T> z{detail::swizzle_expression()};
#include <luisa/dsl/swizzle_3.inl.h>
};

/// Class of Expr<Vector<T, 4>>
template<typename T>
struct Expr<Vector<T, 4>>
    : detail::ExprEnableStaticCast<Expr<Vector<T, 4>>>,
      detail::ExprEnableBitwiseCast<Expr<Vector<T, 4>>>,
      detail::ExprEnableSubscriptAccess<Expr<Vector<T, 4>>>,
      detail::ExprEnableGetMemberByIndex<Expr<Vector<T, 4>>> {
    LUISA_EXPR_COMMON(Vector<T, 4>)
    LUISA_EXPR_FROM_LITERAL(Vector<T, 4>)
    Expr<T> x{detail::swizzle_expression()};
    Expr<T> y{detail::swizzle_expression()};
    Expr<T> z{detail::swizzle_expression()};
    Expr<T> w{detail::swizzle_expression()};
#include <luisa/dsl/swizzle_4.inl.h>
};

#undef LUISA_EXPR_COMMON
#undef LUISA_EXPR_FROM_LITERAL

namespace detail {

/// Enable static cast to type Dest
template<typename T>
struct ExprEnableStaticCast {
    template<typename Dest>
        requires concepts::static_convertible<expr_value_t<T>, expr_value_t<Dest>>
    [[nodiscard]] auto cast() const noexcept {
        return dsl::def<expr_value_t<Dest>>(model_expression());
    }
};

/// Enable bitwise cast to type Dest
template<typename T>
struct ExprEnableBitwiseCast {
    template<typename Dest>
        requires concepts::bitwise_convertible<expr_value_t<T>, expr_value_t<Dest>>
    [[nodiscard]] auto as() const noexcept {
        return dsl::def<expr_value_t<Dest>>(model_expression());
    }
    template<typename Dest>
        requires concepts::bitwise_convertible<expr_value_t<T>, expr_value_t<Dest>>
    [[nodiscard]] auto bitcast() const noexcept {
        return dsl::def<expr_value_t<Dest>>(model_expression());
    }
};

/// Enable subscript access
template<typename T>
struct ExprEnableSubscriptAccess {
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto operator[](I &&index) const noexcept {
        using Elem = std::remove_cvref_t<decltype(std::declval<expr_value_t<T>>()[0])>;
        return dsl::def<Elem>(model_expression());
    }
};

/// Enable get member by index
template<typename T>
struct ExprEnableGetMemberByIndex {
    template<size_t i>
    [[nodiscard]] auto get() const noexcept {
        return static_cast<const T *>(this)->operator[](static_cast<uint>(i));
    }
};

}// namespace detail

// deduction guides
template<typename T>
Expr(Expr<T>) -> Expr<T>;
template<typename T>
Expr(const Var<T> &) -> Expr<T>;
template<typename T>
Expr(detail::Ref<T>) -> Expr<T>;
template<concepts::basic T>
Expr(T) -> Expr<T>;

#define LUISA_RESOURCE_PROXY_AVOID_CONSTRUCTION(Class) \
    Class() noexcept = delete;                         \
    Class(Class &&) noexcept = delete;                 \
    Class(const Class &) noexcept = delete;            \
    Class &operator=(Class &&) noexcept = delete;      \
    Class &operator=(const Class &) noexcept = delete; \
    ~Class() noexcept = delete;

}// namespace luisa::compute
