#pragma once
// kernel-tidy API model: opaque AST node classes of luisa/ast/expression.h
namespace luisa::compute {
class Expression {};
class RefExpr : public Expression {};
class LiteralExpr : public Expression {};
class CallExpr : public Expression {};
}// namespace luisa::compute
