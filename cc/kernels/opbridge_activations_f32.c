/* SPDX-License-Identifier: Apache-2.0 */
/* ELU and SOFTPLUS on float32 (see opbridge_activations_f32.h): one pass,
 * element i read before element i is written. */
#include "cc/kernels/opbridge_activations_f32.h"

#include <math.h>
#include <stddef.h>

int32_t opbridge_elu_f32(const opbridge_elu_f32_params_t *params, int32_t size, const float *input, float *output) {
  if (params == NULL || input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const float alpha = params->alpha;
  for (int32_t i = 0; i < size; ++i) {
    const float x = input[i];
    /* x < 0 is false for NaN and -0.0: both pass through, as in TFLite Micro. */
    output[i] = x < 0.0f ? alpha * expm1f(x) : x;
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_softplus_f32(int32_t size, const float *input, float *output) {
  if (input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    const float x = input[i];
    /* expf only ever sees -|x| (or NaN), so it cannot overflow. */
    output[i] = x > 0.0f ? x + log1pf(expf(-x)) : log1pf(expf(x));
  }
  return OPBRIDGE_STATUS_OK;
}
