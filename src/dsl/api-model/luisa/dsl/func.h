#pragma once
// kernel-tidy API model of luisa/dsl/func.h: Kernel/Callable class templates and the same
// deduction-guide mechanism (dsl_function_t of the lambda's canonical signature).
#include <type_traits>
#include <luisa/core/stl/memory.h>
#include <luisa/core/stl/format.h>
#include <luisa/core/stl/functional.h>
#include <luisa/core/stl/optional.h>
#include <luisa/runtime/rhi/command.h>
#include <luisa/dsl/arg.h>
#include <luisa/dsl/var.h>
#include <luisa/dsl/resource.h>
#include <luisa/dsl/stmt.h>
#include <luisa/runtime/device.h>
#include <luisa/runtime/shader.h>

namespace luisa::compute {

namespace detail {

template<typename T>
struct definition_to_prototype {
    static_assert(always_false_v<T>, "Invalid type in function definition.");
};
template<typename T>
struct definition_to_prototype<Var<T>> { using type = T; };
template<typename T>
struct definition_to_prototype<const Var<T> &> { using type = T; };
template<typename T>
struct definition_to_prototype<Var<T> &> { using type = T &; };

template<typename T>
struct prototype_to_creation_tag { using type = ArgumentCreation; };
template<typename T>
struct prototype_to_creation_tag<const T &> { using type = ArgumentCreation; };
template<typename T>
struct prototype_to_creation_tag<T &> { using type = ReferenceArgumentCreation; };

template<typename T>
struct prototype_to_creation { using type = Var<T>; };
template<typename T>
struct prototype_to_creation<T &> { using type = Var<T> &; };
template<typename T>
struct prototype_to_creation<const T &> { using type = const Var<T> &; };

template<typename T>
struct prototype_to_callable_invocation { using type = Expr<T>; };
template<typename T>
struct prototype_to_callable_invocation<const T &> { using type = Expr<T>; };
template<typename T>
struct prototype_to_callable_invocation<T &> { using type = Ref<T>; };

template<typename T>
using definition_to_prototype_t = typename definition_to_prototype<T>::type;
template<typename T>
using prototype_to_creation_tag_t = typename prototype_to_creation_tag<T>::type;
template<typename T>
using prototype_to_creation_t = typename prototype_to_creation<T>::type;
template<typename T>
using prototype_to_callable_invocation_t = typename prototype_to_callable_invocation<T>::type;

template<size_t N>
[[nodiscard]] constexpr auto kernel_default_block_size() {
    if constexpr (N == 1) {
        return uint3{256u, 1u, 1u};
    } else if constexpr (N == 2) {
        return uint3{16u, 16u, 1u};
    } else {
        return uint3{8u, 8u, 8u};
    }
}

class FunctionBuilder;

}// namespace detail

template<typename T>
struct is_kernel : std::false_type {};
template<typename T>
struct is_callable : std::false_type {};

template<size_t N, typename... Args>
class Kernel;
template<typename...>
struct Kernel1D;
template<typename...>
struct Kernel2D;
template<typename...>
struct Kernel3D;

template<size_t N, typename... Args>
struct is_kernel<Kernel<N, Args...>> : std::true_type {};
template<typename... Args>
struct is_kernel<Kernel1D<Args...>> : std::true_type {};
template<typename... Args>
struct is_kernel<Kernel2D<Args...>> : std::true_type {};
template<typename... Args>
struct is_kernel<Kernel3D<Args...>> : std::true_type {};

template<size_t N, typename... Args>
class Kernel {

    static_assert(N == 1u || N == 2u || N == 3u);
    static_assert(std::negation_v<std::disjunction<std::is_pointer<Args>...>>);
    static_assert(std::negation_v<std::disjunction<std::is_reference<Args>...>>);

    template<typename...>
    friend struct Kernel1D;
    template<typename...>
    friend struct Kernel2D;
    template<typename...>
    friend struct Kernel3D;

private:
    using SharedFunctionBuilder = luisa::shared_ptr<const detail::FunctionBuilder>;
    SharedFunctionBuilder _builder{nullptr};

public:
    explicit Kernel(SharedFunctionBuilder builder) noexcept
        : _builder{std::move(builder)} {}

