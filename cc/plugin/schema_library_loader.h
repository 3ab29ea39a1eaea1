/* SPDX-License-Identifier: Apache-2.0 */
// Gets a schema library's table: resolves the explicit path, checks that the
// file is a shared library for this machine, dlopen()s it, finds and calls
// its entry point (opbridge_schema_library), and checks the table's ABI
// version before anything else of it is read. The handle it returns keeps
// the library loaded; SchemaLibrary holds it for as long as any schema's
// infer pointer may be called. Separate from what the table registers
// (schema_registrar, schema_abi_reader): this is only dlopen and the entry
// point's contract. Internal to //cc/plugin:schema_host.
#ifndef OPBRIDGE_PLUGIN_SCHEMA_LIBRARY_LOADER_H_
#define OPBRIDGE_PLUGIN_SCHEMA_LIBRARY_LOADER_H_

#include <string>

#include "cc/plugin/host_types.h"
#include "cc/plugin/opbridge_schema.h"

namespace opbridge::plugin {

// A loaded schema library file and what its entry point returned.
struct SchemaLibraryFile {
  std::string path;                           // resolved, absolute
  LibraryHandle handle;                       // dlclose()s the library when released
  const OpbridgeSchemaLibrary* table = nullptr;  // unchecked: see CheckSchemaTable
};

// Loads by explicit path and calls the entry point; throws LoadError when the
// path, the file, dlopen or the entry point fails.
SchemaLibraryFile OpenSchemaLibraryFile(const std::string& path);

// Refuses a NULL table and a table of another ABI version (LoadError). `origin`
// is "schema library <path>".
void CheckSchemaTable(const OpbridgeSchemaLibrary* table, const std::string& origin);

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_SCHEMA_LIBRARY_LOADER_H_
