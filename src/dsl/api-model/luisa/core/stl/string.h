#pragma once
// kernel-tidy API model of luisa/core/stl/string.h: luisa::string is std::basic_string with
// LuisaCompute's allocator and luisa::string_view is std::string_view, as in the real header
// (user code hands them to std APIs: std::filesystem::path{s}, std::string_view parameters).
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace luisa {

/// stands for LuisaCompute's allocator (real: backed by its own heap)
template<typename T = std::byte>
struct allocator : std::allocator<T> {
    using value_type = T;
    constexpr allocator() noexcept = default;
    template<typename U>
    constexpr allocator(const allocator<U> &) noexcept {}
    template<typename U>
    struct rebind { using other = allocator<U>; };
};

using string = std::basic_string<char, std::char_traits<char>, allocator<char>>;
using std::string_view;

template<typename T>
[[nodiscard]] inline string to_string(T) noexcept { return {}; }

}// namespace luisa
