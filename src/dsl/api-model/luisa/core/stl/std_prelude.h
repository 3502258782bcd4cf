#pragma once
// kernel-tidy API model: the standard library the real headers bring in.
//
// The real headers include much of the standard library transitively (through
// EASTL, spdlog and fmt), and real sources rely on it (std::generate,
// std::vector, std::to_string...). Every model header includes this one
// through basic_types.h, so that such sources parse with the model too.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>
