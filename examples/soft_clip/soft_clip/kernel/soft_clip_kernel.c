/* SPDX-License-Identifier: Apache-2.0 */
#include "soft_clip_kernel.h"

#include <math.h>

int32_t soft_clip_kernel(const soft_clip_kernel_params_t *params, const opbridge_kernel_input_t *inputs, int32_t input_count,
    const opbridge_kernel_output_t *outputs, int32_t output_count) {
  if (input_count != 1 || output_count != 1 || inputs[0].dtype != OPBRIDGE_KERNEL_FLOAT32 ||
      outputs[0].dtype != OPBRIDGE_KERNEL_FLOAT32 || inputs[0].element_count != outputs[0].element_count) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  const float *x = (const float *)inputs[0].data;
  float *y = (float *)outputs[0].data;
  for (int32_t i = 0; i < inputs[0].element_count; ++i) {
    /* The math: x / (1 + |x| / limit), in float32 (fabsf is exact). */
    y[i] = x[i] / (1.0f + fabsf(x[i]) / params->limit);
  }
  return OPBRIDGE_KERNEL_OK;
}

int32_t soft_clip_kernel_output_shape(const soft_clip_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape) {
  /* As plugin.py's shape rule: a limit <= 0 is refused (hosts that validate before running, OpenVINO). */
  if (input_count != 1 || output_index != 0 || !(params->limit > 0.0f)) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  *shape = inputs[0].shape; /* the shape of the input */
  return OPBRIDGE_KERNEL_OK;
}
