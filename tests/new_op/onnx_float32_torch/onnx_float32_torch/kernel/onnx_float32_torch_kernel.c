/* SPDX-License-Identifier: Apache-2.0 */
#include "onnx_float32_torch_kernel.h"

int32_t onnx_float32_torch_kernel(const onnx_float32_torch_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count) {
  if (input_count != 1 || output_count != 1 || inputs[0].dtype != OPBRIDGE_KERNEL_FLOAT32 ||
      outputs[0].dtype != OPBRIDGE_KERNEL_FLOAT32 || inputs[0].element_count != outputs[0].element_count) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  const float *x = (const float *)inputs[0].data;
  float *y = (float *)outputs[0].data;
  for (int32_t i = 0; i < inputs[0].element_count; ++i) {
    /* The math: x for x >= 0, else alpha * x. */
    y[i] = x[i] >= 0.0f ? x[i] : params->alpha * x[i];
  }
  return OPBRIDGE_KERNEL_OK;
}

int32_t onnx_float32_torch_kernel_output_shape(const onnx_float32_torch_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape) {
  (void)params;
  if (input_count != 1 || output_index != 0) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  *shape = inputs[0].shape; /* the shape of the input */
  return OPBRIDGE_KERNEL_OK;
}
