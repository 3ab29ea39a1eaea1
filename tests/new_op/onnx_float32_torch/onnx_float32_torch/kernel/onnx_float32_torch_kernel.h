/* SPDX-License-Identifier: Apache-2.0 */
/* OnnxFloat32Torch's kernel, written against the portable kernel interface
 * (cc/kernels/opbridge_kernel_api.h): the same source runs in the emitted
 * module, in opbridge's native host, in onnxruntime and in OpenVINO. */
#ifndef ONNX_FLOAT32_TORCH_KERNEL_H_
#define ONNX_FLOAT32_TORCH_KERNEL_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Computed once per node (plugin.py: the PortableKernel's params). */
typedef struct onnx_float32_torch_kernel_params {
  float alpha; /* the slope for x < 0 (the node's attribute) */
} onnx_float32_torch_kernel_params_t;

int32_t onnx_float32_torch_kernel(const onnx_float32_torch_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count);

/* The output's shape, for hosts that allocate it (agrees with plugin.py's shape rule). */
int32_t onnx_float32_torch_kernel_output_shape(const onnx_float32_torch_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ONNX_FLOAT32_TORCH_KERNEL_H_ */
