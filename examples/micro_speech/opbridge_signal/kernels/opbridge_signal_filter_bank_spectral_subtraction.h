/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFilterBankSpectralSubtraction: removes a slowly tracked noise floor from filter bank channels. */
#ifndef OPBRIDGE_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_H_
#define OPBRIDGE_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_H_

#include <stdint.h>

/* Returned when a shift count in the configuration is too wide for its operand. */
#define OPBRIDGE_SIGNAL_SPECTRAL_SUBTRACTION_BAD_CONFIG ((int32_t)1)

/* The operator's options; coefficients are fixed point with
 * spectral_subtraction_bits fractional bits. Even channels use smoothing and
 * one_minus_smoothing, odd channels the alternate pair. */
typedef struct {
    int32_t num_channels;
    uint32_t smoothing;
    uint32_t one_minus_smoothing;
    uint32_t alternate_smoothing;
    uint32_t alternate_one_minus_smoothing;
    uint32_t min_signal_remaining;      /* output >= input * this */
    uint32_t smoothing_bits;            /* extra fractional bits of the estimate, < 32 */
    uint32_t spectral_subtraction_bits; /* < 64 */
    int32_t clamping;                   /* nonzero: the estimate never stays above the signal */
} opbridge_signal_spectral_subtraction_config;

/* Zeroes the noise estimate (num_channels uint32 values of persistent state). */
int32_t opbridge_signal_filter_bank_spectral_subtraction_reset(
    const opbridge_signal_spectral_subtraction_config *config, uint32_t *noise_estimate_state);

/*
 * One frame: updates noise_estimate_state from input, writes the noise-reduced
 * channels to output and a copy of the updated estimate to noise_estimate_output.
 * All arrays hold num_channels values. Returns 0, or
 * OPBRIDGE_SIGNAL_SPECTRAL_SUBTRACTION_BAD_CONFIG.
 */
int32_t opbridge_signal_filter_bank_spectral_subtraction(const opbridge_signal_spectral_subtraction_config *config,
                                                         const uint32_t *input, uint32_t *output,
                                                         uint32_t *noise_estimate_output,
                                                         uint32_t *noise_estimate_state);

#endif /* OPBRIDGE_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_H_ */
