#pragma once
// kernel-tidy API model of luisa/dsl/syntax.h
#include <luisa/dsl/func.h>
#include <luisa/dsl/shared.h>
#include <luisa/dsl/constant.h>
#include <luisa/dsl/local.h>
#include <luisa/dsl/builtin.h>
#include <luisa/dsl/stmt.h>
#include <luisa/dsl/struct.h>
#include <luisa/dsl/resource.h>
#include <luisa/dsl/atomic.h>
#include <luisa/dsl/polymorphic.h>
#include <luisa/dsl/dispatch_indirect.h>
#include <luisa/dsl/rtx/aabb.h>
#include <luisa/dsl/rtx/accel.h>
#include <luisa/dsl/rtx/hit.h>
#include <luisa/dsl/rtx/ray.h>
#include <luisa/dsl/rtx/triangle.h>
