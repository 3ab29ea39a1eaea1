/* SPDX-License-Identifier: Apache-2.0 */
/* Integer helpers the Signal kernels share. C99 leaves >> of negative values
 * and narrowing to int16 implementation-defined; TFLM relies on what its
 * compilers do (arithmetic shift, two's-complement wrap), so these spell it
 * out. Each compiles to one or two instructions. */
#ifndef OPBRIDGE_SIGNAL_INTEGER_H_
#define OPBRIDGE_SIGNAL_INTEGER_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernel_variant.h"

/* The kernels' Helium (Cortex-M55) paths: opbridge's own variant (cc/kernels/opbridge_kernel_variant.h),
 * so OPBRIDGE_FORCE_PORTABLE_KERNELS (--//cc/kernels:portable) turns them off here too. */
#define OPBRIDGE_SIGNAL_HELIUM OPBRIDGE_KERNELS_HELIUM
#if OPBRIDGE_SIGNAL_HELIUM
#include <arm_mve.h>
#endif

/* floor(value / 2^bits): an arithmetic right shift. */
static inline int32_t opbridge_signal_shift_right(int32_t value, int32_t bits) {
  return value >= 0 ? value >> bits : ~(~value >> bits);
}

/* The low 16 bits as two's complement, as an int16 store does. */
static inline int16_t opbridge_signal_wrap16(int32_t value) {
  int32_t low = (int32_t)((uint32_t)value & 0xFFFFu);
  return (int16_t)(low >= 0x8000 ? low - 0x10000 : low);
}

/* The number of bits needed to write `value` (0 for 0). */
static inline int32_t opbridge_signal_bit_length32(uint32_t value) {
  int32_t bits = 0;
  while (value != 0) {
    value >>= 1;
    ++bits;
  }
  return bits;
}

#endif /* OPBRIDGE_SIGNAL_INTEGER_H_ */
