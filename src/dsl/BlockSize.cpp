//===--- BlockSize.cpp - The block size a kernel runs with ----------------===//

#include "src/dsl/BlockSize.h"

#include "src/dsl/Ast.h"
#include "src/dsl/HostEval.h"
#include "src/dsl/Names.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace kernel_tidy::dsl {

namespace {

/// The first template argument of \p Args as an integer, if it is one.
std::optional<unsigned> integralArgument(const TemplateArgumentList *Args) {
  if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<unsigned>(Args->get(0).getAsIntegral().getZExtValue());
}

/// The dimension a kernel type (Kernel1D<...>, Kernel<N, ...>) gives.
std::optional<unsigned> dimensionOfType(QualType T) {
  if (T.isNull())
    return std::nullopt;
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier() || !isInLuisaCompute(RD))
    return std::nullopt;
  StringRef Name = RD->getName();
  if (Name.size() == 8 && Name.starts_with("Kernel") && Name.ends_with("D") && Name[6] >= '1' &&
      Name[6] <= '3')
    return static_cast<unsigned>(Name[6] - '0');
  if (Name == "Kernel")
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      return integralArgument(&Spec->getTemplateArgs());
  return std::nullopt;
}

/// The integer components of a `uint2/uint3` argument written as
/// `make_uint3(a, b, c)` or `uint3{a, b, c}`.
/// The value of a host argument: a constant, or built from constant locals
/// when \p Writes is given.
std::optional<int64_t> hostArgument(const Expr *E, ASTContext &Ctx, WriteAnalysis *Writes) {
  return evaluateHostInt(E, Ctx, Writes ? constantLocals(E, Ctx, *Writes) : HostBindings());
}

std::optional<std::vector<int64_t>> vectorComponents(const Expr *E, ASTContext &Ctx,
                                                     WriteAnalysis *Writes) {
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor())
      return vectorComponents(Construct->getArg(0), Ctx, Writes);
  llvm::SmallVector<const Expr *, 3> Parts;
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const auto *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || !Callee->getName().starts_with("make_uint"))
      return std::nullopt;
    Parts.append(Call->arg_begin(), Call->arg_end());
  } else if (const auto *List = dyn_cast<InitListExpr>(E)) {
    Parts.append(List->inits().begin(), List->inits().end());
  } else if (const auto *Temp = dyn_cast<CXXTemporaryObjectExpr>(E)) {
    Parts.append(Temp->arg_begin(), Temp->arg_end());
  } else {
    return std::nullopt;
  }
  std::vector<int64_t> Values;
  for (const Expr *Part : Parts) {
    auto Value = hostArgument(Part->IgnoreImpCasts(), Ctx, Writes);
    if (!Value)
      return std::nullopt;
    Values.push_back(*Value);
  }
  return Values;
}

/// The shape a set_block_size call sets, when its arguments are constants.
std::optional<std::array<unsigned, 3>> shapeOfCall(const CallExpr *Call, ASTContext &Ctx,
                                                   WriteAnalysis *Writes) {
  std::vector<int64_t> Values;
  if (Call->getNumArgs() == 1 && Call->getArg(0)->getType()->isRecordType()) {
    auto Components = vectorComponents(Call->getArg(0), Ctx, Writes);
    if (!Components)
      return std::nullopt;
    Values = *Components;
  } else {
    for (const Expr *Arg : Call->arguments()) {
      if (isa<CXXDefaultArgExpr>(Arg)) {
        Values.push_back(1);
        continue;
      }
      auto Value = hostArgument(Arg->IgnoreImpCasts(), Ctx, Writes);
      if (!Value)
        return std::nullopt;
      Values.push_back(*Value);
    }
  }
  if (Values.empty() || Values.size() > 3)
    return std::nullopt;
  std::array<unsigned, 3> Shape{1, 1, 1};
  for (size_t I = 0; I < Values.size(); ++I) {
    // LuisaCompute rejects empty blocks, blocks over 1024 threads and z > 64.
    if (Values[I] < 1 || Values[I] > 1024)
      return std::nullopt;
    Shape[I] = static_cast<unsigned>(Values[I]);
  }
  if (Shape[0] * Shape[1] * Shape[2] > 1024 || Shape[2] > 64)
    return std::nullopt;
  return Shape;
}

