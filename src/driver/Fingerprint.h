//===--- Fingerprint.h - Line-independent identities of findings ----------===//

#ifndef KERNEL_TIDY_SRC_DRIVER_FINGERPRINT_H
#define KERNEL_TIDY_SRC_DRIVER_FINGERPRINT_H

#include "src/driver/Findings.h"
#include <string>
#include <vector>

namespace kernel_tidy {

/// One fingerprint per finding of \p Result, in order, as "HASH:N".
///
/// HASH covers the rule and the whitespace-collapsed text of the reported
/// code (its range, or its line when the rule reports a point), not line
/// numbers, so it survives edits elsewhere in the file and moved code. N
/// (from 1) tells identical findings of one file apart, so that a second copy
/// of a baselined pattern is a new finding. Used by baselines and by SARIF's
/// partialFingerprints.primaryLocationLineHash.
std::vector<std::string> fingerprintFindings(const FileResult &Result);

} // namespace kernel_tidy

#endif // KERNEL_TIDY_SRC_DRIVER_FINGERPRINT_H
