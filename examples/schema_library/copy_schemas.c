/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A schema library (cc/plugin/opbridge_schema.h) in C99: domain
 * "com.example.copy" (version 1) with one op, CopyInput, whose output Y is
 * its input X: same dtype, same shape. Its function body is one ONNX
 * Identity node, so opbridge's reference evaluates it and an ONNX export
 * can carry it for onnxruntime.
 */
#include <stdint.h>

#include "cc/plugin/opbridge_schema.h"

#define COPY_DOMAIN "com.example.copy"

/* Y has X's dtype and shape; dimensions unknown until run time (-1) stay unknown. */
static int32_t InferCopyInput(const OpbridgeInferContext* ctx) {
  const OpbridgeInferApi* api = ctx->api;
  if (!api->input_present(ctx, 0)) {
    api->fail(ctx, "CopyInput needs its input X");
    return 1;
  }
  return api->set_output(ctx, 0, api->input_dtype(ctx, 0), api->input_dims(ctx, 0), api->input_rank(ctx, 0));
}

static const OpbridgeFormalParameter kInputs[] = {
    {.name = "X", .type_var = "T", .doc = "the tensor to copy", .option = OPBRIDGE_PARAMETER_SINGLE},
};

static const OpbridgeFormalParameter kOutputs[] = {
    {.name = "Y", .type_var = "T", .doc = "a copy of X", .option = OPBRIDGE_PARAMETER_SINGLE},
};

static const OpbridgeTypeConstraint kTypeConstraints[] = {
    {.type_var = "T",
     .allowed = OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_FLOAT32) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT8) |
                OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT16) | OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_INT32) |
                OPBRIDGE_DTYPE_BIT(OPBRIDGE_DTYPE_UINT8),
     .doc = "float32 and the integer types of quantized models"},
};

/* Y = Identity(X), in ONNX opset 13. */
static const char* const kIdentityInputs[] = {"X"};
static const char* const kIdentityOutputs[] = {"Y"};
static const OpbridgeFunctionNode kBodyNodes[] = {
    {.op_type = "Identity",
     .domain = "",
     .inputs = kIdentityInputs,
     .input_count = 1,
     .outputs = kIdentityOutputs,
     .output_count = 1},
};
static const OpbridgeOpsetImport kBodyImports[] = {{.domain = "", .version = 13}};
static const OpbridgeFunctionBody kBody = {
    .nodes = kBodyNodes, .node_count = 1, .opset_imports = kBodyImports, .opset_import_count = 1};

static const OpbridgeOpSchemaDef kCopyInput = {
    .struct_size = sizeof(OpbridgeOpSchemaDef),
    .domain = COPY_DOMAIN,
    .name = "CopyInput",
    .since_version = 1,
    .doc = "Copies its input: Y has X's dtype, shape and values.",
    .inputs = kInputs,
    .input_count = 1,
    .outputs = kOutputs,
    .output_count = 1,
    .type_constraints = kTypeConstraints,
    .type_constraint_count = 1,
    .infer = InferCopyInput,
    .function_body = &kBody,
};

static int32_t RegisterSchemas(const OpbridgeSchemaRegistrar* registrar) {
  if (registrar->add_domain(registrar, COPY_DOMAIN, 1, 1, "Example operators that copy tensors.") != 0) return 1;
  return registrar->add_schema(registrar, &kCopyInput);
}

static const OpbridgeSchemaLibrary kLibrary = {
    .abi_version = OPBRIDGE_SCHEMA_ABI_VERSION,
    .register_schemas = RegisterSchemas,
};

const OpbridgeSchemaLibrary* opbridge_schema_library(void) { return &kLibrary; }
