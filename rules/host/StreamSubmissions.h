//===--- StreamSubmissions.h - Host statements that submit to a Stream ----===//
//
// LuisaCompute's `Stream::operator<<` returns a delegate that collects the
// commands of one expression into a CommandList and commits it when the
// full expression ends: `stream << a << b;` is one submission, `stream << a;
// stream << b;` are two (luisa/runtime/stream.h, src/runtime/stream.cpp).
// This file says which host statements are such submissions, what each
// operand asks of the stream, and which host memory download commands write.
//
//===----------------------------------------------------------------------===//

#ifndef KERNEL_TIDY_RULES_HOST_STREAMSUBMISSIONS_H
#define KERNEL_TIDY_RULES_HOST_STREAMSUBMISSIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace kernel_tidy::dsl {

/// What one operand of `stream << ...` asks the stream to do.
enum class StreamOperand {
  Command,     ///< A command: upload, download, copy, dispatch, build...
  Compound,    ///< A std::tuple of commands (the stream's compound overload).
  Callback,    ///< A host function run once the commands before it are done.
  Synchronize, ///< `synchronize()`: the host waits for the stream.
  Event,       ///< `event.signal()`/`.wait()`, a swapchain present: ordered against others.
  Commit,      ///< `commit()` or a `CommandList::commit()`: submits what came before.
};

/// True for the operands that synchronise: the host waits, or the stream's
/// position is ordered against another stream or an event.
bool isSynchronizing(StreamOperand Kind);

/// One expression statement `S << X << Y ...;` on a luisa::compute::Stream.
struct StreamSubmission {
  const clang::Stmt *Statement = nullptr;
  const clang::Expr *Stream = nullptr;                    ///< S as written.
  const clang::CXXOperatorCallExpr *FirstShift = nullptr; ///< `S << X`.
  llvm::SmallVector<std::pair<StreamOperand, const clang::Expr *>, 4> Operands;

  /// True if every operand is a command (with \p SingleCommands, one that
  /// CommandList::operator<< takes: no compound tuples).
  bool onlyCommands(bool SingleCommands = false) const;
  /// True if one chained statement may take these operands: commands, the
  /// last of them optionally followed by one synchronising or commit operand.
  bool isChainable() const;
  /// True if the last operand synchronises or commits: nothing may follow.
  bool endsWithBarrier() const;
};

/// The submission \p S makes, if it is a `<<` chain on a Stream.
std::optional<StreamSubmission> asStreamSubmission(const clang::Stmt *S);

/// True if \p A and \p B denote the same Stream object: the same variable or
/// member, or the same pointer dereferenced (no calls, no subscripts).
bool isSameStream(const clang::Expr *A, const clang::Expr *B);

/// True if \p E is a host wait: `x.synchronize()` on a Stream or an event.
bool isHostWait(const clang::Expr *E);

/// The host memory an operand of a submission downloads into (`copy_to(p)`
/// of a buffer, image or volume with a host pointer or span), or nullptr.
const clang::Expr *downloadTarget(const clang::Expr *Operand);

/// The host memory an operand uploads from (`copy_from(p)`), or nullptr.
const clang::Expr *uploadSource(const clang::Expr *Operand);

/// The variable or field whose memory the host pointer \p E points into
/// (`v.data() + 4`, `&x`, `&v[i]`, `luisa::span{v}`), or nullptr if unknown.
const clang::ValueDecl *hostMemoryRoot(const clang::Expr *E);

/// The first call in \p E of a function that is not part of LuisaCompute or
/// a standard library (user code, which may do anything on the host), or
/// nullptr.
const clang::Expr *userCodeCall(const clang::Stmt *E);

/// The host memory that the download commands seen so far write, and
/// whether host code reads it (a read before the download has completed).
class DownloadedMemory {
public:
  /// Adds the memory the downloads among \p S's operands write.
  void add(const StreamSubmission &S);
  /// True if \p S reads (or takes the address of) downloaded memory outside
  /// a download's own target; any code, once a download's target is unknown.
  bool isReadBy(const clang::Stmt *S) const;
  bool empty() const { return Roots.empty() && !Unknown; }

private:
  llvm::SmallPtrSet<const clang::ValueDecl *, 4> Roots;
  llvm::SmallPtrSet<const clang::Expr *, 4> Targets;
  bool Unknown = false;
};

/// The host memory that the upload commands seen so far read when they run
/// (when their list is submitted), and whether host code writes it first.
class UploadedMemory {
public:
  /// Adds the memory the uploads among \p S's operands read.
  void add(const StreamSubmission &S);
  /// True if \p S assigns, increments or decrements uploaded memory; any
  /// such write, once an upload's source is unknown.
  bool isWrittenBy(const clang::Stmt *S) const;

private:
  llvm::SmallPtrSet<const clang::ValueDecl *, 4> Roots;
  bool Unknown = false;
};

/// Consecutive statements of one block that submit to the same stream and
/// that one chained statement could submit as well: nothing but whitespace
/// and comments between them (no preprocessor directive, no other code), no
/// callbacks, a synchronising operand only at the end of the last one, no
/// read of memory an earlier one downloads, no write of memory an earlier one
/// uploads (chained, the upload reads it after the write), no user code called by any but
/// the first (it could depend on the earlier commands having been submitted).
std::vector<std::vector<StreamSubmission>> chainableRuns(const clang::CompoundStmt *Block,
                                                         const clang::ASTContext &Ctx);

/// A host loop (for, range-for, while, do) whose body only submits commands
/// to one stream, so that one CommandList could collect every iteration's.
struct BatchableLoop {
  const clang::Stmt *Loop = nullptr;
  std::vector<StreamSubmission> Submissions; ///< In the body, nested loops included.
  const clang::Expr *HeaderCall = nullptr;   ///< User code the loop header calls.
};

/// \p Loop as a BatchableLoop, if its body (nested loops included) holds
/// only submissions of single commands to one stream declared outside it,
/// no download target is read, no upload or download touches memory that
/// the loop declares or whose variable the loop header uses (unless the
/// variable is const: `i < rows.size()` on a const reference), no submission
/// writes uploaded memory, and the body calls no user code.
std::optional<BatchableLoop> asBatchableLoop(const clang::Stmt *Loop, const clang::ASTContext &Ctx);

} // namespace kernel_tidy::dsl

#endif // KERNEL_TIDY_RULES_HOST_STREAMSUBMISSIONS_H
