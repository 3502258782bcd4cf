#pragma once
// kernel-tidy API model: luisa/dsl/rtx/curve.h is not modelled (see README)
#include <luisa/dsl/rtx/accel.h>
