#pragma once
// kernel-tidy API model of luisa/core/stl/filesystem.h. The real core/stl.h
// includes it, so files that use std::filesystem without including
// <filesystem> themselves parse with the real headers (a solver's mesh
// loader does): the model brings it in the same way.
#include <filesystem>
#include <luisa/core/stl/string.h>

namespace luisa {

namespace filesystem = std::filesystem;
[[nodiscard]] luisa::string to_string(const luisa::filesystem::path &path);

}// namespace luisa
