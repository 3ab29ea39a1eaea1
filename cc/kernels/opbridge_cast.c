/* SPDX-License-Identifier: Apache-2.0 */
/* CAST between bool, int8, int16, int32, uint32 and (as a target) float32. */
#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_kernels_int.h"
#include "cc/kernels/opbridge_kernels_internal.h"

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

/* 1 for the integer types: between two of the same width a cast keeps the bits. */
#define OPBRIDGE_INTEGER_b8 0
#define OPBRIDGE_INTEGER_s8 1
#define OPBRIDGE_INTEGER_s16 1
#define OPBRIDGE_INTEGER_s32 1
#define OPBRIDGE_INTEGER_u32 1
#define OPBRIDGE_INTEGER_f32 0

/* Whether a source integer type is signed (what a widening load must extend). */
#define OPBRIDGE_SIGNED_b8 0
#define OPBRIDGE_SIGNED_s8 1
#define OPBRIDGE_SIGNED_s16 1
#define OPBRIDGE_SIGNED_s32 1
#define OPBRIDGE_SIGNED_u32 0

#if OPBRIDGE_KERNELS_HELIUM
/* Between integers of different widths on Helium: sign-extending loads (the sources that widen are signed)
 * or truncating stores (the wrap), a vector of the wider type a step, the tail predicated. 1 if done. */
static int32_t opbridge_cast_integers_helium(int32_t size, const void *input, int32_t from_bytes, void *output,
                                             int32_t to_bytes) {
  int32_t i = 0;
#define OPBRIDGE_CAST_STEPS(LANES, LOAD, LOAD_Z, STORE, STORE_P, FROM_T, TO_T)                     \
  do {                                                                                          \
    const FROM_T *from_ = (const FROM_T *)input;                                                \
    TO_T *to_ = (TO_T *)output;                                                                 \
    for (; i + (LANES) <= size; i += (LANES)) {                                                 \
      STORE(to_ + i, LOAD(from_ + i));                                                          \
    }                                                                                           \
    if (i < size) {                                                                             \
      const mve_pred16_t lanes_ = OPBRIDGE_CAST_VCTP_##LANES((uint32_t)(size - i));              \
      STORE_P(to_ + i, LOAD_Z(from_ + i, lanes_), lanes_);                                      \
    }                                                                                           \
  } while (0)
#define OPBRIDGE_CAST_VCTP_4 vctp32q
#define OPBRIDGE_CAST_VCTP_8 vctp16q
  switch (from_bytes * 10 + to_bytes) {
    case 12: OPBRIDGE_CAST_STEPS(8, vldrbq_s16, vldrbq_z_s16, vst1q_s16, vstrhq_p_s16, int8_t, int16_t); return 1;
    case 14: OPBRIDGE_CAST_STEPS(4, vldrbq_s32, vldrbq_z_s32, vst1q_s32, vstrwq_p_s32, int8_t, int32_t); return 1;
    case 24: OPBRIDGE_CAST_STEPS(4, vldrhq_s32, vldrhq_z_s32, vst1q_s32, vstrwq_p_s32, int16_t, int32_t); return 1;
    case 21: OPBRIDGE_CAST_STEPS(8, vld1q_s16, vld1q_z_s16, vstrbq_s16, vstrbq_p_s16, int16_t, int8_t); return 1;
    case 41: OPBRIDGE_CAST_STEPS(4, vld1q_s32, vld1q_z_s32, vstrbq_s32, vstrbq_p_s32, int32_t, int8_t); return 1;
    case 42: OPBRIDGE_CAST_STEPS(4, vld1q_s32, vld1q_z_s32, vstrhq_s32, vstrhq_p_s32, int32_t, int16_t); return 1;
    default: return 0;
  }
#undef OPBRIDGE_CAST_STEPS
}
#define OPBRIDGE_CAST_INTEGERS_HELIUM(FROM, FROM_T, TO, TO_T)                                          \
  if (OPBRIDGE_INTEGER_##FROM && OPBRIDGE_INTEGER_##TO && (sizeof(FROM_T) < sizeof(TO_T) ? OPBRIDGE_SIGNED_##FROM : 1) && \
      opbridge_cast_integers_helium(size, input, (int32_t)sizeof(FROM_T), output, (int32_t)sizeof(TO_T))) {                \
    return OPBRIDGE_STATUS_OK;                                                                        \
  }
#else
#define OPBRIDGE_CAST_INTEGERS_HELIUM(FROM, FROM_T, TO, TO_T)
#endif

#define OPBRIDGE_DEFINE_CAST(FROM, FROM_T, TO, TO_T)                                                  \
  int32_t opbridge_cast_##FROM##_##TO(int32_t size, const FROM_T *input, TO_T *output) {              \
    if (input == NULL || output == NULL || size < 0) {                                                \
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                        \
    }                                                                                                 \
    if (OPBRIDGE_INTEGER_##FROM && OPBRIDGE_INTEGER_##TO && sizeof(FROM_T) == sizeof(TO_T)) {         \
      /* int32 <-> uint32: two's complement, the same bits (the wrap below is the identity); the     \
       * planner usually runs such a CAST in place, which leaves nothing to do. */                    \
      const size_t bytes_ = (size_t)size * sizeof(TO_T);                                              \
      const uint8_t *from_ = (const uint8_t *)input;                                                  \
      uint8_t *to_ = (uint8_t *)output;                                                               \
      if (to_ + bytes_ <= from_ || from_ + bytes_ <= to_) {                                           \
        opbridge_copy_bytes(to_, from_, bytes_);                                                      \
      } else if (to_ != from_) {                                                                      \
        memmove(to_, from_, bytes_);                                                                  \
      }                                                                                               \
      return OPBRIDGE_STATUS_OK;                                                                      \
    }                                                                                                 \
    OPBRIDGE_CAST_INTEGERS_HELIUM(FROM, FROM_T, TO, TO_T)                                             \
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
