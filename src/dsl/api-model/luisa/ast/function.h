#pragma once
#include <luisa/ast/function_builder.h>
