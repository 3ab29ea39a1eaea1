/* SPDX-License-Identifier: Apache-2.0 */
/* RSQRT on float32 and int8 (see opbridge_rsqrt.h). */
#include "cc/kernels/opbridge_rsqrt.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The NaN below 0, by its bits rather than the FPU's default NaN (ARM: 0x7FC00000, x86: 0xFFC00000). */
static inline float opbridge_rsqrt_domain_nan_f32(void) {
  const uint32_t bits = 0x7FC00000u;
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

int32_t opbridge_rsqrt_f32(int32_t size, const float *input, float *output) {
  if (input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    const float x = input[i];
    /* x < 0 is false for NaN (it propagates through sqrtf) and for -0.0 (sqrtf: -0.0, so -inf). */
    output[i] = x < 0.0f ? opbridge_rsqrt_domain_nan_f32() : 1.0f / sqrtf(x);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_rsqrt_s8(const opbridge_rsqrt_s8_params *params, const int8_t *input, int8_t *output) {
  if (params == NULL || params->table == NULL || input == NULL || output == NULL || params->size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    const int32_t stored = input[i];
    if (stored < params->input_zero_point) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
    output[i] = params->table[stored + 128];
  }
  return OPBRIDGE_STATUS_OK;
}
