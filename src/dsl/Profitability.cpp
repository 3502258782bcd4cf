//===--- Profitability.cpp - Whether a rewrite is faster on a backend -----===//

#include "src/dsl/Profitability.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using llvm::StringRef;

namespace kernel_tidy::dsl {

std::optional<Target> parseTarget(StringRef Name) {
  return llvm::StringSwitch<std::optional<Target>>(Name)
      .Case("any", Target::Any)
      .Case("cuda", Target::Cuda)
      .Cases("dx", "directx", Target::DirectX)
      .Case("vulkan", Target::Vulkan)
      .Case("metal", Target::Metal)
      .Default(std::nullopt);
}

StringRef targetName(Target T) {
  switch (T) {
  case Target::Any:
    return "any";
  case Target::Cuda:
    return "cuda";
  case Target::DirectX:
    return "dx";
  case Target::Vulkan:
    return "vulkan";
  case Target::Metal:
    return "metal";
  }
  llvm_unreachable("unknown Target");
}

StringRef targetChoices() { return "any, cuda, dx (or directx), vulkan or metal"; }

llvm::ArrayRef<GainEntry> gainTable() {
  static const GainEntry Table[] = {
#define KERNEL_TIDY_GAIN(RULE, OP, VALUES, TARGET, GAIN, SOURCE)                                   \
  {RULE, OP, VALUES, TARGET, Gain::GAIN, SOURCE},
#include "src/dsl/Profitability.def"
  };
  return Table;
}

StringRef gainOpName(CombineOp Op) {
  // The table spells bit operations without the collectives' "bit_".
  StringRef Name = collectiveSuffix(Op);
  Name.consume_front("bit_");
  return Name;
}

bool isFloatValueClass(QualType T, const ASTContext &Ctx) {
  T = dslValueType(T).getCanonicalType();
  // luisa::Vector<T, N>: CUDA reduces a vector one component at a time.
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl()))
    if (Spec->getName() == "Vector" && Spec->getTemplateArgs().size() >= 1 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      T = Spec->getTemplateArgs()[0].getAsType().getCanonicalType();
  if (!T->isIntegerType() || T->isBooleanType() || T->isDependentType())
    return true;
  uint64_t Bits = Ctx.getTypeSize(T);
  return Bits != 16 && Bits != 32;
}

std::optional<GainEntry> lookupGain(llvm::ArrayRef<GainEntry> Table, StringRef Rule, StringRef Op,
                                    bool IsFloat, Target T) {
  if (T == Target::Any)
    return std::nullopt;
  StringRef Values = IsFloat ? "float" : "int";
  for (const GainEntry &Entry : Table)
    if (Entry.Rule == Rule && (Entry.Op == "*" || Entry.Op == Op) &&
        (Entry.Values == "*" || Entry.Values == Values) && Entry.Target == targetName(T))
      return Entry;
  return std::nullopt;
}

std::optional<GainEntry> lookupGain(StringRef Rule, StringRef Op, bool IsFloat, Target T) {
  return lookupGain(gainTable(), Rule, Op, IsFloat, T);
}

} // namespace kernel_tidy::dsl
