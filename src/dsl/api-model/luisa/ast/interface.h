#pragma once
// kernel-tidy API model of luisa/ast/interface.h
#include <luisa/ast/expression.h>
#include <luisa/ast/statement.h>
#include <luisa/ast/op.h>
#include <luisa/ast/type.h>
#include <luisa/ast/function.h>
#include <luisa/ast/function_builder.h>
