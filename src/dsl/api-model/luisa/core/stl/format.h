#pragma once
// kernel-tidy API model: luisa::format (fmt-like), returns luisa::string.
#include <luisa/core/stl/string.h>
namespace luisa {
template<typename... Args>
[[nodiscard]] inline string format(string_view, Args &&...) noexcept { return {}; }
}// namespace luisa
