//===--- AtomicFile.h - The one way kernel-tidy replaces a file -----------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_ATOMICFILE_H
#define KERNEL_TIDY_SRC_DRIVER_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace kernel_tidy {

/// Replaces (or creates) the file at \p Path with \p Contents so that a
/// reader, a crash or a full disk leaves the old file or the new one, never
/// a part: the text goes to a temporary file in the same folder, is fsynced,
/// given \p Mode (default: the old file's permissions, or 0666 less the
/// umask for a new file) and renamed over the file that \p Path names
/// (through symbolic links). A path that names a device or FIFO
/// (/dev/stdout) is written directly, with every write checked. Returns ""
/// or an error message starting with \p Path; no temporary file remains.
std::string writeAtomically(const std::string &Path, llvm::StringRef Contents,
                            std::optional<unsigned> Mode = std::nullopt);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_ATOMICFILE_H
