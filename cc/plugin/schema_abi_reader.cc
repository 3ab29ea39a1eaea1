// SPDX-License-Identifier: Apache-2.0
// Reads and validates what a schema library registers: see schema_abi_reader.h.
#include "cc/plugin/schema_abi_reader.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <variant>

#include "cc/plugin/schema_abi_values.h"

namespace opbridge::plugin {
namespace {

constexpr size_t kMaxNameLength = 256;
constexpr uint32_t kMaxSchemaDefSize = 1u << 16;
constexpr int32_t kMaxTypeConstraints = 2 * OPBRIDGE_SCHEMA_MAX_PARAMETERS;
// opbridge's and ONNX's domains ("" is ONNX's default, refused as not a dotted identifier).
const std::set<std::string> kReservedDomains = {"ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", "opbridge"};

// ----- Strings, names, counts, values -----

[[noreturn]] void Fail(const std::string& where, const std::string& problem) {
  throw LoadError(where + ": " + problem);
}

bool IsIdentifier(const std::string& text) {
  if (text.empty()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

bool IsDottedIdentifier(const std::string& text) {
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    if (!IsIdentifier(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start))) return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

// A string the library passed (NULL stays NULL), bounded so that an
// unterminated one is refused rather than read without end.
std::optional<std::string> ReadString(const char* text, size_t max_length, const std::string& where,
                                      const std::string& field) {
  if (text == nullptr) return std::nullopt;
  const size_t length = strnlen(text, max_length + 1);
  if (length > max_length) {
    Fail(where, field + " is longer than " + std::to_string(max_length) + " bytes (is it NUL-terminated?)");
  }
  return std::string(text, length);
}

std::string ReadIdentifier(const char* text, const std::string& where, const std::string& field) {
  const std::optional<std::string> name = ReadString(text, kMaxNameLength, where, field);
  if (!name) Fail(where, field + " is NULL");
  if (name->empty()) Fail(where, field + " is empty");
  if (!IsIdentifier(*name)) {
    Fail(where, field + " " + Quote(*name) +
                    " is not an identifier (ASCII letters, digits and _, not starting with a digit)");
  }
  return *name;
}

std::string ReadDoc(const char* text, const std::string& where, const std::string& field) {
  return ReadString(text, kMaxTextLength, where, field).value_or("");
}

// "" (ONNX's default domain) only where `allow_default`; otherwise a dotted identifier.
std::string ReadDomain(const char* text, const std::string& where, const std::string& field, bool allow_default) {
  const std::optional<std::string> domain = ReadString(text, kMaxNameLength, where, field);
  if (!domain) Fail(where, field + " is NULL" + (allow_default ? std::string("; use \"\" for ONNX's domain") : ""));
  if (domain->empty() && allow_default) return *domain;
  if (!IsDottedIdentifier(*domain)) {
    Fail(where, field + " " + Quote(*domain) + " is not a dotted identifier (e.g. \"com.example\")");
  }
  return *domain;
}

void CheckCount(int32_t count, const void* items, int32_t min, int32_t max, const std::string& where,
                const std::string& count_field, const std::string& array_field) {
  if (count < min || count > max) {
    Fail(where, count_field + " " + std::to_string(count) + " is outside " + std::to_string(min) + ".." +
                    std::to_string(max));
  }
  if (count > 0 && items == nullptr) {
    Fail(where, count_field + " is " + std::to_string(count) + " but " + array_field + " is NULL");
  }
}

template <typename Element>
std::vector<Element> ReadList(const Element* items, int32_t count, const std::string& where,
                              const std::string& field, const char* array_member) {
  CheckCount(count, items, 0, OPBRIDGE_SCHEMA_MAX_LIST, where, field + ".count", field + "." + array_member);
  return count == 0 ? std::vector<Element>() : std::vector<Element>(items, items + count);
}

AttributeValue ReadValue(int32_t type, const OpbridgeAttributeValue& value, const std::string& where,
                         const std::string& field) {
  switch (type) {
    case OPBRIDGE_ATTRIBUTE_INT:
      return value.i;
    case OPBRIDGE_ATTRIBUTE_FLOAT:
      return value.f;
    case OPBRIDGE_ATTRIBUTE_STRING: {
      std::optional<std::string> text = ReadString(value.s, kMaxTextLength, where, field + ".s");
      if (!text) Fail(where, field + ".s is NULL (a STRING value needs a string; \"\" is one)");
      return *text;
    }
    case OPBRIDGE_ATTRIBUTE_INTS:
      return ReadList(value.ints, value.count, where, field, "ints");
    case OPBRIDGE_ATTRIBUTE_FLOATS:
      return ReadList(value.floats, value.count, where, field, "floats");
    case OPBRIDGE_ATTRIBUTE_STRINGS: {
      std::vector<std::string> texts;
      for (const char* item : ReadList(value.strings, value.count, where, field, "strings")) {
        const std::string entry = field + ".strings[" + std::to_string(texts.size()) + "]";
        std::optional<std::string> text = ReadString(item, kMaxTextLength, where, entry);
        if (!text) Fail(where, entry + " is NULL");
        texts.push_back(std::move(*text));
      }
      return texts;
    }
    default:
      Fail(where, "type " + std::to_string(type) +
                      " is not an OpbridgeAttributeType (FLOAT 1, INT 2, STRING 3, FLOATS 6, INTS 7, STRINGS 8)");
  }
}

ParameterSpec ReadParameter(const OpbridgeFormalParameter& parameter, const std::string& role, int32_t position,
                            const std::string& where) {
  const std::string at = where + ": " + role + " " + std::to_string(position);
  ParameterSpec spec;
  spec.name = ReadIdentifier(parameter.name, at, "name");
  const std::string named = at + " (" + spec.name + ")";
  spec.type_var = ReadIdentifier(parameter.type_var, named, "type_var");
  spec.doc = ReadDoc(parameter.doc, named, "doc");
  if (parameter.option != OPBRIDGE_PARAMETER_SINGLE && parameter.option != OPBRIDGE_PARAMETER_OPTIONAL &&
      parameter.option != OPBRIDGE_PARAMETER_VARIADIC) {
    Fail(named, "option " + std::to_string(parameter.option) +
                    " is not an OpbridgeParameterOption (SINGLE 0, OPTIONAL 1, VARIADIC 2)");
  }
  spec.option = parameter.option;
  return spec;
}

std::vector<ParameterSpec> ReadParameters(const OpbridgeFormalParameter* parameters, int32_t count,
                                          const std::string& role, int32_t min_count, const std::string& where) {
  CheckCount(count, parameters, min_count, OPBRIDGE_SCHEMA_MAX_PARAMETERS, where, role + "_count", role + "s");
  std::vector<ParameterSpec> specs;
  std::map<std::string, int32_t> positions;
  for (int32_t i = 0; i < count; ++i) {
    specs.push_back(ReadParameter(parameters[i], role, i, where));
    const ParameterSpec& spec = specs.back();
    const auto [previous, inserted] = positions.emplace(spec.name, i);
    if (!inserted) {
      Fail(where, role + " " + std::to_string(i) + " is named " + Quote(spec.name) + " like " + role + " " +
                      std::to_string(previous->second) + " (names are unique among the " + role + "s)");
    }
    if (spec.option == OPBRIDGE_PARAMETER_VARIADIC && i != count - 1) {
      Fail(where, role + " " + std::to_string(i) + " (" + spec.name + ") is variadic but not the last " + role +
                      " (only the last " + role + " may be variadic)");
    }
  }
  return specs;
}

// ----- Function bodies -----

// The body's opset imports: dotted domains ("" for ONNX's), each once, versions >= 1.
std::vector<std::pair<std::string, int32_t>> ReadOpsetImports(const OpbridgeFunctionBody& body,
                                                             const std::string& where) {
  CheckCount(body.opset_import_count, body.opset_imports, 1, OPBRIDGE_SCHEMA_MAX_PARAMETERS, where,
             "opset_import_count", "opset_imports");
  std::vector<std::pair<std::string, int32_t>> imports;
  std::set<std::string> imported;
  for (int32_t i = 0; i < body.opset_import_count; ++i) {
    const std::string at = where + ": opset import " + std::to_string(i);
    const OpbridgeOpsetImport& opset = body.opset_imports[i];
    std::string domain = ReadDomain(opset.domain, at, "domain", true);
    if (opset.version < 1) Fail(at, "version " + std::to_string(opset.version) + " must be >= 1");
    if (!imported.insert(domain).second) Fail(at, "domain " + Quote(domain) + " is imported twice");
    imports.emplace_back(std::move(domain), opset.version);
  }
  return imports;
}

// A node's attributes: each name once, no empty lists (they do not say their element type).
std::vector<std::pair<std::string, AttributeValue>> ReadNodeAttributes(const OpbridgeFunctionNode& node,
                                                                       const std::string& at) {
  CheckCount(node.attribute_count, node.attributes, 0, OPBRIDGE_SCHEMA_MAX_ATTRIBUTES, at, "attribute_count",
             "attributes");
  std::vector<std::pair<std::string, AttributeValue>> attributes;
  std::set<std::string> attribute_names;
  for (int32_t i = 0; i < node.attribute_count; ++i) {
    const OpbridgeNodeAttribute& attribute = node.attributes[i];
    std::string attribute_at = at + ": attribute " + std::to_string(i);
    std::string name = ReadIdentifier(attribute.name, attribute_at, "name");
    attribute_at += " (" + name + ")";
    if (!attribute_names.insert(name).second) throw LoadError(attribute_at + " is set twice on this node");
    AttributeValue value = ReadValue(attribute.type, attribute.value, attribute_at, "value");
    const bool empty_list = (std::holds_alternative<std::vector<int64_t>>(value) &&
                             std::get<std::vector<int64_t>>(value).empty()) ||
                            (std::holds_alternative<std::vector<double>>(value) &&
                             std::get<std::vector<double>>(value).empty()) ||
                            (std::holds_alternative<std::vector<std::string>>(value) &&
                             std::get<std::vector<std::string>>(value).empty());
    if (empty_list) {
      throw LoadError(attribute_at + " is an empty list, which does not say its element type; leave it out");
    }
    attributes.emplace_back(std::move(name), std::move(value));
  }
  return attributes;
}

// Node `position` of a body: its domain among the `imported` ones, inputs
// only from values already `defined`, outputs each written once (added to
// `defined`).
FunctionNodeSpec ReadFunctionNode(const OpbridgeFunctionNode& node, int32_t position, const std::string& where,
                                  const std::set<std::string>& imported, std::set<std::string>* defined) {
  FunctionNodeSpec node_spec;
  std::string at = where + ": node " + std::to_string(position);
  node_spec.op_type = ReadIdentifier(node.op_type, at, "op_type");
  at += " (" + node_spec.op_type + ")";
  node_spec.domain = ReadDomain(node.domain, at, "domain", true);
  if (imported.count(node_spec.domain) == 0) {
    Fail(at, "domain " + Quote(node_spec.domain) + " is not among the body's opset imports (add {" +
                 Quote(node_spec.domain) + ", version} to opset_imports)");
  }
  CheckCount(node.input_count, node.inputs, 0, OPBRIDGE_SCHEMA_MAX_LIST, at, "input_count", "inputs");
  for (int32_t i = 0; i < node.input_count; ++i) {
    const std::string field = "input " + std::to_string(i);
    const std::optional<std::string> name = ReadString(node.inputs[i], kMaxNameLength, at, field);
    if (!name) Fail(at, field + " is NULL (use \"\" for an omitted input)");
    if (defined->count(*name) == 0) {
      Fail(at, field + " reads " + Quote(*name) +
                   ", which is undefined there (neither a formal input nor written by an earlier node)");
    }
    node_spec.inputs.push_back(*name);
  }
  CheckCount(node.output_count, node.outputs, 1, OPBRIDGE_SCHEMA_MAX_LIST, at, "output_count", "outputs");
  for (int32_t i = 0; i < node.output_count; ++i) {
    const std::string field = "output " + std::to_string(i);
    const std::optional<std::string> name = ReadString(node.outputs[i], kMaxNameLength, at, field);
    if (!name) Fail(at, field + " is NULL (use \"\" for an omitted optional output)");
    if (!name->empty() && !defined->insert(*name).second) {
      Fail(at, field + " writes " + Quote(*name) +
                   ", which is already defined (each value is written once, and formal inputs never)");
    }
    node_spec.outputs.push_back(*name);
  }
  node_spec.attributes = ReadNodeAttributes(node, at);
  return node_spec;
}

FunctionBodySpec ReadFunctionBody(const OpbridgeFunctionBody& body, const SchemaSpec& schema,
                                  const std::string& schema_where) {
  const std::string where = schema_where + ": function_body";
  FunctionBodySpec spec;
  spec.opset_imports = ReadOpsetImports(body, where);
  std::set<std::string> imported;
  for (const auto& opset : spec.opset_imports) imported.insert(opset.first);
  CheckCount(body.node_count, body.nodes, 1, OPBRIDGE_SCHEMA_MAX_NODES, where, "node_count", "nodes");
  // Values defined so far: the formal inputs, "" (an omitted input) and what earlier nodes wrote.
  std::set<std::string> defined = {""};
  for (const ParameterSpec& input : schema.inputs) defined.insert(input.name);
  for (int32_t k = 0; k < body.node_count; ++k) {
    spec.nodes.push_back(ReadFunctionNode(body.nodes[k], k, where, imported, &defined));
  }
  for (const ParameterSpec& output : schema.outputs) {
    if (defined.count(output.name) == 0) {
      Fail(where, "no node writes output " + Quote(output.name) + " (a function body computes every output)");
    }
  }
  return spec;
}

// ----- Schemas -----

// The definition is there and its struct_size is version 1's, or larger with
// only zero bytes after version 1's fields (features this host does not know).
void CheckSchemaDefSize(const OpbridgeOpSchemaDef* def, const std::string& where) {
  if (def == nullptr) Fail(where, "the schema is NULL");
  if (def->struct_size < sizeof(OpbridgeOpSchemaDef)) {
    Fail(where, "struct_size " + std::to_string(def->struct_size) + " is smaller than ABI version 1's " +
                    std::to_string(sizeof(OpbridgeOpSchemaDef)) + " (set it to sizeof(OpbridgeOpSchemaDef))");
  }
  if (def->struct_size > kMaxSchemaDefSize) {
    Fail(where, "struct_size " + std::to_string(def->struct_size) +
                    " is implausible (set it to sizeof(OpbridgeOpSchemaDef))");
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(def);
  for (size_t i = sizeof(OpbridgeOpSchemaDef); i < def->struct_size; ++i) {
    if (bytes[i] != 0) {
      Fail(where, "struct_size " + std::to_string(def->struct_size) + " sets fields after ABI version 1's " +
                      std::to_string(sizeof(OpbridgeOpSchemaDef)) +
                      " bytes, which this host does not know (build against this opbridge's opbridge_schema.h)");
    }
  }
}

// Each type variable constrained once, to a nonempty set of known dtypes.
std::vector<TypeConstraintSpec> ReadTypeConstraints(const OpbridgeOpSchemaDef& def, const std::string& where) {
  CheckCount(def.type_constraint_count, def.type_constraints, 0, kMaxTypeConstraints, where,
             "type_constraint_count", "type_constraints");
  std::vector<TypeConstraintSpec> constraints;
  std::set<std::string> constrained;
  for (int32_t i = 0; i < def.type_constraint_count; ++i) {
    const OpbridgeTypeConstraint& constraint = def.type_constraints[i];
    std::string at = where + ": type constraint " + std::to_string(i);
    TypeConstraintSpec constraint_spec;
    constraint_spec.type_var = ReadIdentifier(constraint.type_var, at, "type_var");
    at += " (" + constraint_spec.type_var + ")";
    if (!constrained.insert(constraint_spec.type_var).second) {
      throw LoadError(at + " constrains its type variable a second time");
    }
    if (constraint.allowed == 0) {
      throw LoadError(at + " allows no dtype (set OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_...) bits)");
    }
    if ((constraint.allowed & ~kKnownDTypes) != 0) {
      char bits[16];
      std::snprintf(bits, sizeof bits, "0x%x", static_cast<unsigned>(constraint.allowed & ~kKnownDTypes));
      Fail(at, std::string("allowed has unknown dtype bits ") + bits +
                   " (only OPBRIDGE_DTYPE_BIT of OpbridgeDType values)");
    }
    constraint_spec.allowed = constraint.allowed;
    constraint_spec.doc = ReadDoc(constraint.doc, at, "doc");
    constraints.push_back(std::move(constraint_spec));
  }
  return constraints;
}

// Every input's and output's type variable has a type constraint.
void CheckTypeVariablesConstrained(const SchemaSpec& spec, const std::string& where) {
  std::set<std::string> constrained;
  for (const TypeConstraintSpec& constraint : spec.type_constraints) constrained.insert(constraint.type_var);
  for (const auto* parameters : {&spec.inputs, &spec.outputs}) {
    const std::string role = parameters == &spec.inputs ? "input" : "output";
    for (size_t i = 0; i < parameters->size(); ++i) {
      const ParameterSpec& parameter = (*parameters)[i];
      if (constrained.count(parameter.type_var) == 0) {
        Fail(where, role + " " + std::to_string(i) + " (" + parameter.name + ") has type variable " +
                        Quote(parameter.type_var) + ", which no type constraint constrains (add {" +
                        Quote(parameter.type_var) + ", OPBRIDGE_DTYPE_BIT(...), doc} to type_constraints)");
      }
    }
  }
}

// Attributes: unique names, known types, a default of that type where has_default is 1.
std::vector<AttributeSpec> ReadAttributeDefs(const OpbridgeOpSchemaDef& def, const std::string& where) {
  CheckCount(def.attribute_count, def.attributes, 0, OPBRIDGE_SCHEMA_MAX_ATTRIBUTES, where, "attribute_count",
             "attributes");
  std::vector<AttributeSpec> attributes;
  std::map<std::string, int32_t> attribute_positions;
  for (int32_t i = 0; i < def.attribute_count; ++i) {
    const OpbridgeAttributeDef& attribute = def.attributes[i];
    std::string at = where + ": attribute " + std::to_string(i);
    AttributeSpec attribute_spec;
    attribute_spec.name = ReadIdentifier(attribute.name, at, "name");
    at += " (" + attribute_spec.name + ")";
    const auto [previous, inserted] = attribute_positions.emplace(attribute_spec.name, i);
    if (!inserted) throw LoadError(at + " has the name of attribute " + std::to_string(previous->second));
    if (AttributeTypeName(attribute.type)[0] == '\0') {
      Fail(at, "type " + std::to_string(attribute.type) +
                   " is not an OpbridgeAttributeType (FLOAT 1, INT 2, STRING 3, FLOATS 6, INTS 7, STRINGS 8)");
    }
    attribute_spec.type = attribute.type;
    if (attribute.has_default != 0 && attribute.has_default != 1) {
      Fail(at, "has_default " + std::to_string(attribute.has_default) + " must be 0 (required) or 1");
    }
    if (attribute.has_default == 1) {
      attribute_spec.default_value = ReadValue(attribute.type, attribute.default_value, at, "default_value");
    }
    attribute_spec.doc = ReadDoc(attribute.doc, at, "doc");
    attributes.push_back(std::move(attribute_spec));
  }
  return attributes;
}

// The fields are read in declaration order; messages name the schema as far
// as it is known ("add_schema call 2", then "schema com.example.Op", then
// with its since_version).
SchemaSpec ReadSchema(const OpbridgeOpSchemaDef* def, size_t position, const std::string& origin) {
  std::string where = origin + ": add_schema call " + std::to_string(position);
  CheckSchemaDefSize(def, where);
  SchemaSpec spec;
  spec.domain = ReadDomain(def->domain, where, "domain", false);
  spec.name = ReadIdentifier(def->name, where + " (domain " + spec.domain + ")", "name");
  where = origin + ": schema " + spec.domain + "." + spec.name;
  if (def->since_version < 1) Fail(where, "since_version " + std::to_string(def->since_version) + " must be >= 1");
  spec.since_version = def->since_version;
  where = origin + ": schema " + spec.Describe();
  spec.doc = ReadDoc(def->doc, where, "doc");
  spec.inputs = ReadParameters(def->inputs, def->input_count, "input", 0, where);
  spec.outputs = ReadParameters(def->outputs, def->output_count, "output", 1, where);
  spec.type_constraints = ReadTypeConstraints(*def, where);
  CheckTypeVariablesConstrained(spec, where);
  spec.attributes = ReadAttributeDefs(*def, where);
  if (def->infer == nullptr) Fail(where, "infer is NULL (every schema infers its outputs' dtypes and shapes)");
  spec.infer = def->infer;
  if (def->function_body != nullptr) spec.function_body = ReadFunctionBody(*def->function_body, spec, where);
  return spec;
}

}  // namespace

DomainSpec ReadDomainDef(const char* name, int32_t min_version, int32_t max_version, const char* doc, size_t call,
                         const std::string& origin, const std::vector<DomainSpec>& added) {
  const std::string where = origin + ": add_domain call " + std::to_string(call);
  DomainSpec domain;
  domain.name = ReadDomain(name, where, "name", false);
  const std::string at = origin + ": domain " + Quote(domain.name);
  if (kReservedDomains.count(domain.name) != 0) {
    throw LoadError(at + " is reserved for opbridge and ONNX (choose a domain of your own, e.g. com.yourcompany.ops)");
  }
  if (min_version < 1) Fail(at, "min_version " + std::to_string(min_version) + " must be >= 1");
  if (max_version < min_version) {
    Fail(at, "min_version " + std::to_string(min_version) + " > max_version " + std::to_string(max_version));
  }
  for (const DomainSpec& other : added) {
    if (other.name == domain.name) throw LoadError(at + " is added twice (call add_domain once per domain)");
  }
  domain.min_version = min_version;
  domain.max_version = max_version;
  domain.doc = ReadDoc(doc, at, "doc");
  return domain;
}

SchemaSpec ReadSchemaDef(const OpbridgeOpSchemaDef* def, size_t call, const std::string& origin,
                         const std::vector<SchemaSpec>& added) {
  SchemaSpec spec = ReadSchema(def, call, origin);
  for (const SchemaSpec& other : added) {
    if (other.domain == spec.domain && other.name == spec.name && other.since_version == spec.since_version) {
      throw LoadError(origin + ": schema " + spec.Describe() +
                      " is added twice (each (domain, name, since_version) once; a new version needs a higher "
                      "since_version)");
    }
  }
  return spec;
}

void CheckSchemaDomains(const std::vector<DomainSpec>& domains, const std::vector<SchemaSpec>& schemas,
                        const std::string& origin) {
  for (const SchemaSpec& schema : schemas) {
    const std::string at = origin + ": schema " + schema.Describe();
    const DomainSpec* domain = nullptr;
    for (const DomainSpec& candidate : domains) {
      if (candidate.name == schema.domain) domain = &candidate;
    }
    if (domain == nullptr) {
      throw LoadError(at + " is in domain " + Quote(schema.domain) +
                      ", which the library does not add (call registrar->add_domain(registrar, " +
                      Quote(schema.domain) + ", 1, max_version, doc))");
    }
    if (schema.since_version < domain->min_version || schema.since_version > domain->max_version) {
      throw LoadError(at + ": since_version " + std::to_string(schema.since_version) + " is outside domain " +
                      Quote(domain->name) + "'s versions " + std::to_string(domain->min_version) + ".." +
                      std::to_string(domain->max_version) + " (raise the domain's max_version or fix since_version)");
    }
  }
}

}  // namespace opbridge::plugin
