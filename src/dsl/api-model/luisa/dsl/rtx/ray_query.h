#pragma once
// kernel-tidy API model: luisa/dsl/rtx/ray_query.h is not modelled (see README)
#include <luisa/dsl/rtx/accel.h>
