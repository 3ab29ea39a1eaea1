/* SPDX-License-Identifier: Apache-2.0 */
#include "channel_shuffle_kernel.h"

#include <string.h>

int32_t channel_shuffle_kernel(const channel_shuffle_kernel_params_t *params, const opbridge_kernel_input_t *inputs,
    int32_t input_count, const opbridge_kernel_output_t *outputs, int32_t output_count) {
  if (input_count != 1 || output_count != 1 || inputs[0].dtype != outputs[0].dtype ||
      inputs[0].element_count != outputs[0].element_count || inputs[0].shape.rank < 2) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  const int32_t element_size = inputs[0].dtype == OPBRIDGE_KERNEL_FLOAT32 ? 4 : inputs[0].dtype == OPBRIDGE_KERNEL_INT8 ? 1 : 0;
  const int32_t groups = params->groups;
  const int32_t batch = inputs[0].shape.dims[0];
  const int32_t channels = inputs[0].shape.dims[1];
  if (element_size == 0 || groups < 1 || channels % groups != 0 || batch <= 0 || channels <= 0) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  /* Each channel is a contiguous run of `inner` elements ([N, C, H, W] with H * W = inner). */
  const int32_t inner = inputs[0].element_count / (batch * channels);
  const int32_t per_group = channels / groups;
  const size_t run = (size_t)inner * (size_t)element_size;
  const unsigned char *x = (const unsigned char *)inputs[0].data;
  unsigned char *y = (unsigned char *)outputs[0].data;
  for (int32_t n = 0; n < batch; ++n) {
    const size_t image = (size_t)n * (size_t)channels * run;
    /* Output channel c * groups + g is input channel g * per_group + c. */
    for (int32_t g = 0; g < groups; ++g) {
      for (int32_t c = 0; c < per_group; ++c) {
        memcpy(y + image + (size_t)(c * groups + g) * run, x + image + (size_t)(g * per_group + c) * run, run);
      }
    }
  }
  return OPBRIDGE_KERNEL_OK;
}

int32_t channel_shuffle_kernel_output_shape(const channel_shuffle_kernel_params_t *params,
    const opbridge_kernel_input_t *inputs, int32_t input_count, int32_t output_index, opbridge_kernel_shape_t *shape) {
  if (input_count != 1 || output_index != 0) return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  /* As plugin.py's `infer`: a channel axis (axis 1) that `groups` divides. */
  if (inputs[0].shape.rank < 2 || params->groups < 1 || inputs[0].shape.dims[1] % params->groups != 0) {
    return OPBRIDGE_KERNEL_INVALID_ARGUMENT;
  }
  *shape = inputs[0].shape; /* the shape of the input */
  return OPBRIDGE_KERNEL_OK;
}
