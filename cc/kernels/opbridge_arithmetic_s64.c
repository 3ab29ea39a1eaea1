/* SPDX-License-Identifier: Apache-2.0 */
/* int64 ADD, SUB and MUL with 4-D broadcasting (opbridge_arithmetic_s64.h). The arithmetic is done
 * on uint64_t, where overflow is defined, and the bits read back as int64_t. */
#include "cc/kernels/opbridge_arithmetic_s64.h"

#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"

/* uint64 bits as the int64 of the same two's-complement representation, without relying on an
 * implementation-defined conversion. */
static inline int64_t opbridge_bits_to_s64(uint64_t value) {
  return value <= (uint64_t)INT64_MAX ? (int64_t)value : (int64_t)(value - 0x8000000000000000u) + INT64_MIN;
}

#define OPBRIDGE_DEFINE_ARITHMETIC_S64(NAME, OPERATION)                                                    \
  int32_t opbridge_##NAME##_s64(const opbridge_broadcast_4d *params, const int64_t *input1,               \
                                const int64_t *input2, int64_t *output) {                                 \
    if (params == NULL || input1 == NULL || input2 == NULL || output == NULL ||                           \
        !opbridge_shape_4d_valid(params->output_shape)) {                                                 \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                            \
    }                                                                                                     \
    OPBRIDGE_BROADCAST_LOOP(int64_t, params, input1, input2, output,                                      \
                            opbridge_bits_to_s64((uint64_t)a OPERATION(uint64_t) b));                      \
    return OPBRIDGE_STATUS_OK;                                                                            \
  }

OPBRIDGE_DEFINE_ARITHMETIC_S64(add, +)
OPBRIDGE_DEFINE_ARITHMETIC_S64(sub, -)
OPBRIDGE_DEFINE_ARITHMETIC_S64(mul, *)
