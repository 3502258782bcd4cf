//===--- JsonFields.h - Field checks on JSON the tool did not write -------===//

#ifndef KERNEL_TIDY_DRIVER_JSONFIELDS_H
#define KERNEL_TIDY_DRIVER_JSONFIELDS_H

#include <nlohmann/json.hpp>

namespace kernel_tidy {

/// Whether \p Object has \p Key as a string. operator[] on a const json with a
/// missing key is undefined behaviour, so untrusted input is looked up with find().
inline bool hasString(const nlohmann::json &Object, const char *Key) {
  auto It = Object.find(Key);
  return It != Object.end() && It->is_string();
}

} // namespace kernel_tidy

#endif // KERNEL_TIDY_DRIVER_JSONFIELDS_H
