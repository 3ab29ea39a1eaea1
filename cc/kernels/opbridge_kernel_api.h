/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The portable kernel interface, version 1: a custom operator's C kernel,
 * written once, for every place opbridge runs it.
 *
 * A kernel is C99 with no allocation, no statics that change and no I/O:
 *
 *   int32_t my_op(const my_op_params_t *params,
 *                 const opbridge_kernel_input_t *inputs, int32_t input_count,
 *                 const opbridge_kernel_output_t *outputs, int32_t output_count);
 *
 * plus the shape of each output, for hosts that allocate outputs at run
 * time (a microcontroller module never calls it: its shapes are planned):
 *
 *   int32_t my_op_output_shape(const my_op_params_t *params,
 *                              const opbridge_kernel_input_t *inputs, int32_t input_count,
 *                              int32_t output_index, opbridge_kernel_shape_t *shape);
 *
 * The shape function reads the inputs' shapes and dtypes and the params
 * only, never their data: a host may call it before any data exist, with
 * each input's `data` NULL (OpenVINO's validate_and_infer_types does, and
 * there a refusal stops the model at load time; dims not known yet stand
 * in as 1, and only the outputs' ranks are then used; a refusal of them
 * leaves the outputs' ranks unknown until the op runs).
 *
 * `my_op_params_t` is the kernel's own const struct of scalars (float,
 * int32_t), computed once per node: at conversion time for a module (a
 * `static const` in flash), from the node's attributes of the same names
 * on the hosts. Both functions return OPBRIDGE_KERNEL_OK or a code of their
 * own in 1..OPBRIDGE_KERNEL_STATUS_LAST.
 *
 * The same source is then (docs/custom_ops.md, "One kernel, four hosts"):
 * - called from an emitted module (src/), on every Cortex-M and host target;
 * - wrapped by a generated adapter into a plugin of opbridge's native host
 *   (cc/plugin/opbridge_plugin.h), so Python can run it beside the reference;
 * - wrapped by a generated adapter into an ONNX Runtime custom-op library;
 * - wrapped by a generated OpenVINO extension (an ov::op::Op and the ONNX
 *   frontend's conversion into it), which OpenVINO's Core loads.
 */
#ifndef OPBRIDGE_KERNEL_API_H_
#define OPBRIDGE_KERNEL_API_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_KERNEL_API_VERSION 1
#define OPBRIDGE_KERNEL_MAX_RANK 8

/* Status codes. A module returns a kernel's code n as <PREFIX>_STATUS_CUSTOM_FIRST + n. */
#define OPBRIDGE_KERNEL_OK 0
#define OPBRIDGE_KERNEL_INVALID_ARGUMENT 1 /* inputs the kernel cannot serve */
#define OPBRIDGE_KERNEL_STATUS_LAST 999

/* Element types, numbered as ONNX's TensorProto.DataType (and OpbridgeDType). */
#define OPBRIDGE_KERNEL_FLOAT32 1
#define OPBRIDGE_KERNEL_UINT8 2
#define OPBRIDGE_KERNEL_INT8 3
#define OPBRIDGE_KERNEL_INT16 5
#define OPBRIDGE_KERNEL_INT32 6

typedef struct opbridge_kernel_shape {
  int32_t rank; /* 0 for a scalar, at most OPBRIDGE_KERNEL_MAX_RANK */
  int32_t dims[OPBRIDGE_KERNEL_MAX_RANK];
} opbridge_kernel_shape_t;

typedef struct opbridge_kernel_input {
  int32_t dtype;
  opbridge_kernel_shape_t shape;
  int32_t element_count;
  const void *data;
} opbridge_kernel_input_t;

typedef struct opbridge_kernel_output {
  int32_t dtype;
  opbridge_kernel_shape_t shape;
  int32_t element_count;
  void *data;
} opbridge_kernel_output_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPBRIDGE_KERNEL_API_H_ */
