#pragma once
// kernel-tidy API model of luisa/dsl/atomic.h
#include <luisa/core/dll_export.h>
#include <luisa/ast/atomic_ref_node.h>
#include <luisa/dsl/expr.h>

namespace luisa::compute::detail {

template<typename>
class AtomicRef;

class AtomicRefBase {
private:
    const AtomicRefNode *_access_chain{nullptr};
protected:
    explicit AtomicRefBase(const AtomicRefNode *access_chain) noexcept
        : _access_chain{access_chain} {}
public:
    AtomicRefBase(AtomicRefBase &&) noexcept = default;
    AtomicRefBase(const AtomicRefBase &) noexcept = delete;
    AtomicRefBase &operator=(AtomicRefBase &&) noexcept = delete;
    AtomicRefBase &operator=(const AtomicRefBase &) noexcept = delete;
protected:
    [[nodiscard]] auto access_chain() const noexcept { return _access_chain; }
    template<typename T, typename I>
    [[nodiscard]] auto access(I &&index) const noexcept { return AtomicRef<T>{_access_chain}; }
    template<typename T>
    [[nodiscard]] auto member(size_t i) const noexcept { return AtomicRef<T>{_access_chain}; }
};

#define LUISA_ATOMIC_REF_COMMON()                                  \
public:                                                            \
    explicit AtomicRef(const AtomicRefNode *access_chain) noexcept \
        : AtomicRefBase{access_chain} {}

template<typename T>
class AtomicRef : private AtomicRefBase {
public:
    LUISA_ATOMIC_REF_COMMON()
};

template<typename T>
    requires std::same_as<T, int> || std::same_as<T, uint>
class AtomicRef<T> : private AtomicRefBase {
public:
    LUISA_ATOMIC_REF_COMMON()
public:
    auto exchange(Expr<T> desired) noexcept { return def<T>(model_expression()); }
    auto compare_exchange(Expr<T> expected, Expr<T> desired) noexcept { return def<T>(model_expression()); }
    auto fetch_add(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_sub(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_and(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_or(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_xor(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_min(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_max(Expr<T> val) noexcept { return def<T>(model_expression()); };
};

template<typename T>
    requires std::same_as<T, float>
class AtomicRef<T> : private AtomicRefBase {
public:
    LUISA_ATOMIC_REF_COMMON()
public:
    auto exchange(Expr<T> desired) noexcept { return def<T>(model_expression()); }
    auto compare_exchange(Expr<T> expected, Expr<T> desired) noexcept { return def<T>(model_expression()); }
    auto fetch_add(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_sub(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_min(Expr<T> val) noexcept { return def<T>(model_expression()); };
    auto fetch_max(Expr<T> val) noexcept { return def<T>(model_expression()); };
};

// arrays
template<typename T, size_t N>
class AtomicRef<std::array<T, N>> : private AtomicRefBase {
public:
    LUISA_ATOMIC_REF_COMMON()
    template<typename I>
    [[nodiscard]] auto operator[](I &&index) const noexcept { return this->access<T>(std::forward<I>(index)); }
};

template<typename T, size_t N>
class AtomicRef<std::array<T, N> &> : private AtomicRefBase {
public:
    LUISA_ATOMIC_REF_COMMON()
    template<typename I>
    [[nodiscard]] auto operator[](I &&index) const noexcept { return this->access<T>(std::forward<I>(index)); }
};

template<typename T, size_t N>
class AtomicRef<T[N]> : private AtomicRefBase {
public:
    LUISA_ATOMIC_REF_COMMON()
    template<typename I>
    [[nodiscard]] auto operator[](I &&index) const noexcept { return this->access<T>(std::forward<I>(index)); }
};

// vectors
template<typename T>
class AtomicRef<Vector<T, 2>> : private AtomicRefBase {
public:
    AtomicRef<T> x{this->member<T>(0u)};
    AtomicRef<T> y{this->member<T>(1u)};
public:
    LUISA_ATOMIC_REF_COMMON()
    template<typename I>
    [[nodiscard]] auto operator[](I &&index) const noexcept { return this->access<T>(std::forward<I>(index)); }
};

template<typename T>
class AtomicRef<Vector<T, 3>> : private AtomicRefBase {
public:
    AtomicRef<T> x{this->member<T>(0u)};
    AtomicRef<T> y{this->member<T>(1u)};
    AtomicRef<T> z{this->member<T>(2u)};
public:
    LUISA_ATOMIC_REF_COMMON()
    template<typename I>
    [[nodiscard]] auto operator[](I &&index) const noexcept { return this->access<T>(std::forward<I>(index)); }
};

template<typename T>
class AtomicRef<Vector<T, 4>> : private AtomicRefBase {
public:
    AtomicRef<T> x{this->member<T>(0u)};
    AtomicRef<T> y{this->member<T>(1u)};
    AtomicRef<T> z{this->member<T>(2u)};
    AtomicRef<T> w{this->member<T>(3u)};
public:
    LUISA_ATOMIC_REF_COMMON()
    template<typename I>
    [[nodiscard]] auto operator[](I &&index) const noexcept { return this->access<T>(std::forward<I>(index)); }
};

// matrices
template<size_t N>
class AtomicRef<Matrix<float, N>> : private AtomicRefBase {
public:
    LUISA_ATOMIC_REF_COMMON()
    template<typename I>
    [[nodiscard]] auto operator[](I &&index) const noexcept { return this->access<Vector<float, N>>(std::forward<I>(index)); }
};

}// namespace luisa::compute::detail
