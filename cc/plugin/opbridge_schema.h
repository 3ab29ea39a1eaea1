/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opbridge operator-schema ABI, version 1: operator schemas registered from
 * a shared library.
 *
 * A schema library exports one C function,
 *
 *   const OpbridgeSchemaLibrary* opbridge_schema_library(void);
 *
 * (declared below, so that a definition in C or C++ gets C linkage and
 * default visibility). The host loads the library by explicit path, checks
 * the returned struct's abi_version before anything else, then calls
 * register_schemas once with a registrar: a table of host functions through
 * which the library adds opset domains (add_domain) and operator schemas
 * (add_schema), or reports why it cannot (set_error).
 *
 * A schema is what opbridge's Python OpSchema holds: domain, name,
 * since_version, documented inputs and outputs (single, optional or
 * variadic) typed by type variables, the dtypes each type variable allows,
 * attributes with their defaults, a shape-and-dtype inference callback and,
 * optionally, a function body that decomposes the op into other (ONNX) ops.
 * opbridge converts each into an OpSchema that behaves like one written in
 * Python (python/opbridge/schema_libraries.py).
 *
 * Ownership and lifetime:
 * - The host copies everything add_domain and add_schema are given before
 *   they return: the library may pass temporaries (stack arrays, strings it
 *   frees afterwards).
 * - The registrar is valid only during register_schemas; an inference
 *   context and every pointer the host hands out through it (input shapes,
 *   attribute strings and lists) only during that infer call.
 * - The library stays loaded while any schema from it is alive: infer is
 *   called long after registration. It is never unloaded during a call.
 * - infer may run on several threads at once (the host calls it without
 *   Python's GIL): keep it free of shared mutable state.
 * - Strings are NUL-terminated UTF-8; names are ASCII identifiers
 *   ([A-Za-z_][A-Za-z0-9_]*), domains dotted identifiers ("com.example").
 *   A doc pointer may be NULL (no documentation).
 *
 * Stability rules (this header is C99 and C++ compatible):
 * - abi_version must equal the host's OPBRIDGE_SCHEMA_ABI_VERSION exactly;
 *   the host refuses any other version, naming both. The version changes
 *   only with an incompatible change.
 * - OpbridgeOpSchemaDef may grow at the end within a version: it starts
 *   with struct_size (set it to sizeof(OpbridgeOpSchemaDef)). The host reads
 *   the fields it knows and refuses a larger struct whose extra bytes are
 *   not all zero (a feature it does not know is never silently dropped).
 * - The host tables (OpbridgeSchemaRegistrar, OpbridgeInferApi) only grow at
 *   the end and start with their struct_size: check it before using a
 *   function added after version 1.
 * - Every other struct is fixed for version 1.
 * - Element types are ONNX's TensorProto.DataType numbers (OpbridgeDType of
 *   opbridge_plugin.h), sets of them OPBRIDGE_DTYPE_BIT masks; attribute
 *   types are ONNX's AttributeProto.AttributeType numbers.
 *
 * Functions returning int32_t return 0 on success and nonzero on failure,
 * as do register_schemas and infer. A nonzero return must come with a
 * message (set_error, fail): the host refuses a silent failure.
 *
 * examples/schema_library/ is a complete library (README.md there).
 */
#ifndef OPBRIDGE_SCHEMA_H_
#define OPBRIDGE_SCHEMA_H_

#include <stddef.h>
#include <stdint.h>

#include "opbridge_plugin.h" /* OpbridgeDType, OPBRIDGE_DTYPE_BIT */

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_SCHEMA_ABI_VERSION 1u
#define OPBRIDGE_SCHEMA_ENTRY_POINT "opbridge_schema_library"

/* How often a formal input or output occurs. */
typedef enum OpbridgeParameterOption {
  OPBRIDGE_PARAMETER_SINGLE = 0,   /* exactly once */
  OPBRIDGE_PARAMETER_OPTIONAL = 1, /* may be omitted */
  OPBRIDGE_PARAMETER_VARIADIC = 2  /* one or more; the last input or output only */
} OpbridgeParameterOption;

/* Attribute types, numbered as ONNX's AttributeProto.AttributeType. */
typedef enum OpbridgeAttributeType {
  OPBRIDGE_ATTRIBUTE_FLOAT = 1,
  OPBRIDGE_ATTRIBUTE_INT = 2,
  OPBRIDGE_ATTRIBUTE_STRING = 3,
  OPBRIDGE_ATTRIBUTE_FLOATS = 6,
  OPBRIDGE_ATTRIBUTE_INTS = 7,
  OPBRIDGE_ATTRIBUTE_STRINGS = 8
} OpbridgeAttributeType;

/* One formal input or output. */
typedef struct OpbridgeFormalParameter {
  const char* name;     /* an identifier, unique among the inputs (or outputs) */
  const char* type_var; /* e.g. "T": constrained in type_constraints */
  const char* doc;
  int32_t option; /* OpbridgeParameterOption */
} OpbridgeFormalParameter;

/* The element types a type variable allows. Every input and output of one
 * type variable has the same dtype in a node. */