/// True if host control (if, switch, ?:) between \p Call and \p Body decides
/// whether the call runs.
bool isConditional(const CallExpr *Call, const Stmt *Body, ASTContext &Ctx) {
  for (const Stmt *S = parentStmt(Call, Ctx); S && S != Body; S = parentStmt(S, Ctx))
    if (isa<IfStmt, SwitchStmt, ConditionalOperator, BinaryConditionalOperator>(S))
      return true;
  return false;
}

} // namespace

std::optional<unsigned> kernelDimension(const LambdaExpr *Lambda, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(*Lambda);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 8; ++Depth) {
    const DynTypedNode &Node = Parents[0];
    std::optional<unsigned> Dimension;
    if (const auto *Var = Node.get<VarDecl>())
      Dimension = dimensionOfType(Var->getType());
    else if (const auto *E = Node.get<Expr>())
      Dimension = dimensionOfType(E->getType());
    if (Dimension)
      return Dimension;
    if (const auto *Call = Node.get<CXXMemberCallExpr>())
      if (const auto *Method = Call->getMethodDecl())
        if (Method->getIdentifier() && Method->getName() == "compile")
          return integralArgument(Method->getTemplateSpecializationArgs());
    if (Node.get<Stmt>() && !Node.get<Expr>())
      return std::nullopt;
    Parents = Ctx.getParents(Node);
  }
  return std::nullopt;
}

BlockSize BlockSizeAnalysis::sizeAt(const Stmt *S) {
  const LambdaExpr *Kernel = enclosingKernel(S, Ctx);
  if (!Kernel || lambdaRole(Kernel, Ctx) != LambdaRole::Kernel) {
    BlockSize Size;
    Size.Why = "the code is not in a kernel lambda, so any kernel may run it";
    return Size;
  }
  return sizeOf(Kernel);
}

BlockSize BlockSizeAnalysis::sizeOf(const LambdaExpr *Kernel) {
  auto [It, Inserted] = Kernels.try_emplace(Kernel);
  if (!Inserted)
    return It->second;
  BlockSize Size;
  for (const CallExpr *Call : dslCallsIn(Kernel->getBody(), "set_block_size", Ctx)) {
    Size.SetBy = Call;
    auto Shape = shapeOfCall(Call, Ctx, Writes);
    if (!Shape) {
      Size.From = BlockSize::Unknown;
      Size.Why = "the kernel's block size is not a constant LuisaCompute accepts";
      break;
    }
    if (isConditional(Call, Kernel->getBody(), Ctx)) {
      Size.From = BlockSize::Unknown;
      Size.Why = "host code decides whether set_block_size runs";
      break;
    }
    if (Size.From == BlockSize::Set && Size.Shape != *Shape) {
      Size.From = BlockSize::Unknown;
      Size.Why = "the kernel calls set_block_size with different sizes";
      break;
    }
    Size.From = BlockSize::Set;
    Size.Shape = *Shape;
  }
  if (!Size.SetBy) {
    if (auto Dimension = kernelDimension(Kernel, Ctx)) {
      Size.From = BlockSize::Default;
      Size.Shape = *Dimension == 1   ? std::array<unsigned, 3>{256, 1, 1}
                   : *Dimension == 2 ? std::array<unsigned, 3>{16, 16, 1}
                                     : std::array<unsigned, 3>{8, 8, 8};
    } else {
      Size.Why = "the kernel's dimension, which decides its default block size, is not known";
    }
  }
  return Kernels[Kernel] = Size;
}

} // namespace kernel_tidy::dsl
