/* SPDX-License-Identifier: Apache-2.0 */
#include "onnx_int8_kernel.h"

#include "cc/kernels/opbridge_fixed_point.h"

int32_t onnx_int8_kernel(const onnx_int8_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count) {
  if (input_count != 1 || output_count != 1 || inputs[0].dtype != OPBRIDGE_KERNEL_INT8 ||
      outputs[0].dtype != OPBRIDGE_KERNEL_INT8 || inputs[0].element_count != outputs[0].element_count) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  const int8_t *x = (const int8_t *)inputs[0].data;
  int8_t *y = (int8_t *)outputs[0].data;
  for (int32_t i = 0; i < inputs[0].element_count; ++i) {
    /* The math: x for x >= 0, else x * alpha (fixed point, rounded as TFLite rounds). */
    int32_t value = x[i];
    if (value < 0) value = opbridge_rescale(value, params->alpha_multiplier, params->alpha_shift);
    y[i] = (int8_t)(value < -128 ? -128 : value > 127 ? 127 : value);
  }
  return OPBRIDGE_KERNEL_OK;
}

int32_t onnx_int8_kernel_output_shape(const onnx_int8_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape) {
  (void)params;
  if (input_count != 1 || output_index != 0) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  *shape = inputs[0].shape; /* the shape of the input */
  return OPBRIDGE_KERNEL_OK;
}
