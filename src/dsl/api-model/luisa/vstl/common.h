#pragma once
// kernel-tidy API model: luisa/vstl/common.h (internal utility header; only what
// vstl/meta_lib.h models)
#include <luisa/vstl/meta_lib.h>
