/* SPDX-License-Identifier: Apache-2.0 */
// Loads operator-schema libraries (opbridge_schema.h): checks the ABI
// version, lets the library register its domains and schemas, copies and
// validates every field into owned C++ values, and calls a schema's
// inference callback. Used by the pybind11 module cc/python:_opbridge_schemas
// and by C++ tests; Python code uses opbridge.schema_libraries.
#ifndef OPBRIDGE_PLUGIN_SCHEMA_HOST_H_
#define OPBRIDGE_PLUGIN_SCHEMA_HOST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cc/plugin/host_types.h"
#include "cc/plugin/opbridge_schema.h"

namespace opbridge::plugin {

// A schema's inference callback reported that the node does not suit the
// op (its message, through fail()).
class InferenceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A schema's inference callback broke the ABI's contract: a nonzero return
// without a message, no or wrong outputs, an exception.
class InferenceContractError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DomainSpec {
  std::string name;
  int32_t min_version = 1;
  int32_t max_version = 1;
  std::string doc;
};

struct ParameterSpec {
  std::string name;
  std::string type_var;
  std::string doc;
  int32_t option = OPBRIDGE_PARAMETER_SINGLE;  // OpbridgeParameterOption
};

struct TypeConstraintSpec {
  std::string type_var;
  uint32_t allowed = 0;  // OPBRIDGE_DTYPE_BIT set
  std::string doc;
};

// AttributeValue's alternative for each OpbridgeAttributeType:
// INT int64_t, FLOAT double, STRING string, INTS, FLOATS, STRINGS vectors.
struct AttributeSpec {
  std::string name;
  int32_t type = 0;  // OpbridgeAttributeType
  std::optional<AttributeValue> default_value;  // none: required
  std::string doc;
};

struct FunctionNodeSpec {
  std::string op_type;
  std::string domain;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<std::pair<std::string, AttributeValue>> attributes;  // in declared order
};

struct FunctionBodySpec {
  std::vector<FunctionNodeSpec> nodes;
  std::vector<std::pair<std::string, int32_t>> opset_imports;
};

struct SchemaSpec {
  std::string domain;
  std::string name;
  int32_t since_version = 0;
  std::string doc;
  std::vector<ParameterSpec> inputs;
  std::vector<ParameterSpec> outputs;
  std::vector<TypeConstraintSpec> type_constraints;
  std::vector<AttributeSpec> attributes;
  std::optional<FunctionBodySpec> function_body;
  int32_t (*infer)(const OpbridgeInferContext* ctx) = nullptr;  // points into the library

  // "com.example.copy.CopyInput (since version 1)", for messages.
  std::string Describe() const;
};

// One input as inference sees it.
struct InferInput {
  bool present = true;
  int32_t dtype = 0;           // OpbridgeDType
  std::vector<int64_t> shape;  // -1: known only at run time
};

struct InferOutput {
  int32_t dtype = 0;
  std::vector<int64_t> shape;
};

// The OpbridgeAttributeType of an AttributeValue, and its name ("int", "floats", ...).
int32_t AttributeTypeOf(const AttributeValue& value);
const char* AttributeTypeName(int32_t type);

// One loaded schema library: its domains and schemas, copied and checked.
// The library stays loaded as long as this object (hold it by shared_ptr
// while any schema may still be inferred).
class SchemaLibrary {
 public:
  // Loads by explicit path (no bare names: dlopen would search for them),
  // checks the ABI version and registers; throws LoadError naming the
  // library, the schema and the field at fault.
  static std::shared_ptr<SchemaLibrary> Open(const std::string& path);

  // Registers from an entry point's table already in this process (a
  // statically linked library, or a test); `origin` names it in messages.
  static std::shared_ptr<SchemaLibrary> FromTable(const OpbridgeSchemaLibrary* table, const std::string& origin);

  const std::string& path() const { return path_; }
  const std::vector<DomainSpec>& domains() const { return domains_; }
  const std::vector<SchemaSpec>& schemas() const { return schemas_; }

  // Calls schema `index`'s inference callback. The arguments are checked
  // against the schema first (InvalidInput): input count and presence,
  // dtypes against the type variables, shapes, attribute names and types
  // (defaults are filled in). Throws InferenceError with the callback's
  // message when it fails, InferenceContractError when it misbehaves.
  std::vector<InferOutput> Infer(size_t index, const std::vector<InferInput>& inputs,
                                 const Attributes& attributes) const;

 private:
  SchemaLibrary() = default;
  void Register(const OpbridgeSchemaLibrary* table);

  LibraryHandle handle_;  // first: closed after the schemas (whose infer points into it) are gone
  std::string path_;
  std::vector<DomainSpec> domains_;
  std::vector<SchemaSpec> schemas_;
};

}  // namespace opbridge::plugin

#endif  // OPBRIDGE_PLUGIN_SCHEMA_HOST_H_
