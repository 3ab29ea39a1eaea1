/* SPDX-License-Identifier: Apache-2.0 */
/* FLOOR on float32 (see opbridge_floor.h). */
#include "cc/kernels/opbridge_floor.h"

#include <math.h>
#include <stddef.h>

int32_t opbridge_floor_f32(int32_t size, const float *input, float *output) {
  if (input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    output[i] = floorf(input[i]);
  }
  return OPBRIDGE_STATUS_OK;
}
