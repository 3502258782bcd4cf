#pragma once
// kernel-tidy API model: luisa/vstl/meta_lib.h (internal utility header; nothing modelled)
#include <luisa/core/stl.h>
