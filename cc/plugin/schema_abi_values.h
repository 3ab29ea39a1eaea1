/* SPDX-License-Identifier: Apache-2.0 */
// Rules about values from a schema library (opbridge_schema.h) that both the
// registration side (schema_abi_reader, schema_registrar) and the inference
// side (schema_inference_bridge) apply: which dtype bits exist, how much of
// a string the host reads, how messages quote a name. Kept in one place so
// the two sides cannot drift apart and neither has to include the other.
// Internal to //cc/plugin:schema_host.
#ifndef OPBRIDGE_PLUGIN_SCHEMA_ABI_VALUES_H_
#define OPBRIDGE_PLUGIN_SCHEMA_ABI_VALUES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "cc/plugin/opbridge_schema.h"

namespace opbridge::plugin {

// The OpbridgeDType values (bit n: dtype n) a type constraint may allow.
constexpr uint32_t kKnownDTypes =
    OPBRIDGE_DTYPE_BIT(1) | OPBRIDGE_DTYPE_BIT(2) | OPBRIDGE_DTYPE_BIT(3) | OPBRIDGE_DTYPE_BIT(4) |
    OPBRIDGE_DTYPE_BIT(5) | OPBRIDGE_DTYPE_BIT(6) | OPBRIDGE_DTYPE_BIT(7) | OPBRIDGE_DTYPE_BIT(9) |
    OPBRIDGE_DTYPE_BIT(10) | OPBRIDGE_DTYPE_BIT(11) | OPBRIDGE_DTYPE_BIT(12) | OPBRIDGE_DTYPE_BIT(13) |
    OPBRIDGE_DTYPE_BIT(16);

// The longest doc, string value or message the host reads from a library.
constexpr size_t kMaxTextLength = size_t{1} << 20;

// A message the library reports (set_error, fail): read up to kMaxTextLength
// bytes, never refused; `if_null` stands in for a NULL message.
inline std::string LibraryMessage(const char* message, const char* if_null) {
  return message != nullptr ? std::string(message, strnlen(message, kMaxTextLength)) : std::string(if_null);
}

// "\"text\"", for messages.
inline std::string Quote(const std::string& text) { return "\"" + text + "\""; }

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_SCHEMA_ABI_VALUES_H_
