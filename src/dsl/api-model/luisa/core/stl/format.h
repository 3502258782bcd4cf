#pragma once
// kernel-tidy API model: luisa::format (fmt-like), returns luisa::string; and the part of
// the fmt library LuisaCompute bundles (through spdlog) that user files call directly:
// fmt::format / format_to / ptr / join, FMT_STRING, the formatter<T> template.
#include <string>
#include <string_view>
#include <luisa/core/stl/string.h>

namespace fmt {
/// a format string checked against T... by the real library; any string here
template<typename... T>
struct format_string {
    template<typename S>
        requires std::is_convertible_v<const S &, std::string_view>
    constexpr format_string(const S &s) noexcept {}
};
template<typename T, typename Char = char, typename Enable = void>
struct formatter;
/// What a user formatter<T>::parse reads: the format spec (fmt 11's base.h).
template<typename Char>
class basic_format_parse_context {
    std::basic_string_view<Char> _spec;
public:
    using char_type = Char;
    using iterator = const Char *;
    explicit constexpr basic_format_parse_context(std::basic_string_view<Char> spec, int next_arg_id = 0)
        : _spec{spec} {}
    constexpr auto begin() const noexcept -> iterator { return _spec.data(); }
    constexpr auto end() const noexcept -> iterator { return _spec.data() + _spec.size(); }
    constexpr void advance_to(iterator it) { _spec.remove_prefix(it - begin()); }
    constexpr auto next_arg_id() -> int { return 0; }
    constexpr void check_arg_id(int) {}
    constexpr void check_dynamic_spec(int) {}
};
using format_parse_context = basic_format_parse_context<char>;
/// The output iterator of format_context (fmt's basic_appender).
template<typename Char>
class basic_appender {
public:
    using value_type = void;
    using difference_type = std::ptrdiff_t;
    auto operator=(Char) -> basic_appender & { return *this; }
    auto operator*() -> basic_appender & { return *this; }
    auto operator++() -> basic_appender & { return *this; }
    auto operator++(int) -> basic_appender { return *this; }
};
using appender = basic_appender<char>;
/// What a user formatter<T>::format writes to (fmt 11: format_context is `context`).
class context {
public:
    using char_type = char;
    using iterator = appender;
    using parse_context_type = basic_format_parse_context<char>;
    template<typename T>
    using formatter_type = formatter<T, char>;
    context(context &&) = default;
    context(const context &) = delete;
    constexpr auto out() -> iterator { return {}; }
    void advance_to(iterator) {}
};
using format_context = context;
template<typename... T>
[[nodiscard]] inline std::string format(format_string<std::type_identity_t<T>...>, T &&...) { return {}; }
template<typename OutputIt, typename... T>
inline OutputIt format_to(OutputIt out, format_string<std::type_identity_t<T>...>, T &&...) { return out; }
template<typename T>
[[nodiscard]] constexpr const void *ptr(T *p) noexcept { return p; }
template<typename Range>
[[nodiscard]] inline std::string join(const Range &, std::string_view) { return {}; }
}// namespace fmt

#ifndef FMT_STRING
#define FMT_STRING(s) s
#endif

namespace luisa {
template<typename... Args>
[[nodiscard]] inline string format(string_view, Args &&...) noexcept { return {}; }
using fmt::format_to;
}// namespace luisa
