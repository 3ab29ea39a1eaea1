/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opbridge native plugin ABI, version 1.
 *
 * A plugin is a shared library that exports one C function,
 *
 *   const OpbridgePluginOpTable* opbridge_plugin_get_ops(uint32_t host_api_version);
 *
 * returning a table of operators. Each operator declares its domain, name
 * and opset version, the dtypes each input and output accepts, and three
 * callbacks: create (once per graph node), compute (once per run) and
 * destroy. Callbacks talk to the host only through the OpbridgeHostApi
 * table they are handed, so a plugin links against nothing of opbridge.
 *
 * Stability rules (this header is C99):
 * - A host accepts any table whose api_version is between 1 and its own
 *   OPBRIDGE_PLUGIN_API_VERSION; a plugin that cannot serve the host's
 *   version returns NULL.
 * - OpbridgeOpDef may grow at the end: the table says how large the
 *   plugin's OpbridgeOpDef is (op_def_size), and the host steps through
 *   `ops` by that size and reads only the fields it knows.
 * - OpbridgeHostApi only grows at the end; a plugin checks
 *   host->api_version before using a function added after version 1.
 * - OpbridgeTensorView never changes: richer views would come through new
 *   host functions.
 *
 * Read docs/native_plugins.md for a worked example.
 */
#ifndef OPBRIDGE_PLUGIN_H_
#define OPBRIDGE_PLUGIN_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_PLUGIN_API_VERSION 1u
#define OPBRIDGE_PLUGIN_ENTRY_POINT "opbridge_plugin_get_ops"

/* Element types, numbered as ONNX's TensorProto.DataType. */
typedef enum OpbridgeDType {
  OPBRIDGE_DTYPE_FLOAT32 = 1,
  OPBRIDGE_DTYPE_UINT8 = 2,
  OPBRIDGE_DTYPE_INT8 = 3,
  OPBRIDGE_DTYPE_UINT16 = 4,
  OPBRIDGE_DTYPE_INT16 = 5,
  OPBRIDGE_DTYPE_INT32 = 6,
  OPBRIDGE_DTYPE_INT64 = 7,
  OPBRIDGE_DTYPE_BOOL = 9,
  OPBRIDGE_DTYPE_FLOAT16 = 10,
  OPBRIDGE_DTYPE_FLOAT64 = 11,
  OPBRIDGE_DTYPE_UINT32 = 12,
  OPBRIDGE_DTYPE_UINT64 = 13,
  OPBRIDGE_DTYPE_BFLOAT16 = 16
} OpbridgeDType;

/* A set of dtypes, for OpbridgeOpDef's input_dtypes / output_dtypes. */
#define OPBRIDGE_DTYPE_BIT(dtype) (UINT32_C(1) << (uint32_t)(dtype))

/* Callback results. Anything but OK must come with a message (set_error). */
typedef enum OpbridgePluginStatusCode {
  OPBRIDGE_PLUGIN_OK = 0,
  OPBRIDGE_PLUGIN_INVALID_ARGUMENT = 1, /* the inputs or attributes are wrong */
  OPBRIDGE_PLUGIN_FAILED = 2            /* anything else */
} OpbridgePluginStatusCode;

/* Host-owned objects, opaque to plugins. */
typedef struct OpbridgeKernelInfo OpbridgeKernelInfo;       /* a node: its attributes */
typedef struct OpbridgeKernelContext OpbridgeKernelContext; /* one run of a node */
typedef struct OpbridgeStatus OpbridgeStatus;               /* where an error message goes */

/* An input as seen by compute: valid until compute returns. */
typedef struct OpbridgeTensorView {
  int32_t dtype;        /* OpbridgeDType */
  int32_t rank;         /* 0 for a scalar */
  const int64_t* shape; /* rank entries */
  int64_t element_count;
  const void* data; /* element_count elements, may be NULL when empty */
} OpbridgeTensorView;

/* What the host offers a plugin. Every function is non-NULL. Functions that
 * return int32_t return 0 on success. */
typedef struct OpbridgeHostApi {
  uint32_t api_version;
  /* Attributes of the node (create only). Missing, or another type: nonzero. */
  int32_t (*attribute_float)(const OpbridgeKernelInfo* info, const char* name, double* value);
  int32_t (*attribute_int)(const OpbridgeKernelInfo* info, const char* name, int64_t* value);
  /* The string stays valid until the kernel is destroyed. */
  int32_t (*attribute_string)(const OpbridgeKernelInfo* info, const char* name, const char** value);
  /* Inputs and outputs of this run (compute only). */
  int32_t (*input_count)(const OpbridgeKernelContext* context);
  int32_t (*output_count)(const OpbridgeKernelContext* context);
  int32_t (*input)(const OpbridgeKernelContext* context, int32_t index, OpbridgeTensorView* view);
  /* Host-owned output storage, once per output and run; checked against the
   * op's declared dtypes and the host's size limits. */
  int32_t (*allocate_output)(OpbridgeKernelContext* context, int32_t index, int32_t dtype,
                             const int64_t* shape, int32_t rank, void** data);
  /* Records why a callback fails; return the same code from the callback. */
  void (*set_error)(OpbridgeStatus* status, int32_t code, const char* message);
} OpbridgeHostApi;

typedef struct OpbridgeOpDef {
  const char* domain; /* "" is the default domain */
  const char* name;
  int32_t since_version; /* >= 1 */
  int32_t input_count;
  const uint32_t* input_dtypes; /* input_count sets of OPBRIDGE_DTYPE_BIT */
  int32_t output_count;
  const uint32_t* output_dtypes; /* output_count sets */
  /* Once per node, before its first run. *kernel may be any pointer. On
   * failure, leave *kernel NULL: anything else is passed to destroy. */
  int32_t (*create)(const OpbridgeHostApi* host, const OpbridgeKernelInfo* info, void** kernel,
                    OpbridgeStatus* status);
  /* Once per run; reads the current shapes from the context. */
  int32_t (*compute)(const OpbridgeHostApi* host, void* kernel, OpbridgeKernelContext* context,
                     OpbridgeStatus* status);
  void (*destroy)(void* kernel);
} OpbridgeOpDef;

typedef struct OpbridgePluginOpTable {
  uint32_t api_version; /* the version the plugin implements, <= the host's */
  uint32_t op_count;
  uint32_t op_def_size; /* sizeof(OpbridgeOpDef) as the plugin was compiled */
  const OpbridgeOpDef* ops;
} OpbridgePluginOpTable;

/* A table for `ops` (an array) in a plugin compiled with this header. */
#define OPBRIDGE_PLUGIN_OP_TABLE(ops)                                                           \
  {                                                                                            \
    OPBRIDGE_PLUGIN_API_VERSION, (uint32_t)(sizeof(ops) / sizeof((ops)[0])), (uint32_t)sizeof(OpbridgeOpDef), \
        (ops)                                                                                  \
  }

typedef const OpbridgePluginOpTable* (*OpbridgePluginGetOpsFn)(uint32_t host_api_version);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPBRIDGE_PLUGIN_H_ */
