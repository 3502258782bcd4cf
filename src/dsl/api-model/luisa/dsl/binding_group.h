#pragma once
// kernel-tidy API model of luisa/dsl/binding_group.h.
// LUISA_BINDING_GROUP(S, members...) { extension methods }; makes a host struct S of
// resources and values one kernel or Callable argument: Var<S> (one Var per member, built
// from detail::ArgumentCreation, move-only, `->` reaching the extension methods), Expr<S>
// (one Expr per member, from a Var<S>), detail::shader_argument_encode_count<S> (the sum of
// the members'), and `invoke << s` for shaders; then the open head
// `struct luisa_compute_extension<S> final : luisa::compute::Var<S>`, as the real macro.
// LUISA_BINDING_GROUP_TEMPLATE(TEMPLATE, S, ...) does the same for a template S, TEMPLATE()
// spelling its template head.
#include <luisa/dsl/struct.h>

#define LUISA_BINDING_GROUP_MODEL_MEMBER_TYPE(m) \
    using member_type_##m = std::remove_cvref_t<decltype(std::declval<this_type>().m)>;
#define LUISA_BINDING_GROUP_MODEL_VAR(m) Var<member_type_##m> m;
#define LUISA_BINDING_GROUP_MODEL_EXPR(m) Expr<member_type_##m> m;
#define LUISA_BINDING_GROUP_MODEL_VAR_INIT(m) m(detail::ArgumentCreation{})
#define LUISA_BINDING_GROUP_MODEL_EXPR_INIT(m) m(s.m)
#define LUISA_BINDING_GROUP_MODEL_COUNT(m) shader_argument_encode_count<member_type_##m>::value +
#define LUISA_BINDING_GROUP_MODEL_ENCODE(m) invoke << s.m;

#define LUISA_BINDING_GROUP_MODEL_IMPL(HEAD, FUNCTION_HEAD, S, ...)                                \
    LUISA_MACRO_EVAL(HEAD())                                                                       \
    struct luisa_compute_extension<S>;                                                             \
    namespace luisa::compute {                                                                     \
    LUISA_MACRO_EVAL(HEAD())                                                                       \
    struct Var<S> {                                                                                \
        using is_binding_group = void;                                                             \
        using this_type = S;                                                                       \
        LUISA_MAP(LUISA_BINDING_GROUP_MODEL_MEMBER_TYPE, __VA_ARGS__)                              \
        LUISA_MAP(LUISA_BINDING_GROUP_MODEL_VAR, __VA_ARGS__)                                      \
        explicit Var(detail::ArgumentCreation) noexcept                                            \
            : LUISA_MAP_LIST(LUISA_BINDING_GROUP_MODEL_VAR_INIT, __VA_ARGS__) {}                   \
        Var(Var &&) noexcept = default;                                                            \
        Var(const Var &) noexcept = delete;                                                        \
        Var &operator=(Var &&) noexcept = delete;                                                  \
        Var &operator=(const Var &) noexcept = delete;                                             \
        [[nodiscard]] auto operator->() noexcept {                                                 \
            return reinterpret_cast<luisa_compute_extension<this_type> *>(this);                   \
        }                                                                                          \
        [[nodiscard]] auto operator->() const noexcept {                                           \
            return reinterpret_cast<const luisa_compute_extension<this_type> *>(this);             \
        }                                                                                          \
    };                                                                                             \
    LUISA_MACRO_EVAL(HEAD())                                                                       \
    struct Expr<S> {                                                                               \
        using is_binding_group = void;                                                             \
        using this_type = S;                                                                       \
        LUISA_MAP(LUISA_BINDING_GROUP_MODEL_MEMBER_TYPE, __VA_ARGS__)                              \
        LUISA_MAP(LUISA_BINDING_GROUP_MODEL_EXPR, __VA_ARGS__)                                     \
        Expr(const Var<S> &s) noexcept                                                             \
            : LUISA_MAP_LIST(LUISA_BINDING_GROUP_MODEL_EXPR_INIT, __VA_ARGS__) {}                  \
        Expr(Expr &&) noexcept = default;                                                          \
        Expr(const Expr &) noexcept = default;                                                     \
        Expr &operator=(Expr) noexcept = delete;                                                   \
    };                                                                                             \
    namespace detail {                                                                             \
    LUISA_MACRO_EVAL(HEAD())                                                                       \
    struct shader_argument_encode_count<S> {                                                       \
        using this_type = S;                                                                       \
        LUISA_MAP(LUISA_BINDING_GROUP_MODEL_MEMBER_TYPE, __VA_ARGS__)                              \
        static constexpr uint value = LUISA_MAP(LUISA_BINDING_GROUP_MODEL_COUNT, __VA_ARGS__) 0u; \
    };                                                                                             \
    LUISA_MACRO_EVAL(FUNCTION_HEAD())                                                              \
    inline void callable_encode_binding_group(CallableInvoke &invoke, Expr<S> s) noexcept {        \
        LUISA_MAP(LUISA_BINDING_GROUP_MODEL_ENCODE, __VA_ARGS__)                                   \
    }                                                                                              \
    LUISA_MACRO_EVAL(FUNCTION_HEAD())                                                              \
    inline ShaderInvokeBase &operator<<(ShaderInvokeBase &invoke, const S &s) noexcept {           \
        LUISA_MAP(LUISA_BINDING_GROUP_MODEL_ENCODE, __VA_ARGS__)                                   \
        return invoke;                                                                             \
    }                                                                                              \
    }                                                                                              \
    }                                                                                              \
    LUISA_MACRO_EVAL(HEAD())                                                                       \
    struct luisa_compute_extension<S> final : luisa::compute::Var<S>

#define LUISA_BIND_GROUP_IMPL_EMPTY_TEMPLATE() template<>
#define LUISA_BIND_GROUP_IMPL_EMPTY()

#define LUISA_BINDING_GROUP(S, ...) \
    LUISA_BINDING_GROUP_MODEL_IMPL(LUISA_BIND_GROUP_IMPL_EMPTY_TEMPLATE, LUISA_BIND_GROUP_IMPL_EMPTY, S, __VA_ARGS__)

#define LUISA_BINDING_GROUP_TEMPLATE(TEMPLATE, S, ...) \
    LUISA_BINDING_GROUP_MODEL_IMPL(TEMPLATE, TEMPLATE, S, __VA_ARGS__)
