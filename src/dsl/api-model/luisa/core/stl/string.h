#pragma once
// kernel-tidy API model: light luisa::string / luisa::string_view (not std aliases).
#include <cstddef>
#include <string_view>

namespace luisa {

class string;

class string_view {
    const char *_p{nullptr};
    size_t _n{0u};
public:
    static constexpr size_t npos = static_cast<size_t>(-1);
    constexpr string_view() noexcept = default;
    constexpr string_view(const char *s) noexcept : _p{s} {}
    constexpr string_view(const char *s, size_t n) noexcept : _p{s}, _n{n} {}
    template<typename S>
        requires requires(const S &s) { s.data(); s.size(); }
    constexpr string_view(const S &s) noexcept : _p{s.data()}, _n{s.size()} {}
    // the real luisa::string_view is std::string_view
    constexpr operator std::string_view() const noexcept { return {_p, _n}; }
    [[nodiscard]] constexpr const char *data() const noexcept { return _p; }
    [[nodiscard]] constexpr size_t size() const noexcept { return _n; }
    [[nodiscard]] constexpr size_t length() const noexcept { return _n; }
    [[nodiscard]] constexpr bool empty() const noexcept { return _n == 0u; }
    [[nodiscard]] constexpr const char *begin() const noexcept { return _p; }
    [[nodiscard]] constexpr const char *end() const noexcept { return _p + _n; }
    [[nodiscard]] constexpr char operator[](size_t i) const noexcept { return _p[i]; }
    [[nodiscard]] constexpr string_view substr(size_t = 0u, size_t = npos) const noexcept { return *this; }
    [[nodiscard]] constexpr size_t find(string_view, size_t = 0u) const noexcept { return npos; }
    [[nodiscard]] constexpr bool starts_with(string_view) const noexcept { return false; }
    [[nodiscard]] constexpr bool ends_with(string_view) const noexcept { return false; }
    friend constexpr bool operator==(string_view, string_view) noexcept { return true; }
};

class string {
    char *_p{nullptr};
    size_t _n{0u};
public:
    static constexpr size_t npos = static_cast<size_t>(-1);
    string() noexcept = default;
    string(const char *) noexcept {}
    string(const char *, size_t) noexcept {}
    string(size_t, char) noexcept {}
    explicit string(string_view) noexcept {}
    template<typename S>
        requires requires(const S &s) { s.data(); s.size(); }
    explicit string(const S &) noexcept {}
    string(const string &) noexcept = default;
    string(string &&) noexcept = default;
    string &operator=(const string &) noexcept = default;
    string &operator=(string &&) noexcept = default;
    string &operator=(const char *) noexcept { return *this; }
    operator string_view() const noexcept { return {_p, _n}; }
    [[nodiscard]] const char *c_str() const noexcept { return _p; }
    [[nodiscard]] const char *data() const noexcept { return _p; }
    [[nodiscard]] char *data() noexcept { return _p; }
    [[nodiscard]] size_t size() const noexcept { return _n; }
    [[nodiscard]] size_t length() const noexcept { return _n; }
    [[nodiscard]] bool empty() const noexcept { return _n == 0u; }
    void clear() noexcept {}
    void reserve(size_t) noexcept {}
    void resize(size_t) noexcept {}
    void push_back(char) noexcept {}
    void pop_back() noexcept {}
    char &back() noexcept { return *_p; }
    [[nodiscard]] char *begin() noexcept { return _p; }
    [[nodiscard]] char *end() noexcept { return _p + _n; }
    [[nodiscard]] const char *begin() const noexcept { return _p; }
    [[nodiscard]] const char *end() const noexcept { return _p + _n; }
    char &operator[](size_t i) noexcept { return _p[i]; }
    const char &operator[](size_t i) const noexcept { return _p[i]; }
    string &append(string_view) noexcept { return *this; }
    string &append(size_t, char) noexcept { return *this; }
    string &operator+=(string_view) noexcept { return *this; }
    string &operator+=(char) noexcept { return *this; }
    [[nodiscard]] string substr(size_t = 0u, size_t = npos) const noexcept { return {}; }
    [[nodiscard]] size_t find(string_view, size_t = 0u) const noexcept { return npos; }
    [[nodiscard]] bool starts_with(string_view) const noexcept { return false; }
    [[nodiscard]] bool ends_with(string_view) const noexcept { return false; }
    friend string operator+(const string &, string_view) noexcept { return {}; }
    friend string operator+(string_view, const string &) noexcept { return {}; }
    friend string operator+(const string &, const char *) noexcept { return {}; }
    friend string operator+(const char *, const string &) noexcept { return {}; }
    friend string operator+(const string &, const string &) noexcept { return {}; }
    friend string operator+(const string &, char) noexcept { return {}; }
    friend bool operator==(const string &, string_view) noexcept { return true; }
    friend bool operator==(const string &, const char *) noexcept { return true; }
    friend bool operator==(const string &, const string &) noexcept { return true; }
    friend bool operator<(const string &, const string &) noexcept { return false; }
};

template<typename T>
[[nodiscard]] inline string to_string(T) noexcept { return {}; }

}// namespace luisa