    /// Records the kernel by invoking def with argument Vars (the model invokes it too,
    /// so the lambda body is instantiated exactly as with the real header).
    template<typename Def>
        requires std::negation_v<is_callable<std::remove_cvref_t<Def>>> &&
                 std::negation_v<is_kernel<std::remove_cvref_t<Def>>>
    Kernel(Def &&def) noexcept {
        static_assert(std::is_invocable_r_v<void, Def, detail::prototype_to_creation_t<Args>...>);
        []<size_t... i>(auto &&def, std::index_sequence<i...>) noexcept {
            using arg_tuple = std::tuple<Args...>;
            std::tuple<Var<std::remove_cvref_t<Args>>...> args{
                Var<std::remove_cvref_t<Args>>{detail::prototype_to_creation_tag_t<Args>{}}...};
            luisa::invoke(std::forward<decltype(def)>(def),
                          static_cast<detail::prototype_to_creation_t<
                              std::tuple_element_t<i, arg_tuple>> &&>(std::get<i>(args))...);
        }(std::forward<Def>(def), std::index_sequence_for<Args...>{});
    }

    [[nodiscard]] const auto &function() const noexcept { return _builder; }
};

#define LUISA_KERNEL_BASE(N)                                     \
public                                                           \
    Kernel<N, Args...> {                                         \
        using Kernel<N, Args...>::Kernel;                        \
        Kernel##N##D(Kernel<N, Args...> k) noexcept              \
            : Kernel<N, Args...>{std::move(k._builder)} {}       \
        Kernel##N##D &operator=(Kernel<N, Args...> k) noexcept { \
            this->_builder = std::move(k._builder);              \
            return *this;                                        \
        }                                                        \
    }

template<typename... Args>
struct Kernel1D : LUISA_KERNEL_BASE(1);
template<typename... Args>
struct Kernel2D : LUISA_KERNEL_BASE(2);
template<typename... Args>
struct Kernel3D : LUISA_KERNEL_BASE(3);
template<typename... Args>
struct Kernel1D<void(Args...)> : LUISA_KERNEL_BASE(1);
template<typename... Args>
struct Kernel2D<void(Args...)> : LUISA_KERNEL_BASE(2);
template<typename... Args>
struct Kernel3D<void(Args...)> : LUISA_KERNEL_BASE(3);

#undef LUISA_KERNEL_BASE

namespace detail {

class CallableInvoke {
public:
    static constexpr auto max_argument_count = 64u;
private:
    std::array<const Expression *, max_argument_count> _args{};
    size_t _arg_count{0u};
public:
    CallableInvoke() noexcept = default;
    template<typename T>
    CallableInvoke &operator<<(Expr<T> arg) noexcept { return *this; }
    template<typename T>
    decltype(auto) operator<<(Ref<T> arg) noexcept { return (*this << Expr{arg}); }
    [[nodiscard]] auto args() const noexcept { return luisa::span{_args.data(), _arg_count}; }
};

}// namespace detail

/// Callable class. Callable<T> is not allowed, unless T is a function type.
template<typename T>
class Callable {
    static_assert(always_false_v<T>);
};

template<typename T>
struct is_callable<Callable<T>> : std::true_type {};

template<typename Ret, typename... Args>
class Callable<Ret(Args...)> {
    static_assert(std::negation_v<std::disjunction<std::is_pointer<Args>...>>);
private:
    luisa::shared_ptr<const detail::FunctionBuilder> _builder;

public:
    explicit Callable(luisa::shared_ptr<const detail::FunctionBuilder> builder) noexcept
        : _builder{std::move(builder)} {}

