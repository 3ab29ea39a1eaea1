/* SPDX-License-Identifier: Apache-2.0 */
/* float32 SOFTMAX over the last axis (TFLite Micro's float reference):
 * the row's maximum, expf((x - max) * beta) summed in order, then one
 * division per element. */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_f32.h"

int32_t opbridge_softmax_f32(const opbridge_softmax_f32_params *params, const float *input, float *output) {
  if (params == NULL || input == NULL || output == NULL || params->rows < 0 || params->depth <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->depth;
  const float beta = params->beta;
  for (int32_t row = 0; row < params->rows; ++row) {
    const float *x = input + (size_t)row * (size_t)depth;
    float *y = output + (size_t)row * (size_t)depth;
    float maximum = -FLT_MAX;
    for (int32_t c = 0; c < depth; ++c) {
      maximum = maximum < x[c] ? x[c] : maximum; /* std::max(maximum, x[c]) */
    }
    float sum = 0.0f;
    for (int32_t c = 0; c < depth; ++c) {
      const float e = expf((x[c] - maximum) * beta);
      y[c] = e;
      sum += e;
    }
    for (int32_t c = 0; c < depth; ++c) {
      y[c] = y[c] / sum;
    }
  }
  return OPBRIDGE_STATUS_OK;
}
