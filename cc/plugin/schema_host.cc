#include "cc/plugin/schema_host.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <set>
#include <tuple>

#include "cc/plugin/elf_facts.h"
#include "cc/plugin/tensor_limits.h"

static_assert(OPBRIDGE_SCHEMA_MAX_RANK == OPBRIDGE_MAX_RANK, "the schema ABI's rank limit is the hosts' limit");

namespace opbridge::plugin {
namespace {

constexpr uint32_t kKnownDTypes =
    OPBRIDGE_DTYPE_BIT(1) | OPBRIDGE_DTYPE_BIT(2) | OPBRIDGE_DTYPE_BIT(3) | OPBRIDGE_DTYPE_BIT(4) |
    OPBRIDGE_DTYPE_BIT(5) | OPBRIDGE_DTYPE_BIT(6) | OPBRIDGE_DTYPE_BIT(7) | OPBRIDGE_DTYPE_BIT(9) |
    OPBRIDGE_DTYPE_BIT(10) | OPBRIDGE_DTYPE_BIT(11) | OPBRIDGE_DTYPE_BIT(12) | OPBRIDGE_DTYPE_BIT(13) |
    OPBRIDGE_DTYPE_BIT(16);
constexpr size_t kMaxNameLength = 256;
constexpr size_t kMaxTextLength = size_t{1} << 20;  // docs and string values
constexpr uint32_t kMaxSchemaDefSize = 1u << 16;
constexpr int32_t kMaxTypeConstraints = 2 * OPBRIDGE_SCHEMA_MAX_PARAMETERS;
// opbridge's and ONNX's domains ("" is ONNX's default, refused as not a dotted identifier).
const std::set<std::string> kReservedDomains = {"ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training", "opbridge"};

[[noreturn]] void Fail(const std::string& where, const std::string& problem) {
  throw LoadError(where + ": " + problem);
}

std::string Quote(const std::string& text) { return "\"" + text + "\""; }

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

bool KnownDType(int32_t dtype) { return dtype > 0 && dtype < 32 && (kKnownDTypes & OPBRIDGE_DTYPE_BIT(dtype)) != 0; }

bool Allows(uint32_t dtypes, int32_t dtype) { return KnownDType(dtype) && (dtypes & OPBRIDGE_DTYPE_BIT(dtype)) != 0; }

std::string DTypeSet(uint32_t dtypes) {
  std::string text;
  for (int32_t dtype = 1; dtype < 32; ++dtype) {
    if (Allows(dtypes, dtype)) text += (text.empty() ? "" : ", ") + std::string(opbridge_dtype_name(dtype));
  }
  return "{" + text + "}";
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

FunctionBodySpec ReadFunctionBody(const OpbridgeFunctionBody& body, const SchemaSpec& schema,
                                  const std::string& schema_where) {
  const std::string where = schema_where + ": function_body";
  FunctionBodySpec spec;
  CheckCount(body.opset_import_count, body.opset_imports, 1, OPBRIDGE_SCHEMA_MAX_PARAMETERS, where,
             "opset_import_count", "opset_imports");
  std::set<std::string> imported;
  for (int32_t i = 0; i < body.opset_import_count; ++i) {
    const std::string at = where + ": opset import " + std::to_string(i);
    const OpbridgeOpsetImport& opset = body.opset_imports[i];
    std::string domain = ReadDomain(opset.domain, at, "domain", true);
    if (opset.version < 1) Fail(at, "version " + std::to_string(opset.version) + " must be >= 1");
    if (!imported.insert(domain).second) Fail(at, "domain " + Quote(domain) + " is imported twice");
    spec.opset_imports.emplace_back(std::move(domain), opset.version);
  }
  CheckCount(body.node_count, body.nodes, 1, OPBRIDGE_SCHEMA_MAX_NODES, where, "node_count", "nodes");
  // Values defined so far: the formal inputs, "" (an omitted input) and what earlier nodes wrote.
  std::set<std::string> defined = {""};
  for (const ParameterSpec& input : schema.inputs) defined.insert(input.name);
  for (int32_t k = 0; k < body.node_count; ++k) {
    const OpbridgeFunctionNode& node = body.nodes[k];
    FunctionNodeSpec node_spec;
    std::string at = where + ": node " + std::to_string(k);
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
      if (defined.count(*name) == 0) {
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
      if (!name->empty() && !defined.insert(*name).second) {
        Fail(at, field + " writes " + Quote(*name) +
                     ", which is already defined (each value is written once, and formal inputs never)");
      }
      node_spec.outputs.push_back(*name);
    }
    CheckCount(node.attribute_count, node.attributes, 0, OPBRIDGE_SCHEMA_MAX_ATTRIBUTES, at, "attribute_count",
               "attributes");
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
      node_spec.attributes.emplace_back(std::move(name), std::move(value));
    }
    spec.nodes.push_back(std::move(node_spec));
  }
  for (const ParameterSpec& output : schema.outputs) {
    if (defined.count(output.name) == 0) {
      Fail(where, "no node writes output " + Quote(output.name) + " (a function body computes every output)");
    }
  }
  return spec;
}

SchemaSpec ReadSchema(const OpbridgeOpSchemaDef* def, size_t position, const std::string& origin) {
  std::string where = origin + ": add_schema call " + std::to_string(position);
  if (def == nullptr) Fail(where, "the schema is NULL");
  if (def->struct_size < sizeof(OpbridgeOpSchemaDef)) {
    Fail(where, "struct_size " + std::to_string(def->struct_size) + " is smaller than ABI version 1's " +
                    std::to_string(sizeof(OpbridgeOpSchemaDef)) + " (set it to sizeof(OpbridgeOpSchemaDef))");
  }
  if (def->struct_size > kMaxSchemaDefSize) {
    Fail(where, "struct_size " + std::to_string(def->struct_size) +
                    " is implausible (set it to sizeof(OpbridgeOpSchemaDef))");
  }
  // Fields after version 1's are features this host does not know: refused unless zero.
  const auto* bytes = reinterpret_cast<const unsigned char*>(def);
  for (size_t i = sizeof(OpbridgeOpSchemaDef); i < def->struct_size; ++i) {
    if (bytes[i] != 0) {
      Fail(where, "struct_size " + std::to_string(def->struct_size) + " sets fields after ABI version 1's " +
                      std::to_string(sizeof(OpbridgeOpSchemaDef)) +
                      " bytes, which this host does not know (build against this opbridge's opbridge_schema.h)");
    }
  }
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

  CheckCount(def->type_constraint_count, def->type_constraints, 0, kMaxTypeConstraints, where,
             "type_constraint_count", "type_constraints");
  std::set<std::string> constrained;
  for (int32_t i = 0; i < def->type_constraint_count; ++i) {
    const OpbridgeTypeConstraint& constraint = def->type_constraints[i];
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
    spec.type_constraints.push_back(std::move(constraint_spec));
  }
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

  CheckCount(def->attribute_count, def->attributes, 0, OPBRIDGE_SCHEMA_MAX_ATTRIBUTES, where, "attribute_count",
             "attributes");
  std::map<std::string, int32_t> attribute_positions;
  for (int32_t i = 0; i < def->attribute_count; ++i) {
    const OpbridgeAttributeDef& attribute = def->attributes[i];
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
    spec.attributes.push_back(std::move(attribute_spec));
  }

  if (def->infer == nullptr) Fail(where, "infer is NULL (every schema infers its outputs' dtypes and shapes)");
  spec.infer = def->infer;
  if (def->function_body != nullptr) spec.function_body = ReadFunctionBody(*def->function_body, spec, where);
  return spec;
}

// What register_schemas builds, behind OpbridgeSchemaRegistrar::host.
struct Registration {
  std::string origin;  // "schema library <path>"
  std::vector<DomainSpec> domains;
  std::vector<SchemaSpec> schemas;
  size_t add_domain_calls = 0;
  size_t add_schema_calls = 0;
  std::string host_error;                    // the first thing the host refused
  std::optional<std::string> library_error;  // set_error's message
};

Registration* RegistrationOf(const OpbridgeSchemaRegistrar* registrar) {
  return registrar == nullptr ? nullptr : static_cast<Registration*>(registrar->host);
}

// The registrar's functions are called from C: none may throw.
template <typename Body>
int32_t Refusing(Registration* registration, Body body) noexcept {
  if (registration == nullptr) return 1;
  try {
    body();
    return 0;
  } catch (const std::exception& error) {
    try {
      if (registration->host_error.empty()) registration->host_error = error.what();
    } catch (...) {  // only allocation can fail here
    }
  } catch (...) {
  }
  if (registration->host_error.empty()) registration->host_error = registration->origin + ": out of memory";
  return 1;
}

int32_t AddDomain(const OpbridgeSchemaRegistrar* registrar, const char* name, int32_t min_version,
                  int32_t max_version, const char* doc) noexcept {
  Registration* registration = RegistrationOf(registrar);
  return Refusing(registration, [&] {
    const std::string where =
        registration->origin + ": add_domain call " + std::to_string(registration->add_domain_calls++);
    DomainSpec domain;
    domain.name = ReadDomain(name, where, "name", false);
    const std::string at = registration->origin + ": domain " + Quote(domain.name);
    if (kReservedDomains.count(domain.name) != 0) {
      throw LoadError(at +
                      " is reserved for opbridge and ONNX (choose a domain of your own, e.g. com.yourcompany.ops)");
    }
    if (min_version < 1) Fail(at, "min_version " + std::to_string(min_version) + " must be >= 1");
    if (max_version < min_version) {
      Fail(at, "min_version " + std::to_string(min_version) + " > max_version " + std::to_string(max_version));
    }
    for (const DomainSpec& other : registration->domains) {
      if (other.name == domain.name) throw LoadError(at + " is added twice (call add_domain once per domain)");
    }
    domain.min_version = min_version;
    domain.max_version = max_version;
    domain.doc = ReadDoc(doc, at, "doc");
    registration->domains.push_back(std::move(domain));
  });
}

int32_t AddSchema(const OpbridgeSchemaRegistrar* registrar, const OpbridgeOpSchemaDef* schema) noexcept {
  Registration* registration = RegistrationOf(registrar);
  return Refusing(registration, [&] {
    SchemaSpec spec = ReadSchema(schema, registration->add_schema_calls++, registration->origin);
    for (const SchemaSpec& other : registration->schemas) {
      if (other.domain == spec.domain && other.name == spec.name && other.since_version == spec.since_version) {
        throw LoadError(registration->origin + ": schema " + spec.Describe() +
                        " is added twice (each (domain, name, since_version) once; a new version needs a higher "
                        "since_version)");
      }
    }
    registration->schemas.push_back(std::move(spec));
  });
}

void SetError(const OpbridgeSchemaRegistrar* registrar, const char* message) noexcept {
  Registration* registration = RegistrationOf(registrar);
  if (registration == nullptr) return;
  try {
    if (!registration->library_error) {
      registration->library_error = message != nullptr ? std::string(message, strnlen(message, kMaxTextLength))
                                                        : std::string("(set_error was given NULL)");
    }
  } catch (...) {
  }
}

// ----- Inference -----

// What an infer callback reaches through OpbridgeInferContext::host.
struct InferState {
  const SchemaSpec* schema = nullptr;
  const std::vector<InferInput>* inputs = nullptr;
  const Attributes* attributes = nullptr;                       // defaults filled in
  std::map<std::string, std::vector<const char*>> string_lists;  // STRINGS attributes as C arrays
  std::vector<std::optional<InferOutput>> outputs;
  std::optional<std::string> failure;  // fail()'s message
  std::string refusal;                 // the first set_output the host refused, and why
};

InferState* InferStateOf(const OpbridgeInferContext* ctx) {
  return ctx == nullptr ? nullptr : static_cast<InferState*>(ctx->host);
}

const InferInput* PresentInput(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferState* state = InferStateOf(ctx);
  if (state == nullptr || index < 0 || static_cast<size_t>(index) >= state->inputs->size()) return nullptr;
  const InferInput& input = (*state->inputs)[static_cast<size_t>(index)];
  return input.present ? &input : nullptr;
}

int32_t InputCount(const OpbridgeInferContext* ctx) noexcept {
  const InferState* state = InferStateOf(ctx);
  return state == nullptr ? 0 : static_cast<int32_t>(state->inputs->size());
}

int32_t InputPresent(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  return PresentInput(ctx, index) != nullptr ? 1 : 0;
}

int32_t InputDType(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferInput* input = PresentInput(ctx, index);
  return input != nullptr ? input->dtype : 0;
}

int32_t InputRank(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferInput* input = PresentInput(ctx, index);
  return input != nullptr ? static_cast<int32_t>(input->shape.size()) : -1;
}

const int64_t* InputDims(const OpbridgeInferContext* ctx, int32_t index) noexcept {
  const InferInput* input = PresentInput(ctx, index);
  return input != nullptr && !input->shape.empty() ? input->shape.data() : nullptr;
}

template <typename T>
const T* FindAttribute(const OpbridgeInferContext* ctx, const char* name) noexcept {
  const InferState* state = InferStateOf(ctx);
  if (state == nullptr || name == nullptr) return nullptr;
  try {
    const auto found = state->attributes->find(name);
    return found == state->attributes->end() ? nullptr : std::get_if<T>(&found->second);
  } catch (...) {  // std::string(name) could only fail to allocate
    return nullptr;
  }
}

template <typename T>
int32_t ReadScalar(const OpbridgeInferContext* ctx, const char* name, T* value) noexcept {
  const T* found = FindAttribute<T>(ctx, name);
  if (found == nullptr || value == nullptr) return 1;
  *value = *found;
  return 0;
}

int32_t AttributeInt(const OpbridgeInferContext* ctx, const char* name, int64_t* value) noexcept {
  return ReadScalar(ctx, name, value);
}

int32_t AttributeFloat(const OpbridgeInferContext* ctx, const char* name, double* value) noexcept {
  return ReadScalar(ctx, name, value);
}

int32_t AttributeString(const OpbridgeInferContext* ctx, const char* name, const char** value) noexcept {
  const std::string* found = FindAttribute<std::string>(ctx, name);
  if (found == nullptr || value == nullptr) return 1;
  *value = found->c_str();
  return 0;
}

template <typename T>
int32_t AttributeList(const OpbridgeInferContext* ctx, const char* name, const T** values, int32_t* count) noexcept {
  const std::vector<T>* found = FindAttribute<std::vector<T>>(ctx, name);
  if (found == nullptr || values == nullptr || count == nullptr) return 1;
  *values = found->data();
  *count = static_cast<int32_t>(found->size());
  return 0;
}

int32_t AttributeInts(const OpbridgeInferContext* ctx, const char* name, const int64_t** values,
                      int32_t* count) noexcept {
  return AttributeList(ctx, name, values, count);
}

int32_t AttributeFloats(const OpbridgeInferContext* ctx, const char* name, const double** values,
                        int32_t* count) noexcept {
  return AttributeList(ctx, name, values, count);
}

int32_t AttributeStrings(const OpbridgeInferContext* ctx, const char* name, const char* const** values,
                         int32_t* count) noexcept {
  const InferState* state = InferStateOf(ctx);
  if (state == nullptr || name == nullptr || values == nullptr || count == nullptr) return 1;
  try {
    const auto found = state->string_lists.find(name);
    if (found == state->string_lists.end()) return 1;
    *values = found->second.data();
    *count = static_cast<int32_t>(found->second.size());
    return 0;
  } catch (...) {
    return 1;
  }
}

const ParameterSpec& ParameterAt(const std::vector<ParameterSpec>& parameters, size_t position) {
  return parameters[std::min(position, parameters.size() - 1)];
}

const TypeConstraintSpec& ConstraintOf(const SchemaSpec& schema, const std::string& type_var) {
  for (const TypeConstraintSpec& constraint : schema.type_constraints) {
    if (constraint.type_var == type_var) return constraint;
  }
  throw std::logic_error("type variable " + type_var + " is unconstrained");  // checked at registration
}

// Why set_output refuses, or "".
std::string SetOutputProblem(const InferState& state, int32_t index, int32_t dtype, const int64_t* dims,
                             int32_t rank) {
  const std::string what = "set_output(" + std::to_string(index) + ")";
  if (index < 0 || static_cast<size_t>(index) >= state.outputs.size()) {
    return what + ": the op has outputs 0.." + std::to_string(static_cast<int64_t>(state.outputs.size()) - 1);
  }
  if (state.outputs[static_cast<size_t>(index)].has_value()) return what + ": the output is already set";
  const ParameterSpec& parameter = ParameterAt(state.schema->outputs, static_cast<size_t>(index));
  const uint32_t allowed = ConstraintOf(*state.schema, parameter.type_var).allowed;
  if (!Allows(allowed, dtype)) {
    return what + ": dtype " + std::to_string(dtype) + " (" + opbridge_dtype_name(dtype) + ") is outside " +
           parameter.type_var + " = " + DTypeSet(allowed);
  }
  if (rank < 0 || rank > OPBRIDGE_SCHEMA_MAX_RANK) {
    return what + ": rank " + std::to_string(rank) + " is outside 0.." + std::to_string(OPBRIDGE_SCHEMA_MAX_RANK);
  }
  if (rank > 0 && dims == nullptr) return what + ": rank " + std::to_string(rank) + " with NULL dims";
  for (int32_t axis = 0; axis < rank; ++axis) {
    if (dims[axis] < -1) {
      return what + ": dimension " + std::to_string(axis) + " is " + std::to_string(dims[axis]) +
             " (sizes are >= 0, or -1 when known only at run time)";
    }
  }
  return "";
}

int32_t SetOutput(const OpbridgeInferContext* ctx, int32_t index, int32_t dtype, const int64_t* dims,
                  int32_t rank) noexcept {
  InferState* state = InferStateOf(ctx);
  if (state == nullptr) return 1;
  try {
    const std::string problem = SetOutputProblem(*state, index, dtype, dims, rank);
    if (!problem.empty()) {
      if (state->refusal.empty()) state->refusal = problem;
      return 1;
    }
    state->outputs[static_cast<size_t>(index)] =
        InferOutput{dtype, rank > 0 ? std::vector<int64_t>(dims, dims + rank) : std::vector<int64_t>()};
    return 0;
  } catch (...) {
    return 1;
  }
}

void FailInference(const OpbridgeInferContext* ctx, const char* message) noexcept {
  InferState* state = InferStateOf(ctx);
  if (state == nullptr) return;
  try {
    if (!state->failure) {
      state->failure = message != nullptr ? std::string(message, strnlen(message, kMaxTextLength))
                                          : std::string("(fail was given NULL)");
    }
  } catch (...) {
  }
}

const OpbridgeInferApi kInferApi = {
    sizeof(OpbridgeInferApi), InputCount,     InputPresent,    InputDType,
    InputRank,                InputDims,      AttributeInt,    AttributeFloat,
    AttributeString,          AttributeInts,  AttributeFloats, AttributeStrings,
    SetOutput,                FailInference,
};

std::string ParameterList(const std::vector<ParameterSpec>& parameters) {
  std::string text;
  for (const ParameterSpec& parameter : parameters) {
    text += (text.empty() ? "" : ", ") + parameter.name +
            (parameter.option == OPBRIDGE_PARAMETER_OPTIONAL   ? "?"
             : parameter.option == OPBRIDGE_PARAMETER_VARIADIC ? "..."
                                                               : "");
  }
  return text;
}

void CheckInferInputs(const SchemaSpec& schema, const std::vector<InferInput>& inputs, const std::string& where) {
  const std::vector<ParameterSpec>& parameters = schema.inputs;
  const bool variadic = !parameters.empty() && parameters.back().option == OPBRIDGE_PARAMETER_VARIADIC;
  size_t required = 0;
  for (const ParameterSpec& parameter : parameters) required += parameter.option != OPBRIDGE_PARAMETER_OPTIONAL;
  const size_t most = variadic ? OPBRIDGE_SCHEMA_MAX_LIST : parameters.size();
  if (inputs.size() < required || inputs.size() > most) {
    std::string expected = std::to_string(required);
    if (variadic) {
      expected = "at least " + expected;
    } else if (required != parameters.size()) {
      expected += " to " + std::to_string(parameters.size());
    }
    throw InvalidInput(where + " takes " + expected + " inputs (" + ParameterList(parameters) + "), got " +
                       std::to_string(inputs.size()));
  }
  std::map<std::string, std::pair<int32_t, std::string>> bound;  // type variable -> (dtype, input name)
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ParameterSpec& parameter = ParameterAt(parameters, i);
    const std::string at = where + ": input " + std::to_string(i) + " (" + parameter.name + ")";
    const InferInput& input = inputs[i];
    if (!input.present) {
      if (parameter.option != OPBRIDGE_PARAMETER_OPTIONAL) throw InvalidInput(at + " is required but missing");
      continue;
    }
    const uint32_t allowed = ConstraintOf(schema, parameter.type_var).allowed;
    if (!Allows(allowed, input.dtype)) {
      throw InvalidInput(at + " is " + opbridge_dtype_name(input.dtype) + " (" + std::to_string(input.dtype) +
                         "); " + parameter.type_var + " allows " + DTypeSet(allowed));
    }
    const auto [previous, inserted] = bound.emplace(parameter.type_var, std::make_pair(input.dtype, parameter.name));
    if (!inserted && previous->second.first != input.dtype) {
      throw InvalidInput(at + " is " + opbridge_dtype_name(input.dtype) + " but " + previous->second.second +
                         " is " + opbridge_dtype_name(previous->second.first) + "; both have type variable " +
                         parameter.type_var);
    }
    if (input.shape.size() > OPBRIDGE_SCHEMA_MAX_RANK) {
      throw InvalidInput(at + " has rank " + std::to_string(input.shape.size()) + ", over " +
                         std::to_string(OPBRIDGE_SCHEMA_MAX_RANK));
    }
    for (int64_t dim : input.shape) {
      if (dim < -1) throw InvalidInput(at + " has dimension " + std::to_string(dim) + " (sizes are >= 0, or -1)");
    }
  }
}

Attributes CompleteAttributes(const SchemaSpec& schema, const Attributes& given, const std::string& where) {
  Attributes complete;
  for (const auto& [name, value] : given) {
    const AttributeSpec* spec = nullptr;
    for (const AttributeSpec& attribute : schema.attributes) {
      if (attribute.name == name) spec = &attribute;
    }
    if (spec == nullptr) throw InvalidInput(where + " has no attribute " + Quote(name));
    if (AttributeTypeOf(value) != spec->type) {
      throw InvalidInput(where + ": attribute " + Quote(name) + " is " + AttributeTypeName(spec->type) + ", got " +
                         AttributeTypeName(AttributeTypeOf(value)));
    }
    // The callback reads strings as C strings: an embedded NUL would silently cut them short.
    bool has_nul = false;
    if (const auto* text = std::get_if<std::string>(&value)) has_nul = text->find('\0') != std::string::npos;
    if (const auto* texts = std::get_if<std::vector<std::string>>(&value)) {
      for (const std::string& text : *texts) has_nul = has_nul || text.find('\0') != std::string::npos;
    }
    if (has_nul) throw InvalidInput(where + ": attribute " + Quote(name) + " contains a NUL character");
    complete.emplace(name, value);
  }
  for (const AttributeSpec& attribute : schema.attributes) {
    if (complete.count(attribute.name) != 0) continue;
    if (!attribute.default_value) {
      throw InvalidInput(where + ": required attribute " + Quote(attribute.name) + " (" +
                         AttributeTypeName(attribute.type) + ") is missing");
    }
    complete.emplace(attribute.name, *attribute.default_value);
  }
  return complete;
}

}  // namespace

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
  // An explicit path only (a bare name would make dlopen search for it), existing, a regular file.
  const std::string resolved = ResolveLibraryPath(path);
  ReadElfFacts(resolved);  // a clear error for files that are not shared libraries for this machine
  std::shared_ptr<SchemaLibrary> library(new SchemaLibrary());
  library->path_ = resolved;
  library->handle_ = OpenLibrary(resolved);
  dlerror();
  void* entry_point = dlsym(library->handle_.get(), OPBRIDGE_SCHEMA_ENTRY_POINT);
  if (entry_point == nullptr) {
    throw LoadError("schema library " + resolved + " does not export " OPBRIDGE_SCHEMA_ENTRY_POINT
                    " (define `const OpbridgeSchemaLibrary* " OPBRIDGE_SCHEMA_ENTRY_POINT
                    "(void)` at global scope, including cc/plugin/opbridge_schema.h, which declares it with C "
                    "linkage and default visibility)");
  }
  const OpbridgeSchemaLibrary* table = nullptr;
  try {
    table = reinterpret_cast<OpbridgeSchemaLibraryFn>(entry_point)();
  } catch (const std::exception& error) {
    throw LoadError("schema library " + resolved + ": " OPBRIDGE_SCHEMA_ENTRY_POINT " threw: " + error.what());
  } catch (...) {
    throw LoadError("schema library " + resolved + ": " OPBRIDGE_SCHEMA_ENTRY_POINT " threw a non-standard exception");
  }
  library->Register(table);
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
  if (table->register_schemas == nullptr) throw LoadError(origin + ": register_schemas is NULL");
  Registration registration;
  registration.origin = origin;
  const OpbridgeSchemaRegistrar registrar = {sizeof(OpbridgeSchemaRegistrar), &registration, AddDomain, AddSchema,
                                             SetError};
  int32_t code = 1;
  try {
    code = table->register_schemas(&registrar);
  } catch (const std::exception& error) {
    throw LoadError(origin + ": register_schemas threw: " + error.what());
  } catch (...) {
    throw LoadError(origin + ": register_schemas threw a non-standard exception");
  }
  if (!registration.host_error.empty()) throw LoadError(registration.host_error);
  if (registration.library_error) {
    throw LoadError(origin + ": register_schemas failed: " + *registration.library_error +
                    (code == 0 ? " (it called set_error but returned 0)" : ""));
  }
  if (code != 0) {
    throw LoadError(origin + ": register_schemas returned " + std::to_string(code) +
                    " without calling set_error (say why: registrar->set_error(registrar, message))");
  }
  if (registration.schemas.empty()) {
    throw LoadError(origin + " registers no schemas (call registrar->add_schema from register_schemas)");
  }
  // Domains may be added before or after their schemas: checked once all are in.
  for (const SchemaSpec& schema : registration.schemas) {
    const std::string at = origin + ": schema " + schema.Describe();
    const DomainSpec* domain = nullptr;
    for (const DomainSpec& candidate : registration.domains) {
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
  domains_ = std::move(registration.domains);
  schemas_ = std::move(registration.schemas);
}

std::vector<InferOutput> SchemaLibrary::Infer(size_t index, const std::vector<InferInput>& inputs,
                                              const Attributes& attributes) const {
  if (index >= schemas_.size()) {
    throw InvalidInput("schema library " + path_ + " has no schema " + std::to_string(index) + " (it has " +
                       std::to_string(schemas_.size()) + ")");
  }
  const SchemaSpec& schema = schemas_[index];
  const std::string where = "schema " + schema.Describe();
  CheckInferInputs(schema, inputs, where);
  const Attributes complete = CompleteAttributes(schema, attributes, where);
  InferState state;
  state.schema = &schema;
  state.inputs = &inputs;
  state.attributes = &complete;
  for (const auto& [name, value] : complete) {
    if (const auto* texts = std::get_if<std::vector<std::string>>(&value)) {
      std::vector<const char*>& pointers = state.string_lists[name];
      for (const std::string& text : *texts) pointers.push_back(text.c_str());
    }
  }
  const bool variadic = schema.outputs.back().option == OPBRIDGE_PARAMETER_VARIADIC;
  state.outputs.resize(variadic ? OPBRIDGE_SCHEMA_MAX_PARAMETERS : schema.outputs.size());

  const std::string library_where = where + " of schema library " + path_;
  const OpbridgeInferContext context = {&kInferApi, &state};
  int32_t code = 1;
  try {
    code = schema.infer(&context);
  } catch (const std::exception& error) {
    throw InferenceContractError(library_where + ": infer threw: " + error.what());
  } catch (...) {
    throw InferenceContractError(library_where + ": infer threw a non-standard exception");
  }
  if (state.failure) throw InferenceError(where + ": " + *state.failure);
  if (code != 0) {
    throw InferenceContractError(library_where + ": infer returned " + std::to_string(code) +
                                 " without calling fail (say why: ctx->api->fail(ctx, message))" +
                                 (state.refusal.empty() ? "" : "; the host refused " + state.refusal));
  }
  if (!state.refusal.empty()) {
    throw InferenceContractError(library_where + ": infer returned 0, but the host refused " + state.refusal);
  }
  size_t count = 0;
  for (size_t i = 0; i < state.outputs.size(); ++i) {
    if (state.outputs[i].has_value()) count = i + 1;
  }
  std::vector<InferOutput> outputs;
  for (size_t i = 0; i < count; ++i) {
    if (!state.outputs[i].has_value()) {
      throw InferenceContractError(library_where + ": infer set output " + std::to_string(count - 1) +
                                   " but not output " + std::to_string(i) + " (set outputs 0..n-1)");
    }
    outputs.push_back(std::move(*state.outputs[i]));
  }
  for (size_t i = count; i < schema.outputs.size(); ++i) {
    if (schema.outputs[i].option != OPBRIDGE_PARAMETER_OPTIONAL) {
      throw InferenceContractError(library_where + ": infer did not set output " + std::to_string(i) + " (" +
                                   schema.outputs[i].name + ")");
    }
  }
  return outputs;
}

}  // namespace opbridge::plugin
