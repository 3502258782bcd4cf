#pragma once
// kernel-tidy API model of luisa/dsl/struct.h. LUISA_STRUCT(S, members...) registers S and
// defines Expr<S> / detail::Ref<S> / detail::AtomicRef<S> with one member per field, and ends
// with the open `struct luisa_compute_extension<S> final : luisa::compute::detail::Ref<S>` head
// (so `LUISA_STRUCT(S, a, b) { ...extension methods... };` works as with the real header).
#include <luisa/core/macro.h>
#include <luisa/dsl/var.h>
#include <luisa/dsl/atomic.h>
// the real header brings in the builtins (through dsl/soa.h) and dsl/func.h
#include <luisa/dsl/builtin.h>
#include <luisa/dsl/func.h>

template<typename T>
struct luisa_compute_extension {};

#define LUISA_STRUCT_MODEL_MEMBER_TYPE(m) std::remove_cvref_t<decltype(std::declval<this_type>().m)>
#define LUISA_STRUCT_MODEL_MEMBER_TUPLE_TYPE(m) std::remove_cvref_t<decltype(std::declval<S_model>().m)>
#define LUISA_STRUCT_MODEL_EXPR_DECL(m) \
    Expr<LUISA_STRUCT_MODEL_MEMBER_TYPE(m)> m{detail::model_expression()};
#define LUISA_STRUCT_MODEL_REF_DECL(m) \
    Var<LUISA_STRUCT_MODEL_MEMBER_TYPE(m)> m{detail::model_expression()};
#define LUISA_STRUCT_MODEL_ATOMIC_DECL(m) \
    AtomicRef<LUISA_STRUCT_MODEL_MEMBER_TYPE(m)> m{nullptr};

#define LUISA_STRUCT_MODEL_REFLECT_IMPL(HEAD, S, ...)                                                    \
    HEAD                                                                                \
    struct luisa::compute::struct_member_tuple<S> {                                              \
        using S_model = S;                                                              \
        using type = std::tuple<LUISA_MAP_LIST(LUISA_STRUCT_MODEL_MEMBER_TUPLE_TYPE, __VA_ARGS__)>; \
    };

#define LUISA_STRUCT_MODEL_DSL_IMPL(HEAD, S, ...)                                                 \
    namespace luisa::compute {                                                          \
    namespace detail {                                                                  \
    HEAD                                                                                \
    class AtomicRef<S> : private AtomicRefBase {                                        \
    private:                                                                            \
        using this_type = S;                                                            \
                                                                                        \
    public:                                                                             \
        LUISA_MAP(LUISA_STRUCT_MODEL_ATOMIC_DECL, __VA_ARGS__)                          \
        explicit AtomicRef(const AtomicRefNode *node) noexcept                          \
            : AtomicRefBase{node} {}                                                    \
    };                                                                                  \
    }                                                                                   \
    HEAD                                                                                \
    struct Expr<S> : public detail::ExprEnableBitwiseCast<Expr<S>> {                    \
    private:                                                                            \
        using this_type = S;                                                            \
        const Expression *_expression;                                                  \
                                                                                        \
    public:                                                                             \
        LUISA_MAP(LUISA_STRUCT_MODEL_EXPR_DECL, __VA_ARGS__)                            \
        explicit Expr(const Expression *e) noexcept : _expression{e} {}                 \
        [[nodiscard]] auto expression() const noexcept { return this->_expression; }    \
        Expr(Expr &&another) noexcept = default;                                        \
        Expr(const Expr &another) noexcept = default;                                   \
        Expr &operator=(Expr) noexcept = delete;                                        \
        template<size_t i>                                                              \
        [[nodiscard]] auto get() const noexcept {                                       \
            using M = std::tuple_element_t<i, struct_member_tuple_t<S>>;                \
            return Expr<M>{detail::model_expression()};                                 \
        };                                                                              \
    };                                                                                  \
    namespace detail {                                                                  \
    HEAD                                                                                \
    struct Ref<S>                                                                       \
        : public detail::ExprEnableBitwiseCast<Ref<S>>,                                 \
          public detail::RefEnableGetAddress<Ref<S>> {                                  \
    private:                                                                            \
        using this_type = S;                                                            \
        const Expression *_expression;                                                  \
                                                                                        \
    public:                                                                             \
        LUISA_MAP(LUISA_STRUCT_MODEL_REF_DECL, __VA_ARGS__)                             \
        explicit Ref(const Expression *e) noexcept : _expression{e} {}                  \
        [[nodiscard]] auto expression() const noexcept { return this->_expression; }    \
        Ref(Ref &&another) noexcept = default;                                          \
        Ref(const Ref &another) noexcept = default;                                     \
        [[nodiscard]] operator Expr<S>() const noexcept {                               \
            return Expr<S>{this->expression()};                                         \
        }                                                                               \
        template<typename Rhs>                                                          \
        void operator=(Rhs &&rhs) & noexcept { dsl::assign(*this, std::forward<Rhs>(rhs)); } \
        void operator=(Ref rhs) & noexcept { (*this) = Expr{rhs}; }                     \
        template<size_t i>                                                              \
        [[nodiscard]] auto get() const noexcept {                                       \
            using M = std::tuple_element_t<i, struct_member_tuple_t<S>>;                \
            return Ref<M>{detail::model_expression()};                                  \
        };                                                                              \
        [[nodiscard]] auto operator->() noexcept {                                      \
            return reinterpret_cast<luisa_compute_extension<S> *>(this);                \
        }                                                                               \
        [[nodiscard]] auto operator->() const noexcept {                                \
            return reinterpret_cast<const luisa_compute_extension<S> *>(this);          \
        }                                                                               \
    };                                                                                  \
    }                                                                                   \
    }

