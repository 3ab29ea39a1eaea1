// SPDX-License-Identifier: Apache-2.0
// A schema library for the schema host's tests (opbridge_schema.h).
// TEST_SCHEMAS_GOOD builds a valid library in domain "test.schemas"
// (versions 1..2); every other TEST_SCHEMAS_* define builds one way of
// registering wrongly. Schemas are built on the stack inside
// register_schemas, so the tests also show that the host copies them.
//
//   Probe v1      X: T, Bias: T (optional) -> Y: T, Mask: B (optional);
//                 every attribute type; the required attribute `mode`
//                 picks what infer does (see InferProbe).
//   Sum v1        Items: T (variadic) -> Y: T; inputs of one shape.
//   Twice v1, v2  X: T -> Y: T; bodies Add(X, X) and Mul(X, CastLike(2, X)).
//   ProbeSame v1  X: T -> Y: T; body: this library's Probe with literal
//                 attributes of every type.
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "cc/plugin/opbridge_schema.h"

namespace {

constexpr char kDomain[] = "test.schemas";
constexpr uint32_t kNumbers = OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT32) |
                              OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT16) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT8);
constexpr uint32_t kBool = OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_BOOL);

int32_t Fail(const OpbridgeInferContext* ctx, const std::string& message) {
  ctx->api->fail(ctx, message.c_str());
  return 1;
}

int32_t SameAsInput(const OpbridgeInferContext* ctx, int32_t output, int32_t input) {
  const OpbridgeInferApi* api = ctx->api;
  return api->set_output(ctx, output, api->input_dtype(ctx, input), api->input_dims(ctx, input),
                         api->input_rank(ctx, input));
}

// What Probe's infer does depends on its `mode`:
//   same        Y like X
//   mask        Y like X, Mask: bool of X's shape
//   attributes  Y: X's dtype, shape [count, scale * 10, len(axes), sum(axes), len(weights), len(labels),
//               strlen(labels[0]) or -1]
//   inputs      Y: X's dtype, shape [input_count, present(1), dtype(1), rank(1)]
//   fail        fails with a message
//   silent      returns 1 without a message
//   skip        returns 0 without setting an output
//   bad_dtype   sets Y to int64, outside T
//   hole        sets Mask but not Y
//   throw       throws std::runtime_error
int32_t InferProbe(const OpbridgeInferContext* ctx) {
  const OpbridgeInferApi* api = ctx->api;
  const char* mode = nullptr;
  if (api->attribute_string(ctx, "mode", &mode) != 0) return Fail(ctx, "Probe: mode is missing");
  const std::string how = mode;
  const int32_t dtype = api->input_dtype(ctx, 0);
  if (how == "same") return SameAsInput(ctx, 0, 0);
  if (how == "mask") {
    if (SameAsInput(ctx, 0, 0) != 0) return 1;
    return api->set_output(ctx, 1, OPBRIDGE_DTYPE_BOOL, api->input_dims(ctx, 0), api->input_rank(ctx, 0));
  }
  if (how == "attributes") {
    int64_t count = 0;
    double scale = 0.0;
    const int64_t* axes = nullptr;
    const double* weights = nullptr;
    const char* const* labels = nullptr;
    int32_t axes_count = 0, weights_count = 0, labels_count = 0;
    if (api->attribute_int(ctx, "count", &count) != 0 || api->attribute_float(ctx, "scale", &scale) != 0 ||
        api->attribute_ints(ctx, "axes", &axes, &axes_count) != 0 ||
        api->attribute_floats(ctx, "weights", &weights, &weights_count) != 0 ||
        api->attribute_strings(ctx, "labels", &labels, &labels_count) != 0) {
      return Fail(ctx, "Probe: an attribute is missing");
    }
    // Asking for an attribute by the wrong type, or one that does not exist, is refused.
    int64_t wrong = 0;
    if (api->attribute_int(ctx, "scale", &wrong) == 0 || api->attribute_int(ctx, "nonexistent", &wrong) == 0) {
      return Fail(ctx, "Probe: the host returned an attribute of the wrong type");
    }
    int64_t sum = 0;
    for (int32_t i = 0; i < axes_count; ++i) sum += axes[i];
    const int64_t dims[] = {count,
                            static_cast<int64_t>(scale * 10),
                            axes_count,
                            sum,
                            weights_count,
                            labels_count,
                            labels_count > 0 ? static_cast<int64_t>(std::strlen(labels[0])) : -1};
    return api->set_output(ctx, 0, dtype, dims, 7);
  }
  if (how == "inputs") {
    const int64_t dims[] = {api->input_count(ctx), api->input_present(ctx, 1), api->input_dtype(ctx, 1),
                            api->input_rank(ctx, 1)};
    return api->set_output(ctx, 0, dtype, dims, 4);
  }
  if (how == "fail") return Fail(ctx, "Probe was asked to fail (mode \"fail\")");
  if (how == "silent") return 1;
  if (how == "skip") return 0;
  if (how == "bad_dtype") {
    api->set_output(ctx, 0, OPBRIDGE_DTYPE_INT64, nullptr, 0);
    return 0;
  }
  if (how == "hole") return api->set_output(ctx, 1, OPBRIDGE_DTYPE_BOOL, nullptr, 0);
  if (how == "throw") throw std::runtime_error("Probe threw on purpose");
  return Fail(ctx, "Probe: unknown mode \"" + how + "\"");
}

