#pragma once
// kernel-tidy API model of luisa/core/stl.h: light containers (see README).
#include <luisa/core/stl/algorithm.h>
#include <luisa/core/stl/filesystem.h>
#include <luisa/core/stl/memory.h>
#include <luisa/core/stl/string.h>
#include <luisa/core/stl/vector.h>
#include <luisa/core/stl/span.h>
#include <luisa/core/stl/functional.h>
#include <luisa/core/stl/optional.h>
#include <luisa/core/stl/format.h>
#include <luisa/core/stl/hash.h>
#include <luisa/core/stl/unordered_map.h>
// What the real headers bring in with them and real files use unqualified
// (std::this_thread in the 2024 tests, luisa::variant in LuisaRender).
#include <thread>
#include <variant>

namespace luisa {
using std::monostate;
using std::variant;
using std::visit;
using std::get_if;
using std::holds_alternative;
}// namespace luisa