typedef struct OpbridgeTypeConstraint {
  const char* type_var;
  uint32_t allowed; /* OPBRIDGE_DTYPE_BIT set: nonempty, OpbridgeDType bits only */
  const char* doc;
} OpbridgeTypeConstraint;

/* A value of a known OpbridgeAttributeType: the member of that type is read,
 * the others are ignored. A list is `count` entries at ints, floats or
 * strings (which may be NULL when count is 0). */
typedef struct OpbridgeAttributeValue {
  int64_t i;                  /* INT */
  double f;                   /* FLOAT */
  const char* s;              /* STRING: non-NULL */
  const int64_t* ints;        /* INTS */
  const double* floats;       /* FLOATS */
  const char* const* strings; /* STRINGS: count non-NULL strings */
  int32_t count;              /* INTS, FLOATS, STRINGS: 0..OPBRIDGE_SCHEMA_MAX_LIST */
} OpbridgeAttributeValue;

/* One attribute an op accepts. Without a default it is required. */
typedef struct OpbridgeAttributeDef {
  const char* name; /* an identifier (and not a Python keyword), unique */
  int32_t type;     /* OpbridgeAttributeType */
  int32_t has_default; /* 0: required; 1: default_value is its value when a node omits it */
  OpbridgeAttributeValue default_value;
  const char* doc;
} OpbridgeAttributeDef;

/* An attribute of a function-body node: a literal. Lists must not be empty
 * (an empty list does not say its element type). */
typedef struct OpbridgeNodeAttribute {
  const char* name;
  int32_t type; /* OpbridgeAttributeType */
  OpbridgeAttributeValue value;
} OpbridgeNodeAttribute;

/* One node of a function body. Inputs name the op's formal inputs or values
 * written by earlier nodes ("" for an omitted input); outputs name new
 * values or the op's formal outputs. */
typedef struct OpbridgeFunctionNode {
  const char* op_type; /* e.g. "Identity" */
  const char* domain;  /* "" for ONNX; must be among the body's opset imports */
  const char* const* inputs;
  int32_t input_count;
  const char* const* outputs;
  int32_t output_count; /* >= 1 */
  const OpbridgeNodeAttribute* attributes;
  int32_t attribute_count;
} OpbridgeFunctionNode;

/* An opset the body's nodes use, e.g. {"", 13} for ONNX opset 13. */
typedef struct OpbridgeOpsetImport {
  const char* domain;
  int32_t version; /* >= 1 */
} OpbridgeOpsetImport;

/* A decomposition of the op into other ops; it must write every output. */
typedef struct OpbridgeFunctionBody {
  const OpbridgeFunctionNode* nodes;
  int32_t node_count; /* >= 1 */
  const OpbridgeOpsetImport* opset_imports;
  int32_t opset_import_count; /* each domain once; 1..OPBRIDGE_SCHEMA_MAX_PARAMETERS */
} OpbridgeFunctionBody;

/* Host-provided inference context: a table of host functions and the
 * host's own state. Pass `ctx` to every function of ctx->api. */
typedef struct OpbridgeInferApi OpbridgeInferApi;
typedef struct OpbridgeInferContext {
  const OpbridgeInferApi* api;
  void* host; /* opaque to the library */
} OpbridgeInferContext;

/* What an inference callback may ask. Inputs are numbered as the node's
 * (omitted optional inputs keep their position); a dimension of -1 is known
 * only at run time. The host has already checked the node against the
 * schema: the input count, the presence of required inputs, every present
 * input's dtype against its type variable, and the attributes (declared
 * ones only, of their types, defaults filled in, required ones present). */
struct OpbridgeInferApi {
  uint32_t struct_size; /* sizeof(OpbridgeInferApi) of the host */
  int32_t (*input_count)(const OpbridgeInferContext* ctx);
  /* 1 if input `index` is present, 0 if it is omitted or out of range. */
  int32_t (*input_present)(const OpbridgeInferContext* ctx, int32_t index);
  /* Its OpbridgeDType; 0 if it is absent. */
  int32_t (*input_dtype)(const OpbridgeInferContext* ctx, int32_t index);
  /* Its rank (0 for a scalar); -1 if it is absent. */
  int32_t (*input_rank)(const OpbridgeInferContext* ctx, int32_t index);
  /* Its rank dimensions (NULL for a scalar or an absent input). */
  const int64_t* (*input_dims)(const OpbridgeInferContext* ctx, int32_t index);
  /* The attribute `name` of the node, if it is declared with this type.
   * Strings and lists stay valid until infer returns. */
  int32_t (*attribute_int)(const OpbridgeInferContext* ctx, const char* name, int64_t* value);
  int32_t (*attribute_float)(const OpbridgeInferContext* ctx, const char* name, double* value);
  int32_t (*attribute_string)(const OpbridgeInferContext* ctx, const char* name, const char** value);
  int32_t (*attribute_ints)(const OpbridgeInferContext* ctx, const char* name, const int64_t** values,
                            int32_t* count);
  int32_t (*attribute_floats)(const OpbridgeInferContext* ctx, const char* name, const double** values,
                              int32_t* count);
  int32_t (*attribute_strings)(const OpbridgeInferContext* ctx, const char* name, const char* const** values,
                               int32_t* count);
  /* Sets output `index`: a dtype its type variable allows and `rank`
   * dimensions (each >= -1; rank 0..OPBRIDGE_SCHEMA_MAX_RANK; dims may be
   * NULL for rank 0). Once per output. The outputs set must be 0..n-1 with
   * every required output among them. Nonzero, with the reason kept for
   * the error, if the host refuses. */
  int32_t (*set_output)(const OpbridgeInferContext* ctx, int32_t index, int32_t dtype, const int64_t* dims,
                        int32_t rank);
  /* Records why the node's inputs or attributes do not suit the op; then
   * return nonzero from infer. The message reaches the user, naming the
   * node. */
  void (*fail)(const OpbridgeInferContext* ctx, const char* message);
};

