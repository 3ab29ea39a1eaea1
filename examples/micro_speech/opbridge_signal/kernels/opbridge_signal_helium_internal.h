/* SPDX-License-Identifier: Apache-2.0 */
/* The Signal kernels' Helium (Cortex-M55) loops, one file each (opbridge_signal_<op>_helium.c), and
 * what they share. Not part of the kernels' API: each portable kernel calls its loop first when
 * OPBRIDGE_KERNELS_HELIUM (cc/kernels/opbridge_kernel_variant.h) selects the variant, and finishes
 * the channels the loop leaves (a count that is not a multiple of four) in C. */
#ifndef OPBRIDGE_SIGNAL_HELIUM_INTERNAL_H_
#define OPBRIDGE_SIGNAL_HELIUM_INTERNAL_H_

#include <stdint.h>

#include "opbridge_signal_filter_bank_spectral_subtraction.h"
#include "opbridge_signal_integer.h"

#if OPBRIDGE_KERNELS_HELIUM
#include <arm_mve.h>

/* (uint32)(((uint64)high << 32 | low) >> bits) for each lane, 0 <= bits <= 63: the 64-bit shift
 * TFLM's fixed point does after a 32x32->64 product (Helium has no 64-bit lanes to shift). */
static inline uint32x4_t opbridge_signal_helium_narrow_shift(uint32x4_t high, uint32x4_t low, int32_t bits) {
  if (bits == 0) {
    return low;
  }
  if (bits < 32) {
    return vorrq_u32(vshlq_r_u32(low, -bits), vshlq_r_u32(high, 32 - bits));
  }
  return vshlq_r_u32(high, 32 - bits);
}

/* The first count - count % 4 channels of opbridge_signal_filter_bank_log; returns how many. */
int32_t opbridge_signal_filter_bank_log_helium(const uint32_t *input, int32_t count, uint32_t input_correction_bits,
                                               uint32_t output_scale, const uint16_t *log2_correction,
                                               int16_t *output);

/* The first channels of opbridge_signal_pcan, four at a time, when gain_lut covers every octave
 * (PCAN_FULL_LUT entries or more); returns how many (0 with a shorter table). */
int32_t opbridge_signal_pcan_helium(const uint32_t *input, const uint32_t *noise_estimate, const int16_t *gain_lut,
                                    int32_t gain_lut_length, int32_t snr_shift, int32_t num_channels,
                                    uint32_t *output);

/* The first channels of one spectral subtraction frame, four at a time; returns how many. */
int32_t opbridge_signal_filter_bank_spectral_subtraction_helium(
    const opbridge_signal_spectral_subtraction_config *config, const uint32_t *input, uint32_t *output,
    uint32_t *noise_estimate_state);
#endif

#endif /* OPBRIDGE_SIGNAL_HELIUM_INTERNAL_H_ */
