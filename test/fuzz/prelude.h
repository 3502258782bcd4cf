// What fuzz inputs include, precompiled once per fuzzing run.
#pragma once
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>
