/* SPDX-License-Identifier: Apache-2.0 */
/* OnnxInt8Torch's kernel, written against the portable kernel interface
 * (cc/kernels/opbridge_kernel_api.h): the same source runs in the emitted
 * module, in opbridge's native host, in onnxruntime and in OpenVINO. */
#ifndef ONNX_INT8_TORCH_KERNEL_H_
#define ONNX_INT8_TORCH_KERNEL_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Computed once per node (plugin.py: the PortableKernel's params). */
typedef struct onnx_int8_torch_kernel_params {
  float alpha;              /* the slope for x < 0 (the node's attribute), for float32 */
  int32_t zero_point;       /* int8: the input's (and output's) zero point, from its quantization */
  int32_t alpha_multiplier; /* int8: alpha as Q0.31 with alpha_shift */
  int32_t alpha_shift;
} onnx_int8_torch_kernel_params_t;

int32_t onnx_int8_torch_kernel(const onnx_int8_torch_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count);

/* The output's shape, for hosts that allocate it (agrees with plugin.py's shape rule). */
int32_t onnx_int8_torch_kernel_output_shape(const onnx_int8_torch_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ONNX_INT8_TORCH_KERNEL_H_ */