    template<typename Def>
        requires std::negation_v<is_callable<std::remove_cvref_t<Def>>> &&
                 std::negation_v<is_kernel<std::remove_cvref_t<Def>>>
    Callable(Def &&f) noexcept {
        static_assert(std::is_invocable_v<Def, detail::prototype_to_creation_t<Args>...>);
        []<size_t... i>(auto &&def, std::index_sequence<i...>) noexcept {
            using arg_tuple = std::tuple<Args...>;
            std::tuple<Var<std::remove_cvref_t<Args>>...> args{
                Var<std::remove_cvref_t<Args>>{detail::prototype_to_creation_tag_t<Args>{}}...};
            luisa::invoke(std::forward<decltype(def)>(def),
                          static_cast<detail::prototype_to_creation_t<
                              std::tuple_element_t<i, arg_tuple>> &&>(std::get<i>(args))...);
        }(std::forward<Def>(f), std::index_sequence_for<Args...>{});
    }
    void set_name(luisa::string_view name) const noexcept {}
    [[nodiscard]] auto function() const noexcept { return Function{_builder.get()}; }
    [[nodiscard]] auto const &function_builder() const & noexcept { return _builder; }
    [[nodiscard]] auto &&function_builder() && noexcept { return std::move(_builder); }

    /// Call the callable.
    auto operator()(detail::prototype_to_callable_invocation_t<Args>... args) const noexcept {
        detail::CallableInvoke invoke;
        static_cast<void>((invoke << ... << args));
        if constexpr (std::is_same_v<Ret, void>) {
            return;
        } else {
            return def<Ret>(detail::model_expression());
        }
    }
};

/// A callable of type T(T) implemented via host closures of type void(T &arg)
template<class T>
class CpuCallable {
public:
    using Func = luisa::function<void(T &)>;
private:
    luisa::shared_ptr<Func> _func;
public:
    template<class F>
        requires std::is_invocable_v<F, T &> && std::is_same_v<std::invoke_result_t<F, T &>, void>
    explicit CpuCallable(F func) noexcept {}
    template<class A>
        requires std::is_same_v<expr_value_t<A>, T>
    [[nodiscard]] Var<T> operator()(A arg) const noexcept { return Var<T>{detail::model_expression()}; }
};

template<typename T>
class ExternalCallable {
    static_assert(always_false_v<T>);
};

template<typename Ret, typename... Args>
class ExternalCallable<Ret(Args...)> {
public:
    ExternalCallable(luisa::string name) noexcept {}
    auto operator()(detail::prototype_to_callable_invocation_t<Args>... args) const noexcept {
        if constexpr (std::is_same_v<Ret, void>) {
            return;
        } else {
            return def<Ret>(detail::model_expression());
        }
    }
};

template<typename... Args>
void cuda_printf(luisa::string_view fmt, Args &&...args) noexcept {}

namespace detail {

template<typename R, typename... Args>
using function_signature = R(Args...);

template<typename>
struct canonical_signature;

template<typename Ret, typename... Args>
struct canonical_signature<Ret(Args...)> {
    using type = function_signature<Ret, Args...>;
};

template<typename Ret, typename... Args>
struct canonical_signature<Ret (*)(Args...)>
    : canonical_signature<Ret(Args...)> {};

template<typename F>
struct canonical_signature
    : canonical_signature<decltype(&F::operator())> {};

#define LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(...)               \
    template<typename Ret, typename Cls, typename... Args>        \
    struct canonical_signature<Ret (Cls::*)(Args...) __VA_ARGS__> \
        : canonical_signature<Ret(Args...)> {};
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE()
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(const)
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(volatile)
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(const volatile)
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(noexcept)
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(const noexcept)
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(volatile noexcept)
LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE(const volatile noexcept)
#undef LUISA_MAKE_FUNCTOR_CANONICAL_SIGNATURE

template<typename T>
using canonical_signature_t = typename canonical_signature<T>::type;

template<typename T>
struct dsl_function {
    using type = typename dsl_function<canonical_signature_t<std::remove_cvref_t<T>>>::type;
};

template<typename... Args>
struct dsl_function<function_signature<void, Args...>> {
    using type = function_signature<void, definition_to_prototype_t<Args>...>;
};

template<typename Ret, typename... Args>
struct dsl_function<function_signature<Ret, Args...>> {
    using type = function_signature<expr_value_t<Ret>, definition_to_prototype_t<Args>...>;
};

template<typename... Ret, typename... Args>
struct dsl_function<function_signature<std::tuple<Ret...>, Args...>> {
    using type = function_signature<std::tuple<expr_value_t<Ret>...>, definition_to_prototype_t<Args>...>;
};

template<typename RA, typename RB, typename... Args>
struct dsl_function<function_signature<std::pair<RA, RB>, Args...>> {
    using type = function_signature<std::tuple<expr_value_t<RA>, expr_value_t<RB>>, definition_to_prototype_t<Args>...>;
};

template<typename T>
struct dsl_function<Kernel1D<T>> { using type = T; };
template<typename T>
struct dsl_function<Kernel2D<T>> { using type = T; };
template<typename T>
struct dsl_function<Kernel3D<T>> { using type = T; };
template<typename T>
struct dsl_function<Callable<T>> { using type = T; };

template<typename T>
using dsl_function_t = typename dsl_function<T>::type;

}// namespace detail

