// SPDX-License-Identifier: Apache-2.0
// dlopen and the schema library's entry point: see schema_library_loader.h.
#include "cc/plugin/schema_library_loader.h"

#include <dlfcn.h>

#include <exception>

#include "cc/plugin/elf_facts.h"

namespace opbridge::plugin {

SchemaLibraryFile OpenSchemaLibraryFile(const std::string& path) {
  SchemaLibraryFile file;
  // An explicit path only (a bare name would make dlopen search for it), existing, a regular file.
  file.path = ResolveLibraryPath(path);
  ReadElfFacts(file.path);  // a clear error for files that are not shared libraries for this machine
  file.handle = OpenLibrary(file.path);
  dlerror();
  void* entry_point = dlsym(file.handle.get(), OPBRIDGE_SCHEMA_ENTRY_POINT);
  if (entry_point == nullptr) {
    throw LoadError("schema library " + file.path + " does not export " OPBRIDGE_SCHEMA_ENTRY_POINT
                    " (define `const OpbridgeSchemaLibrary* " OPBRIDGE_SCHEMA_ENTRY_POINT
                    "(void)` at global scope, including cc/plugin/opbridge_schema.h, which declares it with C "
                    "linkage and default visibility)");
  }
  try {
    file.table = reinterpret_cast<OpbridgeSchemaLibraryFn>(entry_point)();
  } catch (const std::exception& error) {
    throw LoadError("schema library " + file.path + ": " OPBRIDGE_SCHEMA_ENTRY_POINT " threw: " + error.what());
  } catch (...) {
    throw LoadError("schema library " + file.path + ": " OPBRIDGE_SCHEMA_ENTRY_POINT
                    " threw a non-standard exception");
  }
  return file;
}

void CheckSchemaTable(const OpbridgeSchemaLibrary* table, const std::string& origin) {
  if (table == nullptr) {
    throw LoadError(origin + ": " OPBRIDGE_SCHEMA_ENTRY_POINT
                             " returned NULL (return a pointer to a static OpbridgeSchemaLibrary)");
  }
  // The version comes first: nothing else of the struct is read from another version.
  if (table->abi_version != OPBRIDGE_SCHEMA_ABI_VERSION) {
    throw LoadError(origin + " implements schema ABI version " + std::to_string(table->abi_version) +
                    "; this host implements version " + std::to_string(OPBRIDGE_SCHEMA_ABI_VERSION) +
                    " (rebuild the library against this opbridge's cc/plugin/opbridge_schema.h)");
  }
}

}  // namespace opbridge::plugin
