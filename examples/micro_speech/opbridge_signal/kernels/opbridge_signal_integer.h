/* SPDX-License-Identifier: Apache-2.0 */
/* Integer helpers the Signal kernels share. C99 leaves >> of negative values
 * and narrowing to int16 implementation-defined; TFLM relies on what its
 * compilers do (arithmetic shift, two's-complement wrap), so these spell it
 * out. Each compiles to one or two instructions. */
#ifndef OPBRIDGE_SIGNAL_INTEGER_H_
#define OPBRIDGE_SIGNAL_INTEGER_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernel_variant.h"

/* The kernels' instruction-set variants are opbridge's own (cc/kernels/opbridge_kernel_variant.h):
 * OPBRIDGE_KERNELS_HELIUM (Cortex-M55), OPBRIDGE_KERNELS_DSP (Cortex-M4), the portable C elsewhere, and
 * OPBRIDGE_FORCE_PORTABLE_KERNELS (--//cc/kernels:portable) selects the portable C here too. */
#if OPBRIDGE_KERNELS_HELIUM
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

/* The number of bits needed to write `value` (0 for 0): one CLZ on Arm (the loop took up to 32 steps
 * for each of PCAN's and the log's 40 channels a frame). */
static inline int32_t opbridge_signal_bit_length32(uint32_t value) {
#if defined(__GNUC__) || defined(__clang__)
  return value == 0 ? 0 : 32 - __builtin_clz(value);
#else
  int32_t bits = 0;
  while (value != 0) {
    value >>= 1;
    ++bits;
  }
  return bits;
#endif
}

#endif /* OPBRIDGE_SIGNAL_INTEGER_H_ */
