// SPDX-License-Identifier: Apache-2.0
// The schema host from C++: loading by path (the example and test
// libraries), every field check through in-process tables
// (SchemaLibrary::FromTable), and inference. The Python tests cover the same
// host through the pybind11 module; run under ASan/LSan by --config=asan.
#include "cc/plugin/schema_host.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cc/plugin/testdata/check.h"

using opbridge::plugin::Attributes;
using opbridge::plugin::InferenceContractError;
using opbridge::plugin::InferenceError;
using opbridge::plugin::InferInput;
using opbridge::plugin::InferOutput;
using opbridge::plugin::InvalidInput;
using opbridge::plugin::LoadError;
using opbridge::plugin::SchemaLibrary;
using opbridge::plugin::SchemaSpec;

namespace {

constexpr uint32_t kFloat32 = OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT32);

int32_t SameAsInput(const OpbridgeInferContext* ctx) {
  const OpbridgeInferApi* api = ctx->api;
  return api->set_output(ctx, 0, api->input_dtype(ctx, 0), api->input_dims(ctx, 0), api->input_rank(ctx, 0));
}

// ----- In-process tables: one valid schema, changed by each case -----

const OpbridgeFormalParameter kX[] = {{"X", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
const OpbridgeFormalParameter kY[] = {{"Y", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
const OpbridgeTypeConstraint kT[] = {{"T", kFloat32, nullptr}};
const char* const kXName[] = {"X"};
const char* const kYName[] = {"Y"};
const OpbridgeFunctionNode kIdentity[] = {{"Identity", "", kXName, 1, kYName, 1, nullptr, 0}};
const OpbridgeOpsetImport kOnnx13[] = {{"", 13}};
const OpbridgeFunctionBody kBody = {kIdentity, 1, kOnnx13, 1};

struct Case {
  OpbridgeOpSchemaDef schema;
  const char* domain = "test.unit";
  int32_t min_version = 1;
  int32_t max_version = 1;
  bool add_domain = true;
  bool add_schema = true;
  const OpbridgeOpSchemaDef* schema_pointer = nullptr;  // what add_schema gets; &schema when NULL
};

Case* current_case = nullptr;

int32_t RegisterCase(const OpbridgeSchemaRegistrar* registrar) {
  const Case& c = *current_case;
  if (c.add_domain && registrar->add_domain(registrar, c.domain, c.min_version, c.max_version, nullptr) != 0) return 1;
  if (!c.add_schema) return 0;
  return registrar->add_schema(registrar, c.schema_pointer != nullptr ? c.schema_pointer : &c.schema);
}

const OpbridgeSchemaLibrary kCaseLibrary = {OPBRIDGE_SCHEMA_ABI_VERSION, RegisterCase};

Case Valid() {
  Case c;
  std::memset(&c.schema, 0, sizeof c.schema);
  c.schema.struct_size = sizeof c.schema;
  c.schema.domain = "test.unit";
  c.schema.name = "Copy";
  c.schema.since_version = 1;
  c.schema.inputs = kX;
  c.schema.input_count = 1;
  c.schema.outputs = kY;
  c.schema.output_count = 1;
  c.schema.type_constraints = kT;
  c.schema.type_constraint_count = 1;
  c.schema.infer = SameAsInput;
  c.schema.function_body = &kBody;
  return c;
}

std::shared_ptr<SchemaLibrary> Register(Case c) {
  current_case = &c;
  return SchemaLibrary::FromTable(&kCaseLibrary, "unit");
}

#define CHECK_REFUSED(text, c) CHECK_THROWS(LoadError, text, Register(c))

void ValidCaseRegisters() {
  auto library = Register(Valid());
  CHECK(library->path() == "unit");
  CHECK(library->domains().size() == 1 && library->domains()[0].name == "test.unit");
  const SchemaSpec& schema = library->schemas().at(0);
  CHECK(schema.Describe() == "test.unit.Copy (since version 1)");
  CHECK(schema.function_body.has_value() && schema.function_body->nodes[0].op_type == "Identity");
  CHECK(schema.function_body->opset_imports[0] == std::make_pair(std::string(), int32_t{13}));
}

void NamesAndVersions() {
  Case c = Valid();
  c.schema.name = nullptr;
  CHECK_REFUSED("unit: add_schema call 0 (domain test.unit): name is NULL", c);
  c.schema.name = "";
  CHECK_REFUSED("name is empty", c);
  c.schema.name = "1Copy";
  CHECK_REFUSED("name \"1Copy\" is not an identifier", c);
  c.schema.name = "Co-py";
  CHECK_REFUSED("name \"Co-py\" is not an identifier", c);
  c = Valid();
  c.schema.domain = nullptr;
  CHECK_REFUSED("add_schema call 0: domain is NULL", c);
  c.schema.domain = "test..unit";
  CHECK_REFUSED("domain \"test..unit\" is not a dotted identifier", c);
  c.schema.domain = "";
  CHECK_REFUSED("domain \"\" is not a dotted identifier", c);
  c = Valid();
  c.schema.since_version = 0;
  CHECK_REFUSED("unit: schema test.unit.Copy: since_version 0 must be >= 1", c);
  c = Valid();
  c.max_version = 2;
  c.schema.since_version = 3;
  CHECK_REFUSED("since_version 3 is outside domain \"test.unit\"'s versions 1..2", c);
  c = Valid();
  c.add_domain = false;
  CHECK_REFUSED("schema test.unit.Copy (since version 1) is in domain \"test.unit\", which the library does not add",
                c);
}

void Domains() {
  Case c = Valid();
  c.min_version = 0;
  CHECK_REFUSED("unit: domain \"test.unit\": min_version 0 must be >= 1", c);
  c.min_version = 2;
  c.max_version = 1;
  CHECK_REFUSED("min_version 2 > max_version 1", c);
  c = Valid();
  c.domain = "ai.onnx";
  CHECK_REFUSED("domain \"ai.onnx\" is reserved for opbridge and ONNX", c);
  c.domain = nullptr;
  CHECK_REFUSED("unit: add_domain call 0: name is NULL", c);
  c.domain = "";
  CHECK_REFUSED("name \"\" is not a dotted identifier", c);
  c = Valid();
  c.add_schema = false;
  CHECK_REFUSED("unit registers no schemas", c);
}

void StructSize() {
  Case c = Valid();
  c.schema.struct_size = 8;
  CHECK_REFUSED("struct_size 8 is smaller than ABI version 1's", c);
  // A newer library's larger struct is accepted while the fields this host does not know are zero.
  struct Newer {
    OpbridgeOpSchemaDef v1;
    const void* added_later;
  } newer;
  std::memset(&newer, 0, sizeof newer);
  newer.v1 = Valid().schema;
  newer.v1.struct_size = sizeof newer;
  c = Valid();
  c.schema_pointer = &newer.v1;
  CHECK(Register(c)->schemas().size() == 1);
  newer.added_later = &newer;
  CHECK_REFUSED("sets fields after ABI version 1's", c);
}

void Parameters() {
  Case c = Valid();
  c.schema.inputs = nullptr;
  CHECK_REFUSED("schema test.unit.Copy (since version 1): input_count is 1 but inputs is NULL", c);
  c = Valid();
  c.schema.output_count = 0;
  CHECK_REFUSED("output_count 0 is outside 1..64", c);
  c = Valid();
  c.schema.input_count = 65;
  CHECK_REFUSED("input_count 65 is outside 0..64", c);
  c = Valid();
  const OpbridgeFormalParameter bad_option[] = {{"X", "T", nullptr, 7}};
  c.schema.inputs = bad_option;
  CHECK_REFUSED("input 0 (X): option 7 is not an OpbridgeParameterOption", c);
  const OpbridgeFormalParameter twice[] = {{"X", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE},
                                           {"X", "T", nullptr, OPBRIDGE_PARAMETER_OPTIONAL}};
  c.schema.inputs = twice;
  c.schema.input_count = 2;
  CHECK_REFUSED("input 1 is named \"X\" like input 0", c);
  const OpbridgeFormalParameter no_type_var[] = {{"X", nullptr, nullptr, OPBRIDGE_PARAMETER_SINGLE}};
  c.schema.inputs = no_type_var;
  c.schema.input_count = 1;
  CHECK_REFUSED("input 0 (X): type_var is NULL", c);
  const OpbridgeFormalParameter unnamed[] = {{nullptr, "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
  c.schema.inputs = unnamed;
  CHECK_REFUSED("input 0: name is NULL", c);
  const OpbridgeFormalParameter variadic_first[] = {{"X", "T", nullptr, OPBRIDGE_PARAMETER_VARIADIC},
                                                    {"Z", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
  c.schema.inputs = variadic_first;
  c.schema.input_count = 2;
  CHECK_REFUSED("input 0 (X) is variadic but not the last input", c);
  const OpbridgeFormalParameter untyped[] = {{"X", "U", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
  c.schema.inputs = untyped;
  c.schema.input_count = 1;
  CHECK_REFUSED("input 0 (X) has type variable \"U\", which no type constraint constrains", c);
}

void TypeConstraints() {
  Case c = Valid();
  const OpbridgeTypeConstraint twice[] = {{"T", kFloat32, nullptr}, {"T", kFloat32, nullptr}};
  c.schema.type_constraints = twice;
  c.schema.type_constraint_count = 2;
  CHECK_REFUSED("type constraint 1 (T) constrains its type variable a second time", c);
  const OpbridgeTypeConstraint empty[] = {{"T", 0, nullptr}};
  c.schema.type_constraints = empty;
  c.schema.type_constraint_count = 1;
  CHECK_REFUSED("type constraint 0 (T) allows no dtype", c);
  const OpbridgeTypeConstraint unknown[] = {{"T", kFloat32 | OPBRIDGE_DTYPE_BIT(8), nullptr}};  // 8: ONNX string
  c.schema.type_constraints = unknown;
  CHECK_REFUSED("allowed has unknown dtype bits 0x100", c);
}

void AttributeDefinitions() {
  Case c = Valid();
  OpbridgeAttributeDef attributes[2];
  std::memset(attributes, 0, sizeof attributes);
  attributes[0].name = "alpha";
  attributes[0].type = 4;  // ONNX's TENSOR
  c.schema.attributes = attributes;
  c.schema.attribute_count = 1;
  CHECK_REFUSED("attribute 0 (alpha): type 4 is not an OpbridgeAttributeType", c);
  attributes[0].type = OPBRIDGE_ATTRIBUTE_FLOAT;
  attributes[0].has_default = 2;
  CHECK_REFUSED("has_default 2 must be 0 (required) or 1", c);
  attributes[0].has_default = 0;
  attributes[1] = attributes[0];
  c.schema.attribute_count = 2;
  CHECK_REFUSED("attribute 1 (alpha) has the name of attribute 0", c);
  c.schema.attribute_count = 1;
  attributes[0].type = OPBRIDGE_ATTRIBUTE_STRING;
  attributes[0].has_default = 1;
  CHECK_REFUSED("attribute 0 (alpha): default_value.s is NULL", c);
  attributes[0].type = OPBRIDGE_ATTRIBUTE_INTS;
  attributes[0].default_value.count = 2;
  CHECK_REFUSED("default_value.count is 2 but default_value.ints is NULL", c);
  attributes[0].default_value.count = -1;
  CHECK_REFUSED("default_value.count -1 is outside 0..65536", c);
  const char* const labels[] = {"a", nullptr};
  attributes[0].type = OPBRIDGE_ATTRIBUTE_STRINGS;
  attributes[0].default_value.strings = labels;
  attributes[0].default_value.count = 2;
  CHECK_REFUSED("default_value.strings[1] is NULL", c);
  attributes[0].name = "not an identifier";
  CHECK_REFUSED("attribute 0: name \"not an identifier\" is not an identifier", c);
  c = Valid();
  c.schema.infer = nullptr;
  CHECK_REFUSED("infer is NULL", c);
}

void FunctionBodies() {
  Case c = Valid();
  OpbridgeFunctionBody body = kBody;
  c.schema.function_body = &body;
  body.node_count = 0;
  CHECK_REFUSED("function_body: node_count 0 is outside 1..4096", c);
  body = kBody;
  body.opset_import_count = 0;
  CHECK_REFUSED("function_body: opset_import_count 0 is outside 1..64", c);
  const OpbridgeOpsetImport twice[] = {{"", 13}, {"", 14}};
  body = kBody;
  body.opset_imports = twice;
  body.opset_import_count = 2;
  CHECK_REFUSED("opset import 1: domain \"\" is imported twice", c);
  const OpbridgeOpsetImport version_zero[] = {{"", 0}};
  body.opset_imports = version_zero;
  body.opset_import_count = 1;
  CHECK_REFUSED("opset import 0: version 0 must be >= 1", c);
  OpbridgeFunctionNode node = kIdentity[0];
  body = kBody;
  body.nodes = &node;
  node.domain = "com.other";
  CHECK_REFUSED("node 0 (Identity): domain \"com.other\" is not among the body's opset imports", c);
  node = kIdentity[0];
  node.outputs = kXName;
  CHECK_REFUSED("output 0 writes \"X\", which is already defined", c);
  const char* const nothing[] = {"Nothing"};
  node = kIdentity[0];
  node.inputs = nothing;
  CHECK_REFUSED("input 0 reads \"Nothing\", which is undefined there", c);
  const char* const other[] = {"Z"};
  node = kIdentity[0];
  node.outputs = other;
  CHECK_REFUSED("function_body: no node writes output \"Y\"", c);
  node = kIdentity[0];
  node.op_type = nullptr;
  CHECK_REFUSED("function_body: node 0: op_type is NULL", c);
  OpbridgeNodeAttribute attribute;
  std::memset(&attribute, 0, sizeof attribute);
  attribute.name = "axes";
  attribute.type = OPBRIDGE_ATTRIBUTE_INTS;
  node = kIdentity[0];
  node.attributes = &attribute;
  node.attribute_count = 1;
  CHECK_REFUSED("attribute 0 (axes) is an empty list", c);
  // Reading an omitted input ("") is allowed; so are values written by earlier nodes.
  const char* const omitted[] = {"X", ""};
  node = kIdentity[0];
  node.inputs = omitted;
  node.input_count = 2;
  CHECK(Register(c)->schemas().at(0).function_body->nodes[0].inputs[1].empty());
}

int32_t RegisterSchemaTwice(const OpbridgeSchemaRegistrar* registrar) {
  registrar->add_domain(registrar, "test.unit", 1, 1, nullptr);
  const Case c = Valid();
  registrar->add_schema(registrar, &c.schema);
  return registrar->add_schema(registrar, &c.schema);
}

void Duplicates() {
  const OpbridgeSchemaLibrary twice = {OPBRIDGE_SCHEMA_ABI_VERSION, RegisterSchemaTwice};
  CHECK_THROWS(LoadError, "unit: schema test.unit.Copy (since version 1) is added twice",
               SchemaLibrary::FromTable(&twice, "unit"));
  const OpbridgeSchemaLibrary domain_twice = {
      OPBRIDGE_SCHEMA_ABI_VERSION, [](const OpbridgeSchemaRegistrar* registrar) {
        registrar->add_domain(registrar, "test.unit", 1, 1, nullptr);
        return registrar->add_domain(registrar, "test.unit", 1, 2, nullptr);
      }};
  CHECK_THROWS(LoadError, "unit: domain \"test.unit\" is added twice", SchemaLibrary::FromTable(&domain_twice, "unit"));
}

void RegistrationResults() {
  CHECK_THROWS(LoadError, "unit: opbridge_schema_library returned NULL", SchemaLibrary::FromTable(nullptr, "unit"));
  const OpbridgeSchemaLibrary newer = {OPBRIDGE_SCHEMA_ABI_VERSION + 1, RegisterCase};
  CHECK_THROWS(LoadError, "schema library unit implements schema ABI version 2; this host implements version 1",
               SchemaLibrary::FromTable(&newer, "unit"));
  const OpbridgeSchemaLibrary no_function = {OPBRIDGE_SCHEMA_ABI_VERSION, nullptr};
  CHECK_THROWS(LoadError, "register_schemas is NULL", SchemaLibrary::FromTable(&no_function, "unit"));
  const OpbridgeSchemaLibrary silent = {OPBRIDGE_SCHEMA_ABI_VERSION,
                                        [](const OpbridgeSchemaRegistrar*) { return int32_t{5}; }};
  CHECK_THROWS(LoadError, "register_schemas returned 5 without calling set_error",
               SchemaLibrary::FromTable(&silent, "unit"));
  const OpbridgeSchemaLibrary says_why = {OPBRIDGE_SCHEMA_ABI_VERSION, [](const OpbridgeSchemaRegistrar* registrar) {
                                            registrar->set_error(registrar, "no licence");
                                            return int32_t{0};
                                          }};
  CHECK_THROWS(LoadError, "register_schemas failed: no licence (it called set_error but returned 0)",
               SchemaLibrary::FromTable(&says_why, "unit"));
  const OpbridgeSchemaLibrary throws = {OPBRIDGE_SCHEMA_ABI_VERSION, [](const OpbridgeSchemaRegistrar*) -> int32_t {
                                          throw std::runtime_error("boom");
                                        }};
  CHECK_THROWS(LoadError, "register_schemas threw: boom", SchemaLibrary::FromTable(&throws, "unit"));
  const OpbridgeSchemaLibrary adds_null = {OPBRIDGE_SCHEMA_ABI_VERSION, [](const OpbridgeSchemaRegistrar* registrar) {
                                             return registrar->add_schema(registrar, nullptr);
                                           }};
  CHECK_THROWS(LoadError, "unit: add_schema call 0: the schema is NULL", SchemaLibrary::FromTable(&adds_null, "unit"));
}

// Registers from strings and structs that are overwritten (then gone) once the calls return.
int32_t RegisterTemporaries(const OpbridgeSchemaRegistrar* registrar) {
  std::string domain = "test.temporary";
  std::string name = "Temporary";
  std::string doc(1000, 'd');
  if (registrar->add_domain(registrar, domain.c_str(), 1, 1, doc.c_str()) != 0) return 1;
  Case c = Valid();
  c.schema.domain = domain.c_str();
  c.schema.name = name.c_str();
  c.schema.doc = doc.c_str();
  const int32_t code = registrar->add_schema(registrar, &c.schema);
  domain.assign(domain.size(), 'x');
  name.assign(name.size(), 'x');
  doc.assign(doc.size(), 'x');
  std::memset(&c.schema, 0xAB, sizeof c.schema);
  return code;
}

void CopiesWhatItIsGiven() {
  const OpbridgeSchemaLibrary temporary = {OPBRIDGE_SCHEMA_ABI_VERSION, RegisterTemporaries};
  auto library = SchemaLibrary::FromTable(&temporary, "unit");
  CHECK(library->domains()[0].name == "test.temporary" && library->domains()[0].doc == std::string(1000, 'd'));
  CHECK(library->schemas()[0].Describe() == "test.temporary.Temporary (since version 1)");
  CHECK(library->schemas()[0].doc == std::string(1000, 'd'));
}

// ----- Libraries loaded by path -----

const SchemaSpec& Find(const SchemaLibrary& library, const std::string& name, int32_t version = 1) {
  for (const SchemaSpec& schema : library.schemas()) {
    if (schema.name == name && schema.since_version == version) return schema;
  }
  std::fprintf(stderr, "no schema %s v%d\n", name.c_str(), version);
  std::exit(1);
}

size_t IndexOf(const SchemaLibrary& library, const std::string& name) {
  return static_cast<size_t>(&Find(library, name) - library.schemas().data());
}

void ExampleLibrary() {
  auto library = SchemaLibrary::Open("examples/schema_library/libcopy_schemas.so");
  CHECK(library->path().find("/examples/schema_library/libcopy_schemas.so") != std::string::npos);
  CHECK(library->domains().size() == 1 && library->domains()[0].max_version == 1);
  const SchemaSpec& copy = Find(*library, "CopyInput");
  CHECK(copy.domain == "com.example.copy" && copy.type_constraints[0].allowed == 0x6E);
  std::vector<InferOutput> outputs = library->Infer(0, {InferInput{true, OPBRIDGE_DTYPE_INT8, {2, -1, 0}}}, {});
  CHECK(outputs.size() == 1 && outputs[0].dtype == OPBRIDGE_DTYPE_INT8);
  CHECK(outputs[0].shape == std::vector<int64_t>({2, -1, 0}));
  outputs = library->Infer(0, {InferInput{true, OPBRIDGE_DTYPE_FLOAT32, {}}}, {});
  CHECK(outputs[0].shape.empty());
  CHECK_THROWS(InvalidInput, "input 0 (X) is float64 (11); T allows {float32, uint8, int8, int16, int32}",
               library->Infer(0, {InferInput{true, OPBRIDGE_DTYPE_FLOAT64, {1}}}, {}));
  CHECK_THROWS(InvalidInput, "has no attribute \"alpha\"",
               library->Infer(0, {InferInput{true, OPBRIDGE_DTYPE_FLOAT32, {1}}}, {{"alpha", 1.0}}));
  CHECK_THROWS(InvalidInput, "has no schema 1", library->Infer(1, {}, {}));
}

void TestLibraryInference() {
  auto library = SchemaLibrary::Open("cc/plugin/libtest_schemas_good.so");
  CHECK(library->schemas().size() == 5);
  const size_t probe = IndexOf(*library, "Probe");
  const InferInput x{true, OPBRIDGE_DTYPE_FLOAT16, {3, 4}};
  auto run = [&](const std::string& mode, std::vector<InferInput> inputs = {}) {
    if (inputs.empty()) inputs = {x};
    return library->Infer(probe, inputs, {{"mode", mode}});
  };
  CHECK(run("same")[0].shape == std::vector<int64_t>({3, 4}));
  std::vector<InferOutput> mask = run("mask");
  CHECK(mask.size() == 2 && mask[1].dtype == OPBRIDGE_DTYPE_BOOL);
  // Defaults: count 2, scale 0.5, axes {0, 1}, weights {}, labels {"a", "bc"}.
  CHECK(run("attributes")[0].shape == std::vector<int64_t>({2, 5, 2, 1, 0, 2, 1}));
  const Attributes given = {{"mode", std::string("attributes")},
                            {"count", int64_t{7}},
                            {"axes", std::vector<int64_t>{4, 5, 6}},
                            {"labels", std::vector<std::string>{"long label"}}};
  CHECK(library->Infer(probe, {x}, given)[0].shape == std::vector<int64_t>({7, 5, 3, 15, 0, 1, 10}));
  CHECK(run("inputs", {x, InferInput{false, 0, {}}})[0].shape == std::vector<int64_t>({2, 0, 0, -1}));
  CHECK(run("inputs", {x, InferInput{true, OPBRIDGE_DTYPE_FLOAT16, {9}}})[0].shape ==
        std::vector<int64_t>({2, 1, OPBRIDGE_DTYPE_FLOAT16, 1}));
  CHECK_THROWS(InferenceError, "schema test.schemas.Probe (since version 1): Probe was asked to fail", run("fail"));
  CHECK_THROWS(InferenceContractError, "infer returned 1 without calling fail", run("silent"));
  CHECK_THROWS(InferenceContractError, "infer did not set output 0 (Y)", run("skip"));
  CHECK_THROWS(InferenceContractError, "set_output(0): dtype 7 (int64) is outside T", run("bad_dtype"));
  CHECK_THROWS(InferenceContractError, "infer set output 1 but not output 0", run("hole"));
  CHECK_THROWS(InferenceContractError, "infer threw: Probe threw on purpose", run("throw"));
  // What the host checks before calling the callback.
  CHECK_THROWS(InvalidInput, "required attribute \"mode\" (string) is missing", library->Infer(probe, {x}, {}));
  CHECK_THROWS(InvalidInput, "attribute \"count\" is int, got float",
               library->Infer(probe, {x}, {{"mode", std::string("same")}, {"count", 1.0}}));
  CHECK_THROWS(InvalidInput, "takes 1 to 2 inputs (X, Bias?), got 3", run("same", {x, x, x}));
  CHECK_THROWS(InvalidInput, "input 0 (X) is required but missing", run("same", {InferInput{false, 0, {}}}));
  CHECK_THROWS(InvalidInput, "has rank 17, over 16",
               run("same", {InferInput{true, OPBRIDGE_DTYPE_FLOAT16, std::vector<int64_t>(17, 1)}}));
  // A variadic input.
  const size_t sum = IndexOf(*library, "Sum");
  const InferInput item{true, OPBRIDGE_DTYPE_INT8, {2}};
  CHECK(library->Infer(sum, {item, item, item, item}, {})[0].dtype == OPBRIDGE_DTYPE_INT8);
  CHECK_THROWS(InvalidInput, "takes at least 1 inputs (Items...), got 0", library->Infer(sum, {}, {}));
  CHECK_THROWS(InferenceError, "Sum: input 1 has another shape than input 0",
               library->Infer(sum, {item, InferInput{true, OPBRIDGE_DTYPE_INT8, {3}}}, {}));
  // Node attributes of every type in a function body.
  const auto& node = Find(*library, "ProbeSame").function_body->nodes.at(0);
  CHECK(node.domain == "test.schemas" && node.attributes.size() == 6);
  CHECK(std::get<std::vector<double>>(node.attributes[4].second) == std::vector<double>({0.25}));
}

void LoadErrors() {
  CHECK_THROWS(LoadError, "\"libcopy_schemas.so\" is not a path", SchemaLibrary::Open("libcopy_schemas.so"));
  CHECK_THROWS(LoadError, "does not exist", SchemaLibrary::Open("cc/plugin/libnothing.so"));
  CHECK_THROWS(LoadError, "ELF", SchemaLibrary::Open("cc/plugin/schema_host_test.cc"));
  CHECK_THROWS(LoadError, "implements schema ABI version 2; this host implements version 1",
               SchemaLibrary::Open("cc/plugin/libtest_schemas_wrong_abi.so"));
  CHECK_THROWS(LoadError, "libtest_schemas_no_entry_point.so does not export opbridge_schema_library",
               SchemaLibrary::Open("cc/plugin/libtest_schemas_no_entry_point.so"));
  CHECK_THROWS(LoadError, "schema test.schemas.Twice (since version 1) is added twice",
               SchemaLibrary::Open("cc/plugin/libtest_schemas_duplicate.so"));
  // A library stays loaded while its SchemaLibrary lives; its schemas' callbacks keep working.
  std::shared_ptr<SchemaLibrary> kept = SchemaLibrary::Open("cc/plugin/libtest_schemas_good.so");
  SchemaLibrary::Open("cc/plugin/libtest_schemas_good.so").reset();
  CHECK(kept->Infer(IndexOf(*kept, "Twice"), {InferInput{true, OPBRIDGE_DTYPE_FLOAT32, {1}}}, {}).size() == 1);
}

}  // namespace

int main() {
  ValidCaseRegisters();
  NamesAndVersions();
  Domains();
  StructSize();
  Parameters();
  TypeConstraints();
  AttributeDefinitions();
  FunctionBodies();
  Duplicates();
  RegistrationResults();
  CopiesWhatItIsGiven();
  ExampleLibrary();
  TestLibraryInference();
  LoadErrors();
  std::puts("schema_host_test: all checks passed");
  return 0;
}
