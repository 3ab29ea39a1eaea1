/* SPDX-License-Identifier: Apache-2.0 */
#include "cc/kernels/opbridge_gelu.h"

#include <math.h>
#include <stddef.h>

#include "cc/kernels/opbridge_status.h"

/* The float32 constants the reference rounds the same way (reference.py). */
#define OPBRIDGE_GELU_MINUS_SQRT1_2 (-0.707106781186547524f)
#define OPBRIDGE_GELU_SQRT_2_OVER_PI 0.797884560802865356f
#define OPBRIDGE_GELU_CUBIC 0.044715f
/* The table's entry 0 is input -128. */
#define OPBRIDGE_GELU_TABLE_OFFSET 128

int32_t opbridge_gelu_s8(const int8_t *table, int32_t size, const int8_t *input, int8_t *output) {
  if (table == NULL || input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    output[i] = table[(int32_t)input[i] + OPBRIDGE_GELU_TABLE_OFFSET];
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_gelu_f32(int32_t approximate, int32_t size, const float *input, float *output) {
  if (input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    const float x = input[i];
    const float half_x = 0.5f * x;
    float gate;
    if (approximate) {
      const float inner = OPBRIDGE_GELU_SQRT_2_OVER_PI * (x + OPBRIDGE_GELU_CUBIC * x * x * x);
      /* 1 + tanh(inner), without its cancellation near inner = -3 (reference.py). */
      gate = 2.0f / (1.0f + expf(-2.0f * inner));
    } else {
      gate = erfcf(x * OPBRIDGE_GELU_MINUS_SQRT1_2);
    }
    output[i] = half_x * gate;
  }
  return OPBRIDGE_STATUS_OK;
}
