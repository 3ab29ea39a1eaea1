/* SPDX-License-Identifier: Apache-2.0 */
// Reads what a schema library registers (add_domain's arguments, each
// OpbridgeOpSchemaDef and everything it points to) into owned specs,
// validating every field: bounded strings, identifiers and dotted domains,
// counts against the ABI's limits, option and type codes, struct_size,
// duplicates, type variables, attribute defaults, function bodies. Each
// refusal is a LoadError naming the library, the call or schema, and the
// field. This is the ABI's rulebook in one place; the registrar only
// carries the library's calls to it, the loader only finds the table.
// Internal to //cc/plugin:schema_host.
#ifndef OPBRIDGE_PLUGIN_SCHEMA_ABI_READER_H_
#define OPBRIDGE_PLUGIN_SCHEMA_ABI_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cc/plugin/opbridge_schema.h"
#include "cc/plugin/schema_host.h"

namespace opbridge::plugin {

// One add_domain call (`call`: how many came before it), checked against the
// domains `added` before it. `origin` is "schema library <path>".
DomainSpec ReadDomainDef(const char* name, int32_t min_version, int32_t max_version, const char* doc, size_t call,
                         const std::string& origin, const std::vector<DomainSpec>& added);

// One add_schema call's definition (`call`: how many came before it),
// checked against the schemas `added` before it.
SchemaSpec ReadSchemaDef(const OpbridgeOpSchemaDef* def, size_t call, const std::string& origin,
                         const std::vector<SchemaSpec>& added);

// Once all are in (a library may add a domain after its schemas): each
// schema's domain was added and its versions include the schema's since_version.
void CheckSchemaDomains(const std::vector<DomainSpec>& domains, const std::vector<SchemaSpec>& schemas,
                        const std::string& origin);

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_SCHEMA_ABI_READER_H_
