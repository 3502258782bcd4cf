// Values of one lane as LuisaCompute lays them out (Type::size(), vectors padded to
// 2/4 elements), and the scalar and vector operations on them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include <luisa/ast/op.h>
#include <luisa/ast/expression.h>
#include <luisa/ast/type.h>

namespace kernel_tidy::simt {

using luisa::compute::BinaryOp;
using luisa::compute::CallOp;
using luisa::compute::CastOp;
using luisa::compute::Type;
using luisa::compute::UnaryOp;

/// The scalar element types the executor computes with.
enum class Scalar { Bool, Int, Uint, Float, Half };

/// A scalar or vector type: its element kind, element count and element size.
struct Shape {
  Scalar Kind;
  unsigned Components;
  size_t ElementSize;
};

/// Whether `T` is a scalar or a vector of a supported element type.
bool hasShape(const Type *T);
/// The shape of a scalar or vector type; throws Unsupported for any other.
Shape shapeOf(const Type *T);
/// The type's description, for messages.
std::string typeName(const Type *T);
/// The byte offset of member `Index` of a structure, from its members' alignments.
size_t memberOffset(const Type *Structure, unsigned Index);

void unaryOp(UnaryOp Op, const Type *Result, const Type *Operand, const std::byte *In,
             std::byte *Out);
void binaryOp(BinaryOp Op, const Type *Result, const Type *Lhs, const std::byte *L, const Type *Rhs,
              const std::byte *R, std::byte *Out);
/// binaryOp on each lane of \p Lanes, the lanes' operands and results \p LStride,
/// \p RStride and \p OutStride bytes apart: the types are looked at once per warp.
void binaryOpLanes(BinaryOp Op, const Type *Result, const Type *Lhs, const std::byte *L,
                   size_t LStride, const Type *Rhs, const std::byte *R, size_t RStride,
                   std::byte *Out, size_t OutStride, std::span<const unsigned> Lanes);
void castOp(CastOp Op, const Type *Result, const Type *Source, const std::byte *In, std::byte *Out);
/// min or max as CUDA computes them: integers exactly, floats ignoring a NaN operand.
void minMaxOp(bool IsMax, const Type *T, const std::byte *A, const std::byte *B, std::byte *Out);
/// Writes the value 1 of every component of `T` (the identity of a product).
void storeOne(const Type *T, std::byte *Out);
/// Math builtins and vector constructors, one lane at a time; false when `Op` is not one.
bool builtinOp(CallOp Op, const Type *Result, std::span<const Type *const> ArgTypes,
               std::span<const std::byte *const> Args, std::byte *Out);
/// The value of a scalar integer or bool, for indices, conditions and case labels.
uint64_t loadIndex(const Type *T, const std::byte *P);
bool loadCondition(const Type *T, const std::byte *P);

} // namespace kernel_tidy::simt
