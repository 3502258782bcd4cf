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
