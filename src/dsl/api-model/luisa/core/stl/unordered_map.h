#pragma once
// kernel-tidy API model: light luisa::unordered_map / unordered_set.
#include <cstddef>
#include <initializer_list>
#include <utility>
#include <luisa/core/stl/hash.h>
namespace luisa {
template<typename K, typename V, typename H = hash<K>, typename Eq = void>
class unordered_map {
    std::pair<const K, V> *_p{nullptr};
public:
    using value_type = std::pair<const K, V>;
    using key_type = K;
    using mapped_type = V;
    using iterator = value_type *;
    using const_iterator = const value_type *;
    unordered_map() noexcept = default;
    unordered_map(std::initializer_list<value_type>) noexcept {}
    // Lookups take any key type (the real map's hash and equality are transparent:
    // a luisa::string-keyed map is searched with a string_view).
    V &operator[](const K &) noexcept { return _p->second; }
    template<typename Q>
    [[nodiscard]] value_type *find(const Q &) noexcept { return _p; }
    template<typename Q>
    [[nodiscard]] const value_type *find(const Q &) const noexcept { return _p; }
    template<typename Q>
    [[nodiscard]] V &at(const Q &) noexcept { return _p->second; }
    template<typename Q>
    [[nodiscard]] const V &at(const Q &) const noexcept { return _p->second; }
    [[nodiscard]] value_type *begin() noexcept { return _p; }
    [[nodiscard]] value_type *end() noexcept { return _p; }
    [[nodiscard]] const value_type *begin() const noexcept { return _p; }
    [[nodiscard]] const value_type *end() const noexcept { return _p; }
    [[nodiscard]] const value_type *cbegin() const noexcept { return _p; }
    [[nodiscard]] const value_type *cend() const noexcept { return _p; }
    template<typename... Args>
    std::pair<value_type *, bool> emplace(Args &&...) noexcept { return {_p, true}; }
    template<typename Q, typename... Args>
    std::pair<value_type *, bool> try_emplace(Q &&, Args &&...) noexcept { return {_p, true}; }
    [[nodiscard]] size_t size() const noexcept { return 0u; }
    [[nodiscard]] bool empty() const noexcept { return true; }
    template<typename Q>
    [[nodiscard]] bool contains(const Q &) const noexcept { return false; }
    template<typename Q>
    size_t erase(const Q &) noexcept { return 0u; }
    void clear() noexcept {}
    void reserve(size_t) noexcept {}
};
template<typename K, typename H = hash<K>, typename Eq = void>
class unordered_set {
    const K *_p{nullptr};
public:
    using key_type = K;
    using value_type = K;
    unordered_set() noexcept = default;
    unordered_set(std::initializer_list<K>) noexcept {}
    template<typename Q>
    [[nodiscard]] const K *find(const Q &) const noexcept { return _p; }
    [[nodiscard]] const K *begin() const noexcept { return _p; }
    [[nodiscard]] const K *end() const noexcept { return _p; }
    template<typename... Args>
    std::pair<const K *, bool> emplace(Args &&...) noexcept { return {_p, true}; }
    std::pair<const K *, bool> insert(const K &) noexcept { return {_p, true}; }
    [[nodiscard]] size_t size() const noexcept { return 0u; }
    template<typename Q>
    [[nodiscard]] bool contains(const Q &) const noexcept { return false; }
    void clear() noexcept {}
};
}// namespace luisa
