#pragma once
#include <luisa/core/stl/unordered_map.h>