// Every input has X's shape; Y is that.
int32_t InferSum(const OpbridgeInferContext* ctx) {
  const OpbridgeInferApi* api = ctx->api;
  const int32_t rank = api->input_rank(ctx, 0);
  for (int32_t i = 1; i < api->input_count(ctx); ++i) {
    bool same = api->input_rank(ctx, i) == rank;
    for (int32_t axis = 0; same && axis < rank; ++axis) {
      same = api->input_dims(ctx, i)[axis] == api->input_dims(ctx, 0)[axis];
    }
    if (!same) return Fail(ctx, "Sum: input " + std::to_string(i) + " has another shape than input 0");
  }
  return SameAsInput(ctx, 0, 0);
}

int32_t InferSame(const OpbridgeInferContext* ctx) { return SameAsInput(ctx, 0, 0); }

OpbridgeOpSchemaDef NewSchema(const char* name, int32_t since_version) {
  OpbridgeOpSchemaDef schema;
  std::memset(&schema, 0, sizeof schema);
  schema.struct_size = sizeof schema;
  schema.domain = kDomain;
  schema.name = name;
  schema.since_version = since_version;
  return schema;
}

OpbridgeAttributeDef Attribute(const char* name, int32_t type, const char* doc) {
  OpbridgeAttributeDef attribute;
  std::memset(&attribute, 0, sizeof attribute);
  attribute.name = name;
  attribute.type = type;
  attribute.doc = doc;
  return attribute;
}

#define COUNT(array) static_cast<int32_t>(sizeof(array) / sizeof((array)[0]))

}  // namespace

