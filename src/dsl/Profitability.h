//===--- Profitability.h - Whether a rewrite is faster on a backend -------===//
//
// The rules' rewrites are not faster everywhere: on CUDA a warp_active_max of
// floats is itself a shuffle butterfly, so replacing a hand-written one gains
// readability, not speed. Profitability.def records, per rule, operation,
// value class and backend, what is expected from the lowering (or measured by
// the GPU harness); the rules say so on a note when --target names a backend.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_PROFITABILITY_H
#define KERNEL_TIDY_SRC_DSL_PROFITABILITY_H

#include "src/dsl/Names.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace kernel_tidy::dsl {

/// The backend kernels are compiled for; Any makes no per-backend claim.
enum class Target { Any, Cuda, DirectX, Vulkan, Metal };

/// "any", "cuda", "dx" (or "directx"), "vulkan", "metal"; std::nullopt for
/// anything else.
std::optional<Target> parseTarget(llvm::StringRef Name);

/// The name of \p T in --target, the Target option and the table ("dx").
llvm::StringRef targetName(Target T);

/// The names parseTarget accepts, for messages.
llvm::StringRef targetChoices();

/// What a rewrite does to a kernel's speed on one backend.
enum class Gain { Faster, Parity, Slower };

/// One line of Profitability.def.
struct GainEntry {
  llvm::StringRef Rule;
  llvm::StringRef Op;     ///< "sum", ..., "xor", or "*".
  llvm::StringRef Values; ///< "int", "float" or "*".
  llvm::StringRef Target; ///< "cuda", "dx", "vulkan" or "metal".
  Gain Outcome;
  llvm::StringRef Source; ///< Why: expected from ..., or measured ....
};

/// Every line of Profitability.def, in order.
llvm::ArrayRef<GainEntry> gainTable();

/// The table's name of \p Op: "sum", "product", "min", "max", "and", "or", "xor".
llvm::StringRef gainOpName(CombineOp Op);

/// The table's value class of \p T (a host or DSL type): false ("int") for
/// 16- and 32-bit integers and vectors of them, the values CUDA reduces with
/// one redux.sync; true ("float") for everything else: float, half, vectors,
/// matrices, 64-bit values.
bool isFloatValueClass(clang::QualType T, const clang::ASTContext &Ctx);

/// The first entry of \p Table for the rewrite of \p Rule that combines \p Op
/// over values of the class \p IsFloat on \p T; std::nullopt when no entry
/// matches (unknown) or \p T is Any.
std::optional<GainEntry> lookupGain(llvm::ArrayRef<GainEntry> Table, llvm::StringRef Rule,
                                    llvm::StringRef Op, bool IsFloat, Target T);

/// lookupGain in Profitability.def.
std::optional<GainEntry> lookupGain(llvm::StringRef Rule, llvm::StringRef Op, bool IsFloat,
                                    Target T);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_PROFITABILITY_H