#define LUISA_STRUCT_REFLECT(S, ...) LUISA_STRUCT_MODEL_REFLECT_IMPL(template<>, S, __VA_ARGS__)
#define LUISA_DERIVE_DSL_STRUCT(S, ...) LUISA_STRUCT_MODEL_DSL_IMPL(template<>, S, __VA_ARGS__)
#define LUISA_STRUCT_REFLECT_TEMPLATE(TEMPLATE, S, ...) \
    LUISA_STRUCT_MODEL_REFLECT_IMPL(LUISA_MACRO_EVAL(TEMPLATE()), LUISA_MACRO_EVAL(S()), __VA_ARGS__)
#define LUISA_DERIVE_DSL_STRUCT_TEMPLATE(TEMPLATE, S, ...) \
    LUISA_STRUCT_MODEL_DSL_IMPL(LUISA_MACRO_EVAL(TEMPLATE()), LUISA_MACRO_EVAL(S()), __VA_ARGS__)

#define LUISA_CUSTOM_STRUCT_REFLECT(S, name) \
    template<>                               \
    struct luisa::compute::is_custom_struct<S> : std::true_type {};

#define LUISA_DERIVE_FMT(Struct, DisplayName, ...)
#define LUISA_DERIVE_SOA(S, ...)
#define LUISA_DERIVE_FMT_TEMPLATE(TEMPLATE, S, DisplayName, ...)
#define LUISA_DERIVE_SOA_TEMPLATE(TEMPLATE, S, ...)

#define LUISA_STRUCT(S, ...)                \
    LUISA_DERIVE_FMT(S, S, __VA_ARGS__)     \
    LUISA_STRUCT_REFLECT(S, __VA_ARGS__)    \
    template<>                              \
    struct luisa_compute_extension<S>;      \
    LUISA_DERIVE_DSL_STRUCT(S, __VA_ARGS__) \
    LUISA_DERIVE_SOA(S, __VA_ARGS__)        \
    template<>                              \
    struct luisa_compute_extension<S> final : luisa::compute::detail::Ref<S>

#define LUISA_CUSTOM_STRUCT_EXT(S)                                 \
    template<>                                                     \
    struct luisa_compute_extension<S>;                             \
    template<>                                                     \
    struct luisa_compute_extension<S> final : luisa::compute::detail::Ref<S>

#define LUISA_TEMPLATE_STRUCT(TEMPLATE, S, ...)                 \
    LUISA_DERIVE_FMT_TEMPLATE(TEMPLATE, S, S, __VA_ARGS__)      \
    LUISA_STRUCT_REFLECT_TEMPLATE(TEMPLATE, S, __VA_ARGS__)     \
    LUISA_MACRO_EVAL(TEMPLATE())                                \
    struct luisa_compute_extension<LUISA_MACRO_EVAL(S())>;      \
    LUISA_DERIVE_DSL_STRUCT_TEMPLATE(TEMPLATE, S, __VA_ARGS__)  \
    LUISA_DERIVE_SOA_TEMPLATE(TEMPLATE, S, __VA_ARGS__)         \
    LUISA_MACRO_EVAL(TEMPLATE())                                \
    struct luisa_compute_extension<LUISA_MACRO_EVAL(S())> final \
        : luisa::compute::detail::Ref<LUISA_MACRO_EVAL(S())>
