#pragma once
// kernel-tidy API model of luisa/dsl/stmt.h: statement builders with the same operator
// structure (% / *) as the real header; bodies invoke the lambdas only where the real ones do.
#include <initializer_list>
#include <luisa/dsl/var.h>
#include <luisa/dsl/operators.h>
#include <luisa/core/stl/functional.h>

namespace luisa::compute {

namespace detail {

/// Add comment
template<typename S>
inline void comment(S &&s) noexcept {}

/// Build if statement
class IfStmtBuilder {
private:
    IfStmt *_stmt;
public:
    explicit IfStmtBuilder(Expr<bool> condition) noexcept : _stmt{nullptr} {}
    template<typename S>
    [[nodiscard]] static auto create_with_comment(S &&s, Expr<bool> cond) noexcept {
        luisa::compute::detail::comment(std::forward<S>(s));
        return IfStmtBuilder{cond};
    }
    template<typename FalseFunc>
    void else_(FalseFunc &&f) && noexcept { f(); }
    template<typename TrueFunc>
    auto operator%(TrueFunc &&t) && noexcept {
        t();
        return *this;
    }
    template<typename FalseFunc>
    void operator/(FalseFunc &&f) && noexcept {
        IfStmtBuilder{*this}.else_(std::forward<FalseFunc>(f));
    }
    template<typename LazyElIfCond>
    [[nodiscard]] auto operator*(LazyElIfCond &&elif_cond) && noexcept {
        return IfStmtBuilder{elif_cond()};
    }
};

/// Build loop statement
class LoopStmtBuilder {
private:
    LoopStmt *_stmt;
public:
    LoopStmtBuilder() noexcept : _stmt{nullptr} {}
    template<typename S>
    [[nodiscard]] static auto create_with_comment(S &&s) noexcept {
        luisa::compute::detail::comment(std::forward<S>(s));
        return LoopStmtBuilder{};
    }
    template<typename Body>
    auto operator/(Body &&body) && noexcept {
        body();
        return *this;
    }
    template<typename Body>
    void operator%(Body &&body) && noexcept {
        LoopStmtBuilder{*this} / std::forward<Body>(body);
    }
};

/// Build AutoDiff statement
class AutoDiffStmtBuilder {
private:
    AutoDiffStmt *_stmt;
public:
    AutoDiffStmtBuilder() noexcept : _stmt{nullptr} {}
    template<typename S>
    [[nodiscard]] static auto create_with_comment(S &&s) noexcept {
        luisa::compute::detail::comment(std::forward<S>(s));
        return AutoDiffStmtBuilder{};
    }
    template<typename Body>
    void operator%(Body &&body) && noexcept { body(); }
};

/// Build case statement of switch
class SwitchCaseStmtBuilder {
private:
    SwitchCaseStmt *_stmt;
public:
    template<concepts::integral T>
    explicit SwitchCaseStmtBuilder(T c) noexcept : _stmt{nullptr} {}
    template<concepts::integral T, typename S>
    [[nodiscard]] static auto create_with_comment(S &&s, T c) noexcept {
        luisa::compute::detail::comment(std::forward<S>(s));
        return SwitchCaseStmtBuilder{c};
    }
    template<typename Body>
    void operator%(Body &&body) && noexcept { body(); }
};

/// Build default statement of switch
class SwitchDefaultStmtBuilder {
private:
    SwitchDefaultStmt *_stmt;
public:
    SwitchDefaultStmtBuilder() noexcept : _stmt{nullptr} {}
    template<typename S>
    [[nodiscard]] static auto create_with_comment(S &&s) noexcept {
        luisa::compute::detail::comment(std::forward<S>(s));
        return SwitchDefaultStmtBuilder{};
    }
    template<typename Body>
    void operator%(Body &&body) && noexcept { body(); }
};

/// Build switch statement
class SwitchStmtBuilder {
private:
    SwitchStmt *_stmt;
public:
    template<typename T>
        requires is_integral_expr_v<T>
    explicit SwitchStmtBuilder(T &&cond) noexcept : _stmt{nullptr} {}
    template<typename T, typename S>
        requires is_integral_expr_v<T>
    [[nodiscard]] static auto create_with_comment(S &&s, T &&cond) noexcept {
        luisa::compute::detail::comment(std::forward<S>(s));
        return SwitchStmtBuilder{std::forward<T>(cond)};
    }
    template<typename T, typename Body>
    auto case_(T &&case_cond, Body &&case_body) && noexcept {
        SwitchCaseStmtBuilder{case_cond} % std::forward<Body>(case_body);
        return *this;
    }
    template<typename Default>
    auto default_(Default &&d) && noexcept {
        SwitchDefaultStmtBuilder{} % std::forward<Default>(d);
    }
    template<typename Body>
    void operator%(Body &&body) && noexcept { body(); }
};

/// Invoke statement body
struct StmtBodyInvoke {
    template<typename F>
    void operator%(F &&body) && noexcept {
        luisa::invoke(std::forward<F>(body));
    }
};

/// Build for range statement
template<typename T, bool has_step>
class ForRange {
    static_assert(is_integral_v<T>);
public:
    struct ForRangeEnd {};
    class ForRangeIter {
    private:
        Expr<T> _begin;
        Expr<T> _end;
        Expr<T> _step;
        const Expression *_var{nullptr};
        const Expression *_cond{nullptr};
        ForStmt *_stmt{nullptr};
        uint _time{0u};
    public:
        explicit ForRangeIter(Expr<T> begin, Expr<T> end, Expr<T> step) noexcept
            : _begin{begin}, _end{end}, _step{step} {}
        [[nodiscard]] auto operator*() noexcept {
            Var var{_begin};
            return Var{std::move(var)};
        }
        auto &operator++() noexcept {
            _time++;
            return *this;
        }
        [[nodiscard]] auto operator!=(ForRangeEnd) const noexcept { return _time == 0u; }
    };
private:
    Expr<T> _begin;
    Expr<T> _end;
    Expr<T> _step;
public:
    explicit ForRange(Expr<T> begin, Expr<T> end, Expr<T> step) noexcept
        : _begin{begin}, _end{end}, _step{step} {}
    [[nodiscard]] auto begin() const noexcept { return ForRangeIter{_begin, _end, _step}; }
    [[nodiscard]] auto end() const noexcept { return ForRangeEnd{}; }
};

template<typename Lhs, typename Rhs, size_t... i>
void assign_impl(Ref<Lhs> lhs, Expr<Rhs> rhs, std::index_sequence<i...>) noexcept {}

template<typename Lhs, typename Rhs>
void assign_impl(Ref<Lhs> lhs, Expr<Rhs> rhs) noexcept {}

}// namespace detail

inline namespace dsl {

template<typename Lhs, typename Rhs>
void assign(Lhs &&lhs, Rhs &&rhs) noexcept {}

// statements
inline void break_() noexcept {}
inline void continue_() noexcept {}

template<typename TrueFunc>
inline auto if_(Expr<bool> condition, TrueFunc &&t) noexcept {
    return detail::IfStmtBuilder{condition} % std::forward<TrueFunc>(t);
}

template<typename Body>
inline void loop(Body &&body) noexcept {
    detail::LoopStmtBuilder{} % std::forward<Body>(body);
}

template<typename Body>
inline void autodiff(Body &&body) noexcept {
    detail::AutoDiffStmtBuilder{} % std::forward<Body>(body);
}

template<typename T>
inline auto switch_(T &&expr) noexcept {
    return detail::SwitchStmtBuilder{std::forward<T>(expr)};
}

/// range from 0 to end, step = 1
template<typename Te>
    requires is_integral_expr_v<Te>
[[nodiscard]] inline auto dynamic_range(Te &&end) noexcept {
    using T = expr_value_t<Te>;
    Var e{std::forward<Te>(end)};
    return detail::ForRange<T, false>{static_cast<T>(0), e, static_cast<T>(1)};
}

/// range from begin to end, step = 1
template<typename Tb, typename Te>
    requires is_same_expr_v<Tb, Te> && is_integral_expr_v<Tb>
[[nodiscard]] inline auto dynamic_range(Tb &&begin, Te &&end) noexcept {
    using T = expr_value_t<Tb>;
    Var e{std::forward<Te>(end)};
    return detail::ForRange<T, false>{std::forward<Tb>(begin), e, static_cast<T>(1)};
}

/// range from begin to end with step
template<typename Tb, typename Te, typename Ts>
    requires is_same_expr_v<Tb, Te, Ts> && is_integral_expr_v<Tb>
[[nodiscard]] inline auto dynamic_range(Tb &&begin, Te &&end, Ts &&step) noexcept {
    using T = expr_value_t<Tb>;
    Var e{std::forward<Te>(end)};
    Var s{std::forward<Ts>(step)};
    return detail::ForRange<T, true>{std::forward<Tb>(begin), e, s};
}

template<typename S, typename... Args>
[[nodiscard]] inline auto dynamic_range_with_comment(S &&s, Args &&...args) noexcept {
    luisa::compute::detail::comment(std::forward<S>(s));
    return dynamic_range(std::forward<Args>(args)...);
}

template<typename N, typename Body>
inline void loop(N &&n, Body &&body) noexcept {
    for (auto i : dynamic_range(std::forward<N>(n))) {
        luisa::invoke(std::forward<Body>(body), std::move(i));
    }
}

template<typename Begin, typename End, typename Body>
inline void loop(Begin &&begin, End &&end, Body &&body) noexcept {
    for (auto i : dynamic_range(std::forward<Begin>(begin), std::forward<End>(end))) {
        luisa::invoke(std::forward<Body>(body), std::move(i));
    }
}

template<typename Begin, typename End, typename Step, typename Body>
inline void loop(Begin &&begin, End &&end, Step &&step, Body &&body) noexcept {
    for (auto i : dynamic_range(std::forward<Begin>(begin), std::forward<End>(end), std::forward<Step>(step))) {
        luisa::invoke(std::forward<Body>(body), std::move(i));
    }
}

template<concepts::iterable AllTags, typename Tag, typename IndexedCase, typename Otherwise>
    requires concepts::invocable<IndexedCase, int> && concepts::invocable<Otherwise>
inline void match(AllTags &&tags, Tag &&tag, IndexedCase &&indexed_case, Otherwise &&otherwise) noexcept {}

template<typename T, typename Tag, typename IndexedCase, typename Otherwise>
    requires concepts::invocable<IndexedCase, int> && concepts::invocable<Otherwise>
inline void match(std::initializer_list<T> all_tags, Tag &&tag, IndexedCase &&indexed_case, Otherwise &&otherwise) noexcept {}

template<typename AllTags, typename Tag, typename IndexedCase>
inline void match(AllTags &&tags, Tag &&tag, IndexedCase &&indexed_case) noexcept {}

template<typename T, typename Tag, typename IndexedCase>
inline void match(std::initializer_list<T> tags, Tag &&tag, IndexedCase &&indexed_case) noexcept {}

template<typename T>
inline void return_(T &&t) noexcept {}

inline void return_() noexcept {}

template<typename FMT, typename... Args>
inline void device_log(FMT &&fmt, Args &&...args) noexcept {}

}// namespace dsl

}// namespace luisa::compute