namespace detail {
/// model helper for Device::compile<N>(lambda)
template<size_t N, typename Func>
struct model_kernel_of {
    using F = std::remove_cvref_t<Func>;
    using type = std::conditional_t<
        N == 1u, Kernel1D<dsl_function_t<F>>,
        std::conditional_t<N == 2u, Kernel2D<dsl_function_t<F>>, Kernel3D<dsl_function_t<F>>>>;
};
}// namespace detail

template<typename T>
Kernel1D(T &&) -> Kernel1D<detail::dsl_function_t<std::remove_cvref_t<T>>>;
template<typename T>
Kernel2D(T &&) -> Kernel2D<detail::dsl_function_t<std::remove_cvref_t<T>>>;
template<typename T>
Kernel3D(T &&) -> Kernel3D<detail::dsl_function_t<std::remove_cvref_t<T>>>;
template<typename T>
Callable(T &&) -> Callable<detail::dsl_function_t<std::remove_cvref_t<T>>>;

namespace detail {
struct CallableOutliner {
    luisa::string _name;
    template<typename F>
    void operator%(F &&body) && noexcept;
};
}// namespace detail

template<typename F>
void outline(F &&f) noexcept {
    return Callable{std::forward<F>(f)}();
}

namespace detail {
template<typename S>
[[nodiscard]] inline auto outliner_with_comment(S &&s) noexcept {
    comment(std::forward<S>(s));
    return CallableOutliner{};
}
template<typename S>
[[nodiscard]] inline auto outliner_with_comment(luisa::string_view name, S &&s) noexcept {
    comment(std::forward<S>(s));
    CallableOutliner out{};
    return out;
}
}// namespace detail

template<typename F>
class Lambda {
private:
    luisa::string _comment;
    luisa::function<F> _f;
public:
    template<typename Func>
    Lambda(Func &&f) noexcept : _f(std::forward<Func>(f)) {}
    template<typename S, typename Func>
    Lambda(S &&s, Func &&f) noexcept : _f{std::forward<Func>(f)} {}
    Lambda(Lambda &&) noexcept = default;
    Lambda(const Lambda &) noexcept = default;
    Lambda &operator=(Lambda &&) noexcept = default;
    Lambda &operator=(const Lambda &) noexcept = default;
    template<typename... Args>
    auto operator()(Args &&...args) const noexcept {
        return _f(std::forward<Args>(args)...);
    }
};

template<typename F>
Lambda(F &&) -> Lambda<detail::canonical_signature_t<std::remove_cvref_t<F>>>;
template<typename S, typename F>
Lambda(S &&, F &&) -> Lambda<detail::canonical_signature_t<std::remove_cvref_t<F>>>;

namespace detail {
template<typename F>
inline void CallableOutliner::operator%(F &&body) && noexcept {
    return Callable{std::forward<F>(body)}();
}
}// namespace detail

}// namespace luisa::compute
