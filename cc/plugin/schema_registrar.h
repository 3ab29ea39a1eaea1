/* SPDX-License-Identifier: Apache-2.0 */
// The registrar a schema library's register_schemas calls
// (OpbridgeSchemaRegistrar): C callbacks that never throw, passing each
// add_domain and add_schema call to the ABI reader and keeping the first
// refusal or set_error message, then turning the outcome into specs or a
// LoadError. Separate from the reader (what the fields must be) and the
// loader (where the table comes from): this is only the calling protocol.
// Internal to //cc/plugin:schema_host.
#ifndef OPBRIDGE_PLUGIN_SCHEMA_REGISTRAR_H_
#define OPBRIDGE_PLUGIN_SCHEMA_REGISTRAR_H_

#include <string>
#include <vector>

#include "cc/plugin/opbridge_schema.h"
#include "cc/plugin/schema_host.h"

namespace opbridge::plugin {

struct RegisteredSchemas {
  std::vector<DomainSpec> domains;
  std::vector<SchemaSpec> schemas;  // each in an added domain and its versions
};

// Calls table.register_schemas once (the table's ABI version already
// checked); throws LoadError when it is NULL, throws, fails, registers
// nothing or registers something invalid. `origin` is "schema library <path>".
RegisteredSchemas RegisterSchemas(const OpbridgeSchemaLibrary& table, const std::string& origin);

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_SCHEMA_REGISTRAR_H_