/* The schema of one version of one operator. Zero-initialize it, set
 * struct_size = sizeof(OpbridgeOpSchemaDef), then the fields. */
typedef struct OpbridgeOpSchemaDef {
  uint32_t struct_size;
  const char* domain; /* registered with add_domain (before or after) */
  const char* name;
  int32_t since_version; /* within the domain's min_version..max_version */
  const char* doc;
  const OpbridgeFormalParameter* inputs;
  int32_t input_count; /* 0..OPBRIDGE_SCHEMA_MAX_PARAMETERS */
  const OpbridgeFormalParameter* outputs;
  int32_t output_count; /* 1..OPBRIDGE_SCHEMA_MAX_PARAMETERS */
  const OpbridgeTypeConstraint* type_constraints;
  int32_t type_constraint_count; /* each type variable once; 0..2 * OPBRIDGE_SCHEMA_MAX_PARAMETERS */
  const OpbridgeAttributeDef* attributes;
  int32_t attribute_count; /* 0..OPBRIDGE_SCHEMA_MAX_ATTRIBUTES */
  /* Non-NULL: the output dtypes and shapes from the inputs and attributes. */
  int32_t (*infer)(const OpbridgeInferContext* ctx);
  /* NULL when the op has no function body. */
  const OpbridgeFunctionBody* function_body;
} OpbridgeOpSchemaDef;

/* The host's registration functions; valid only during register_schemas. */
typedef struct OpbridgeSchemaRegistrar OpbridgeSchemaRegistrar;
struct OpbridgeSchemaRegistrar {
  uint32_t struct_size; /* sizeof(OpbridgeSchemaRegistrar) of the host */
  void* host;           /* opaque to the library */
  /* A domain the library defines, with the versions that exist of it
   * (1 <= min_version <= max_version). Each domain once; opbridge's and
   * ONNX's domains are reserved. Nonzero if the host refuses it (it keeps
   * the reason; return nonzero from register_schemas). */
  int32_t (*add_domain)(const OpbridgeSchemaRegistrar* registrar, const char* name, int32_t min_version,
                        int32_t max_version, const char* doc);
  /* Checks and copies one schema. Each (domain, name, since_version) once.
   * Nonzero if the host refuses it (it keeps the reason). */
  int32_t (*add_schema)(const OpbridgeSchemaRegistrar* registrar, const OpbridgeOpSchemaDef* schema);
  /* Records why register_schemas fails; then return nonzero from it. */
  void (*set_error)(const OpbridgeSchemaRegistrar* registrar, const char* message);
};

/* What the entry point returns (a pointer to static storage). */
typedef struct OpbridgeSchemaLibrary {
  uint32_t abi_version; /* OPBRIDGE_SCHEMA_ABI_VERSION; checked before anything else */
  /* Called once per load; adds every domain and schema of the library. */
  int32_t (*register_schemas)(const OpbridgeSchemaRegistrar* registrar);
} OpbridgeSchemaLibrary;

/* Host limits (the host refuses larger counts, naming the field). */
#define OPBRIDGE_SCHEMA_MAX_PARAMETERS 64 /* inputs, outputs of a schema */
#define OPBRIDGE_SCHEMA_MAX_ATTRIBUTES 256
#define OPBRIDGE_SCHEMA_MAX_LIST 65536 /* entries of an attribute list; inputs or outputs of a body node */
#define OPBRIDGE_SCHEMA_MAX_NODES 4096 /* nodes of a function body */
#define OPBRIDGE_SCHEMA_MAX_RANK 16

/* Default visibility for the entry point, when building with
 * -fvisibility=hidden (recommended: only the entry point is exported). */
#if defined(__GNUC__)
#define OPBRIDGE_SCHEMA_EXPORT __attribute__((visibility("default")))
#else
#define OPBRIDGE_SCHEMA_EXPORT
#endif

/* The entry point a schema library defines (once, at global scope). */
OPBRIDGE_SCHEMA_EXPORT const OpbridgeSchemaLibrary* opbridge_schema_library(void);

typedef const OpbridgeSchemaLibrary* (*OpbridgeSchemaLibraryFn)(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPBRIDGE_SCHEMA_H_ */
