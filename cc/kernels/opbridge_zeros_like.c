/* SPDX-License-Identifier: Apache-2.0 */
/* ZEROS_LIKE on any element type (see opbridge_zeros_like.h). */
#include "cc/kernels/opbridge_zeros_like.h"

#include <stddef.h>
#include <string.h>

int32_t opbridge_zeros_like(int32_t bytes, void *output) {
  if (output == NULL || bytes < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  memset(output, 0, (size_t)bytes);
  return OPBRIDGE_STATUS_OK;
}