static int32_t RegisterSchemas(const OpbridgeSchemaRegistrar* registrar) {
#if defined(TEST_SCHEMAS_SILENT_FAILURE)
  return 3;
#elif defined(TEST_SCHEMAS_SET_ERROR)
  registrar->set_error(registrar, "the test library refuses to register");
  return 1;
#endif
#if defined(TEST_SCHEMAS_RESERVED_DOMAIN)
  const char* domain = "opbridge";
#else
  const char* domain = kDomain;
#endif
#if !defined(TEST_SCHEMAS_UNREGISTERED_DOMAIN)
  if (registrar->add_domain(registrar, domain, 1, 2, "Schemas for the schema host's tests.") != 0) return 1;
#endif
#if defined(TEST_SCHEMAS_DUPLICATE_DOMAIN)
  if (registrar->add_domain(registrar, domain, 1, 1, nullptr) != 0) return 1;
#endif

  // Probe: every parameter option and attribute type.
  const OpbridgeFormalParameter probe_inputs[] = {
      {"X", "T", "the input", OPBRIDGE_PARAMETER_SINGLE},
      {"Bias", "T", "an optional bias", OPBRIDGE_PARAMETER_OPTIONAL},
  };
  const OpbridgeFormalParameter probe_outputs[] = {
      {"Y", "T", "depends on mode", OPBRIDGE_PARAMETER_SINGLE},
      {"Mask", "B", "with mode \"mask\"", OPBRIDGE_PARAMETER_OPTIONAL},
  };
  const OpbridgeTypeConstraint probe_types[] = {
      {"T", kNumbers, "numbers"},
      {"B", kBool, nullptr},
  };
  const int64_t default_axes[] = {0, 1};
  const char* const default_labels[] = {"a", "bc"};
  OpbridgeAttributeDef probe_attributes[] = {
      Attribute("mode", OPBRIDGE_ATTRIBUTE_STRING, "what infer does"),
      Attribute("count", OPBRIDGE_ATTRIBUTE_INT, "an int"),
      Attribute("scale", OPBRIDGE_ATTRIBUTE_FLOAT, "a float"),
      Attribute("axes", OPBRIDGE_ATTRIBUTE_INTS, "ints"),
      Attribute("weights", OPBRIDGE_ATTRIBUTE_FLOATS, nullptr),
      Attribute("labels", OPBRIDGE_ATTRIBUTE_STRINGS, "strings"),
#if defined(TEST_SCHEMAS_KEYWORD_ATTRIBUTE)
      Attribute("lambda", OPBRIDGE_ATTRIBUTE_FLOAT, "a Python keyword"),
#endif
  };
  probe_attributes[1].has_default = 1;
  probe_attributes[1].default_value.i = 2;
  probe_attributes[2].has_default = 1;
  probe_attributes[2].default_value.f = 0.5;
  probe_attributes[3].has_default = 1;
  probe_attributes[3].default_value.ints = default_axes;
  probe_attributes[3].default_value.count = 2;
  probe_attributes[4].has_default = 1;  // an empty list
  probe_attributes[5].has_default = 1;
  probe_attributes[5].default_value.strings = default_labels;
  probe_attributes[5].default_value.count = 2;
  OpbridgeOpSchemaDef probe = NewSchema("Probe", 1);
  probe.domain = domain;
  probe.doc = "Probes the host's inference API.";
  probe.inputs = probe_inputs;
  probe.input_count = COUNT(probe_inputs);
  probe.outputs = probe_outputs;
  probe.output_count = COUNT(probe_outputs);
  probe.type_constraints = probe_types;
  probe.type_constraint_count = COUNT(probe_types);
  probe.attributes = probe_attributes;
  probe.attribute_count = COUNT(probe_attributes);
  probe.infer = InferProbe;

  // Sum: a variadic input.
  OpbridgeFormalParameter sum_inputs[] = {
      {"Items", "T", "tensors of one shape", OPBRIDGE_PARAMETER_VARIADIC},
#if defined(TEST_SCHEMAS_VARIADIC_NOT_LAST)
      {"Last", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE},
#endif
  };
  const OpbridgeFormalParameter sum_outputs[] = {{"Y", "T", "their sum", OPBRIDGE_PARAMETER_SINGLE}};
#if defined(TEST_SCHEMAS_EMPTY_DTYPE_MASK)
  const OpbridgeTypeConstraint sum_types[] = {{"T", 0, nullptr}};
#else
  const OpbridgeTypeConstraint sum_types[] = {{"T", kNumbers, nullptr}};
#endif
  OpbridgeOpSchemaDef sum = NewSchema("Sum", 1);
  sum.inputs = sum_inputs;
  sum.input_count = COUNT(sum_inputs);
  sum.outputs = sum_outputs;
  sum.output_count = 1;
  sum.type_constraints = sum_types;
  sum.type_constraint_count = 1;
  sum.infer = InferSum;

  // Twice v1 and v2: function bodies of ONNX ops.
  const OpbridgeFormalParameter twice_inputs[] = {{"X", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
#if defined(TEST_SCHEMAS_UNCONSTRAINED_TYPE_VAR)
  const OpbridgeFormalParameter twice_outputs[] = {{"Y", "U", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
#else
  const OpbridgeFormalParameter twice_outputs[] = {{"Y", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
#endif
  const OpbridgeTypeConstraint twice_types[] = {
      {"T", OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT32) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT32), nullptr}};
#if defined(TEST_SCHEMAS_BODY_UNDEFINED_VALUE)
  const char* const add_inputs[] = {"X", "Z"};
#else
  const char* const add_inputs[] = {"X", "X"};
#endif
#if defined(TEST_SCHEMAS_BODY_MISSING_OUTPUT)
  const char* const add_outputs[] = {"Sum"};
#else
  const char* const add_outputs[] = {"Y"};
#endif
  const OpbridgeFunctionNode twice_v1_nodes[] = {{"Add", "", add_inputs, 2, add_outputs, 1, nullptr, 0}};
  const OpbridgeOpsetImport onnx_13[] = {{"", 13}};
  const OpbridgeFunctionBody twice_v1_body = {twice_v1_nodes, 1, onnx_13, 1};
  OpbridgeOpSchemaDef twice_v1 = NewSchema("Twice", 1);
  twice_v1.doc = "Y = X + X";
  twice_v1.inputs = twice_inputs;
  twice_v1.input_count = 1;
  twice_v1.outputs = twice_outputs;
  twice_v1.output_count = 1;
  twice_v1.type_constraints = twice_types;
  twice_v1.type_constraint_count = 1;
  twice_v1.infer = InferSame;
  twice_v1.function_body = &twice_v1_body;

  OpbridgeNodeAttribute two;
  std::memset(&two, 0, sizeof two);
  two.name = "value_float";
  two.type = OPBRIDGE_ATTRIBUTE_FLOAT;
  two.value.f = 2.0;
  const char* const constant_outputs[] = {"two"};
  const char* const cast_inputs[] = {"two", "X"};
  const char* const cast_outputs[] = {"two_like_x"};
  const char* const mul_inputs[] = {"X", "two_like_x"};
  const char* const mul_outputs[] = {"Y"};
  const OpbridgeFunctionNode twice_v2_nodes[] = {
      {"Constant", "", nullptr, 0, constant_outputs, 1, &two, 1},
      {"CastLike", "", cast_inputs, 2, cast_outputs, 1, nullptr, 0},
      {"Mul", "", mul_inputs, 2, mul_outputs, 1, nullptr, 0},
  };
  const OpbridgeOpsetImport onnx_15[] = {{"", 15}};
  const OpbridgeFunctionBody twice_v2_body = {twice_v2_nodes, 3, onnx_15, 1};
  OpbridgeOpSchemaDef twice_v2 = twice_v1;
  twice_v2.since_version = 2;
  twice_v2.doc = "Y = X * 2";
  twice_v2.function_body = &twice_v2_body;

  // ProbeSame: a body that calls Probe with literal attributes of every type.
  const int64_t axes[] = {1, 2};
  const double weights[] = {0.25};
  const char* const labels[] = {"x"};
  OpbridgeNodeAttribute probe_literals[6];
  std::memset(probe_literals, 0, sizeof probe_literals);
  probe_literals[0].name = "mode";
  probe_literals[0].type = OPBRIDGE_ATTRIBUTE_STRING;
  probe_literals[0].value.s = "same";
  probe_literals[1].name = "count";
  probe_literals[1].type = OPBRIDGE_ATTRIBUTE_INT;
  probe_literals[1].value.i = 3;
  probe_literals[2].name = "scale";
  probe_literals[2].type = OPBRIDGE_ATTRIBUTE_FLOAT;
  probe_literals[2].value.f = 1.5;
  probe_literals[3].name = "axes";
  probe_literals[3].type = OPBRIDGE_ATTRIBUTE_INTS;
  probe_literals[3].value.ints = axes;
  probe_literals[3].value.count = 2;
  probe_literals[4].name = "weights";
  probe_literals[4].type = OPBRIDGE_ATTRIBUTE_FLOATS;
  probe_literals[4].value.floats = weights;
  probe_literals[4].value.count = 1;
  probe_literals[5].name = "labels";
  probe_literals[5].type = OPBRIDGE_ATTRIBUTE_STRINGS;
  probe_literals[5].value.strings = labels;
  probe_literals[5].value.count = 1;
  const char* const probe_same_inputs[] = {"X"};
  const char* const probe_same_outputs[] = {"Y"};
  const OpbridgeFunctionNode probe_same_nodes[] = {
      {"Probe", kDomain, probe_same_inputs, 1, probe_same_outputs, 1, probe_literals, 6}};
  const OpbridgeOpsetImport test_1[] = {{kDomain, 1}};
  const OpbridgeFunctionBody probe_same_body = {probe_same_nodes, 1, test_1, 1};
  const OpbridgeFormalParameter probe_same_inputs_spec[] = {{"X", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
  const OpbridgeFormalParameter probe_same_outputs_spec[] = {{"Y", "T", nullptr, OPBRIDGE_PARAMETER_SINGLE}};
  const OpbridgeTypeConstraint probe_same_types[] = {{"T", kNumbers, "numbers"}};
  OpbridgeOpSchemaDef probe_same = NewSchema("ProbeSame", 1);
  probe_same.inputs = probe_same_inputs_spec;
  probe_same.input_count = 1;
  probe_same.outputs = probe_same_outputs_spec;
  probe_same.output_count = 1;
  probe_same.type_constraints = probe_same_types;
  probe_same.type_constraint_count = 1;
  probe_same.infer = InferSame;
  probe_same.function_body = &probe_same_body;

#if defined(TEST_SCHEMAS_VERSION_OUTSIDE_DOMAIN)
  twice_v2.since_version = 3;
#endif
#if defined(TEST_SCHEMAS_LARGER_STRUCT)
  // A newer header's OpbridgeOpSchemaDef: one more field, set.
  struct Newer {
    OpbridgeOpSchemaDef v1;
    const void* added_later;
  } newer;
  std::memset(&newer, 0, sizeof newer);
  newer.v1 = sum;
  newer.v1.struct_size = sizeof newer;
  newer.added_later = &newer;
  if (registrar->add_schema(registrar, &newer.v1) != 0) return 1;
#endif

  for (const OpbridgeOpSchemaDef* schema : {&probe, &sum, &twice_v1, &twice_v2, &probe_same}) {
    if (registrar->add_schema(registrar, schema) != 0) return 1;
  }
#if defined(TEST_SCHEMAS_DUPLICATE)
  if (registrar->add_schema(registrar, &twice_v1) != 0) return 1;
#endif
  return 0;
}

static const OpbridgeSchemaLibrary kLibrary = {
#if defined(TEST_SCHEMAS_WRONG_ABI)
    OPBRIDGE_SCHEMA_ABI_VERSION + 1,
#else
    OPBRIDGE_SCHEMA_ABI_VERSION,
#endif
    RegisterSchemas,
};

#if defined(TEST_SCHEMAS_NO_ENTRY_POINT)
extern "C" OPBRIDGE_SCHEMA_EXPORT const OpbridgeSchemaLibrary* some_other_function(void) { return &kLibrary; }
#else
const OpbridgeSchemaLibrary* opbridge_schema_library(void) { return &kLibrary; }
#endif
