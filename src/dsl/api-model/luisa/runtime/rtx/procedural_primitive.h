#pragma once
#include <luisa/runtime/rtx/mesh.h>
#include <luisa/runtime/rtx/aabb.h>
