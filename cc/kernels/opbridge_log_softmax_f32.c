/* SPDX-License-Identifier: Apache-2.0 */
/* float32 LOG_SOFTMAX: per row the maximum, the sum of expf(x - max) in
 * order, then x - max - logf(sum), as TFLite Micro's float reference. */
#include "cc/kernels/opbridge_log_softmax_f32.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

int32_t opbridge_log_softmax_f32(const opbridge_log_softmax_f32_params *params, const float *input, float *output) {
  if (params == NULL || input == NULL || output == NULL || params->rows < 0 || params->depth <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->depth;
  for (int32_t row = 0; row < params->rows; ++row) {
    const float *x = input + (size_t)row * (size_t)depth;
    float *y = output + (size_t)row * (size_t)depth;
    float maximum = -FLT_MAX;
    for (int32_t c = 0; c < depth; ++c) {
      maximum = maximum < x[c] ? x[c] : maximum; /* a NaN never becomes the maximum */
    }
    float sum = 0.0f;
    for (int32_t c = 0; c < depth; ++c) {
      sum += expf(x[c] - maximum);
    }
    const float log_sum = logf(sum);
    for (int32_t c = 0; c < depth; ++c) {
      y[c] = (x[c] - maximum) - log_sum;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
