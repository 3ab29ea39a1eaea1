/* SPDX-License-Identifier: Apache-2.0 */
/* SignalPCAN: per-channel amplitude normalisation of filter bank channels by their noise estimate. */
#ifndef OPBRIDGE_SIGNAL_PCAN_H_
#define OPBRIDGE_SIGNAL_PCAN_H_

#include <stdint.h>

/* Returned when a noise estimate needs a gain LUT entry past its end. */
#define OPBRIDGE_SIGNAL_PCAN_LUT_TOO_SHORT ((int32_t)1)
/* Returned when snr_shift is outside [0, 63]. */
#define OPBRIDGE_SIGNAL_PCAN_BAD_SHIFT ((int32_t)2)

/*
 * output[i] = shrink((input[i] * gain(noise_estimate[i])) >> snr_shift), where
 * gain() evaluates the piecewise quadratic gain_lut (3 coefficients per octave
 * of the noise, 125 entries cover every uint32) and shrink() maps the 12-bit
 * fraction ratio x to x^2/4 below 2 and x - 1 above, with 6 fractional bits.
 * output may alias input. Returns 0 or one of the codes above.
 */
int32_t opbridge_signal_pcan(const uint32_t *input, const uint32_t *noise_estimate, const int16_t *gain_lut,
                             int32_t gain_lut_length, int32_t snr_shift, int32_t num_channels, uint32_t *output);

#endif /* OPBRIDGE_SIGNAL_PCAN_H_ */
