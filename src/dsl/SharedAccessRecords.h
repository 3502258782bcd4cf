//===--- SharedAccessRecords.h - A Shared access and a race, as found ----===//
//
// What SharedAccessAnalysis reports of a kernel: each Shared read or write it
// emits, and each pair of them that two threads can make to one element
// between the same two barriers. Also the records its kernel model keeps.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_SRC_DSL_SHAREDACCESSRECORDS_H
#define KERNEL_TIDY_SRC_DSL_SHAREDACCESSRECORDS_H

#include "clang/AST/Expr.h"
#include "clang/AST/Decl.h"
#include <array>
#include <cstdint>
#include <vector>

namespace kernel_tidy::dsl {

/// One read or write of a Shared element, as one kernel emits it (an access
/// in a helper called twice is two accesses).
struct SharedAccess {
  const clang::Expr *Access = nullptr; ///< `s[i]`, `s.read(i)`, `s.write(i, v)`.
  const clang::Expr *Index = nullptr;
  const clang::Expr *Stored = nullptr; ///< The value a plain write stores, if known.
  const clang::VarDecl *Array = nullptr;
  unsigned Instance = 0; ///< Which construction of Array (a helper may declare it).
  bool Reads = false;
  bool Writes = false;
  /// The helper, lambda or Callable calls from the kernel down to the access,
  /// outermost first.
  std::vector<const clang::CallExpr *> Calls;
};

/// A pair of accesses that two distinct threads can make to one element
/// within one barrier interval.
struct SharedRace {
  enum Order {
    WriteThenRead, ///< The write comes first on the barrier-free path.
    ReadThenWrite, ///< The read comes first (write-after-read).
    SameStatement, ///< Both in one statement.
    OtherBranch,   ///< In two arms of a thread-dependent branch.
  };
  const SharedAccess *Write = nullptr;
  const SharedAccess *Read = nullptr;
  Order Sequence = WriteThenRead;
  /// The loop whose back edge the barrier-free path crosses (the second
  /// access runs in a later iteration), or nullptr.
  const clang::Stmt *AcrossLoop = nullptr;
  std::array<unsigned, 3> Writer{0, 0, 0}; ///< The writing thread's thread_id().
  std::array<unsigned, 3> Reader{0, 0, 0}; ///< The reading thread's thread_id().
  int64_t Element = 0;
  unsigned Dimension = 1; ///< Of the kernel: how many coordinates to show.
};

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_SRC_DSL_SHAREDACCESSRECORDS_H
