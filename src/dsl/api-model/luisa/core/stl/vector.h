#pragma once
// kernel-tidy API model: light luisa::vector / fixed_vector (not std aliases).
#include <cstddef>
#include <initializer_list>
#include <utility>

namespace luisa {

template<typename T>
class vector {
    T *_p{nullptr};
    size_t _n{0u};
public:
    using value_type = T;
    using size_type = size_t;
    using iterator = T *;
    using const_iterator = const T *;
    using reference = T &;
    using const_reference = const T &;
    vector() noexcept = default;
    explicit vector(size_t) noexcept {}
    vector(size_t, const T &) noexcept {}
    vector(std::initializer_list<T>) noexcept {}
    template<typename It>
        requires requires(It it) { *it; ++it; }
    vector(It, It) noexcept {}
    vector(const vector &) noexcept = default;
    vector(vector &&) noexcept = default;
    vector &operator=(const vector &) noexcept = default;
    vector &operator=(vector &&) noexcept = default;
    vector &operator=(std::initializer_list<T>) noexcept { return *this; }
    [[nodiscard]] T *data() noexcept { return _p; }
    [[nodiscard]] const T *data() const noexcept { return _p; }
    [[nodiscard]] size_t size() const noexcept { return _n; }
    [[nodiscard]] size_t size_bytes() const noexcept { return _n * sizeof(T); }
    [[nodiscard]] size_t capacity() const noexcept { return _n; }
    [[nodiscard]] bool empty() const noexcept { return _n == 0u; }
    void resize(size_t) noexcept {}
    void resize(size_t, const T &) noexcept {}
    void reserve(size_t) noexcept {}
    void clear() noexcept {}
    void shrink_to_fit() noexcept {}
    void push_back(const T &) noexcept {}
    void push_back(T &&) noexcept {}
    void pop_back() noexcept {}
    template<typename... Args>
    T &emplace_back(Args &&...) noexcept { return *_p; }
    template<typename It>
    iterator insert(const_iterator pos, It, It) noexcept { return const_cast<T *>(pos); }
    iterator insert(const_iterator pos, const T &) noexcept { return const_cast<T *>(pos); }
    iterator erase(const_iterator pos) noexcept { return const_cast<T *>(pos); }
    iterator erase(const_iterator pos, const_iterator) noexcept { return const_cast<T *>(pos); }
    [[nodiscard]] T &operator[](size_t i) noexcept { return _p[i]; }
    [[nodiscard]] const T &operator[](size_t i) const noexcept { return _p[i]; }
    [[nodiscard]] T &at(size_t i) noexcept { return _p[i]; }
    [[nodiscard]] const T &at(size_t i) const noexcept { return _p[i]; }
    [[nodiscard]] T &front() noexcept { return *_p; }
    [[nodiscard]] const T &front() const noexcept { return *_p; }
    [[nodiscard]] T &back() noexcept { return *_p; }
    [[nodiscard]] const T &back() const noexcept { return *_p; }
    [[nodiscard]] T *begin() noexcept { return _p; }
    [[nodiscard]] T *end() noexcept { return _p + _n; }
    [[nodiscard]] const T *begin() const noexcept { return _p; }
    [[nodiscard]] const T *end() const noexcept { return _p + _n; }
    [[nodiscard]] const T *cbegin() const noexcept { return _p; }
    [[nodiscard]] const T *cend() const noexcept { return _p + _n; }
};

template<typename T, size_t N>
class fixed_vector : public vector<T> {
public:
    using vector<T>::vector;
};

}// namespace luisa
