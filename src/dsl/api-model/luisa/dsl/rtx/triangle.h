#pragma once
#include <luisa/runtime/rtx/triangle.h>
#include <luisa/dsl/struct.h>
LUISA_STRUCT(luisa::compute::Triangle, i0, i1, i2) {};
