// SPDX-License-Identifier: Apache-2.0
// SchemaLibrary (schema_host.h) put together from the pieces that each do one
// job: schema_library_loader (dlopen, entry point, ABI version),
// schema_registrar with schema_abi_reader (what register_schemas adds, read
// and validated), schema_inference_bridge (calling a schema's infer). Also
// the specs' small helpers declared in schema_host.h.
#include "cc/plugin/schema_host.h"

#include "cc/plugin/schema_inference_bridge.h"
#include "cc/plugin/schema_library_loader.h"
#include "cc/plugin/schema_registrar.h"

namespace opbridge::plugin {

std::string SchemaSpec::Describe() const {
  return domain + "." + name + " (since version " + std::to_string(since_version) + ")";
}

int32_t AttributeTypeOf(const AttributeValue& value) {
  static constexpr int32_t kTypes[] = {OPBRIDGE_ATTRIBUTE_INT,  OPBRIDGE_ATTRIBUTE_FLOAT,  OPBRIDGE_ATTRIBUTE_STRING,
                                       OPBRIDGE_ATTRIBUTE_INTS, OPBRIDGE_ATTRIBUTE_FLOATS, OPBRIDGE_ATTRIBUTE_STRINGS};
  return kTypes[value.index()];
}

const char* AttributeTypeName(int32_t type) {
  switch (type) {
    case OPBRIDGE_ATTRIBUTE_INT:
      return "int";
    case OPBRIDGE_ATTRIBUTE_FLOAT:
      return "float";
    case OPBRIDGE_ATTRIBUTE_STRING:
      return "string";
    case OPBRIDGE_ATTRIBUTE_INTS:
      return "ints";
    case OPBRIDGE_ATTRIBUTE_FLOATS:
      return "floats";
    case OPBRIDGE_ATTRIBUTE_STRINGS:
      return "strings";
    default:
      return "";
  }
}

std::shared_ptr<SchemaLibrary> SchemaLibrary::Open(const std::string& path) {
  SchemaLibraryFile file = OpenSchemaLibraryFile(path);
  std::shared_ptr<SchemaLibrary> library(new SchemaLibrary());
  library->path_ = std::move(file.path);
  library->handle_ = std::move(file.handle);
  library->Register(file.table);
  return library;
}

std::shared_ptr<SchemaLibrary> SchemaLibrary::FromTable(const OpbridgeSchemaLibrary* table, const std::string& origin) {
  std::shared_ptr<SchemaLibrary> library(new SchemaLibrary());
  library->path_ = origin;
  library->Register(table);
  return library;
}

void SchemaLibrary::Register(const OpbridgeSchemaLibrary* table) {
  const std::string origin = "schema library " + path_;
  CheckSchemaTable(table, origin);
  RegisteredSchemas registered = RegisterSchemas(*table, origin);
  domains_ = std::move(registered.domains);
  schemas_ = std::move(registered.schemas);
}

std::vector<InferOutput> SchemaLibrary::Infer(size_t index, const std::vector<InferInput>& inputs,
                                              const Attributes& attributes) const {
  if (index >= schemas_.size()) {
    throw InvalidInput("schema library " + path_ + " has no schema " + std::to_string(index) + " (it has " +
                       std::to_string(schemas_.size()) + ")");
  }
  return RunSchemaInference(schemas_[index], inputs, attributes, path_);
}

}  // namespace opbridge::plugin
