#pragma once
// kernel-tidy API model: luisa/vstl/common.h (internal utility header; nothing modelled)
#include <luisa/vstl/meta_lib.h>
