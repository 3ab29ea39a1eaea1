/* SPDX-License-Identifier: Apache-2.0 */
/* CAST between bool, int8, int16, int32, uint32 and (as a target) float32. */
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_int.h"

/* An integer value reduced modulo 2^32 (converting to an unsigned type is
 * modular in C), then read back as the target's two's-complement value. */
static inline int8_t opbridge_wrap_s8(uint32_t value) {
  const uint32_t low = value & 0xFFu;
  return low < 0x80u ? (int8_t)low : (int8_t)((int32_t)low - 0x100);
}

static inline int16_t opbridge_wrap_s16(uint32_t value) {
  const uint32_t low = value & 0xFFFFu;
  return low < 0x8000u ? (int16_t)low : (int16_t)((int32_t)low - 0x10000);
}

static inline int32_t opbridge_wrap_s32(uint32_t value) {
  return value <= (uint32_t)INT32_MAX ? (int32_t)value : (int32_t)(value - 0x80000000u) + INT32_MIN;
}

static inline uint32_t opbridge_wrap_u32(uint32_t value) { return value; }

/* How each source element is read: bools as 0 or 1, others as they are. */
#define OPBRIDGE_READ_b8(x) ((x) != 0 ? 1 : 0)
#define OPBRIDGE_READ_s8(x) (x)
#define OPBRIDGE_READ_s16(x) (x)
#define OPBRIDGE_READ_s32(x) (x)
#define OPBRIDGE_READ_u32(x) (x)

/* How a read value is written: integers through the modular wrap, floats by
 * C's conversion (round to nearest). */
#define OPBRIDGE_WRITE_s8(v) opbridge_wrap_s8((uint32_t)(v))
#define OPBRIDGE_WRITE_s16(v) opbridge_wrap_s16((uint32_t)(v))
#define OPBRIDGE_WRITE_s32(v) opbridge_wrap_s32((uint32_t)(v))
#define OPBRIDGE_WRITE_u32(v) opbridge_wrap_u32((uint32_t)(v))
#define OPBRIDGE_WRITE_f32(v) ((float)(v))

#define OPBRIDGE_DEFINE_CAST(FROM, FROM_T, TO, TO_T)                                                  \
  int32_t opbridge_cast_##FROM##_##TO(int32_t size, const FROM_T *input, TO_T *output) {              \
    if (input == NULL || output == NULL || size < 0) {                                                \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                        \
    }                                                                                                 \
    for (int32_t i = 0; i < size; ++i) {                                                              \
      output[i] = OPBRIDGE_WRITE_##TO(OPBRIDGE_READ_##FROM(input[i]));                                \
    }                                                                                                 \
    return OPBRIDGE_STATUS_OK;                                                                        \
  }

#define OPBRIDGE_DEFINE_CASTS_FROM(FROM, FROM_T)       \
  OPBRIDGE_DEFINE_CAST(FROM, FROM_T, s8, int8_t)       \
  OPBRIDGE_DEFINE_CAST(FROM, FROM_T, s16, int16_t)     \
  OPBRIDGE_DEFINE_CAST(FROM, FROM_T, s32, int32_t)     \
  OPBRIDGE_DEFINE_CAST(FROM, FROM_T, u32, uint32_t)    \
  OPBRIDGE_DEFINE_CAST(FROM, FROM_T, f32, float)

OPBRIDGE_DEFINE_CASTS_FROM(b8, uint8_t)
OPBRIDGE_DEFINE_CASTS_FROM(s8, int8_t)
OPBRIDGE_DEFINE_CASTS_FROM(s16, int16_t)
OPBRIDGE_DEFINE_CASTS_FROM(s32, int32_t)
OPBRIDGE_DEFINE_CASTS_FROM(u32, uint32_t)
