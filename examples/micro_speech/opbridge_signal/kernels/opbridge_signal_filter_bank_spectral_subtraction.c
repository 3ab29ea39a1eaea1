/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_filter_bank_spectral_subtraction.h"

int32_t opbridge_signal_filter_bank_spectral_subtraction_reset(
    const opbridge_signal_spectral_subtraction_config *config, uint32_t *noise_estimate_state) {
    int32_t i;
    for (i = 0; i < config->num_channels; ++i) {
        noise_estimate_state[i] = 0;
    }
    return 0;
}

int32_t opbridge_signal_filter_bank_spectral_subtraction(const opbridge_signal_spectral_subtraction_config *config,
                                                         const uint32_t *input, uint32_t *output,
                                                         uint32_t *noise_estimate_output,
                                                         uint32_t *noise_estimate_state) {
    const uint32_t smoothing_bits = config->smoothing_bits;
    const uint32_t fraction_bits = config->spectral_subtraction_bits;
    int32_t i;
    if (smoothing_bits > 31 || fraction_bits > 63) {
        return OPBRIDGE_SIGNAL_SPECTRAL_SUBTRACTION_BAD_CONFIG;
    }
    for (i = 0; i < config->num_channels; ++i) {
        const int odd = (i & 1) != 0;
        const uint32_t smoothing = odd ? config->alternate_smoothing : config->smoothing;
        const uint32_t one_minus_smoothing = odd ? config->alternate_one_minus_smoothing : config->one_minus_smoothing;
        /* The estimate keeps smoothing_bits more fraction than the signal;
         * like TFLM, the scaled signal is a uint32 and may wrap. */
        const uint32_t scaled = input[i] << smoothing_bits;
        /* One-pole low-pass filter; the 64-bit sum wraps as TFLM's does. */
        const uint32_t estimate = (uint32_t)(((uint64_t)scaled * smoothing +
                                              (uint64_t)noise_estimate_state[i] * one_minus_smoothing) >>
                                             fraction_bits);
        /* Never subtract more than the signal, so the difference stays non-negative. */
        const uint32_t subtracted_estimate = estimate < scaled ? estimate : scaled;
        const uint32_t remainder = (scaled - subtracted_estimate) >> smoothing_bits;
        const uint32_t floor = (uint32_t)(((uint64_t)input[i] * config->min_signal_remaining) >> fraction_bits);
        noise_estimate_state[i] = config->clamping ? subtracted_estimate : estimate;
        output[i] = remainder > floor ? remainder : floor;
    }
    /* A copy: the output tensor's memory may be reused between invokes, the state is not. */
    for (i = 0; i < config->num_channels; ++i) {
        noise_estimate_output[i] = noise_estimate_state[i];
    }
    return 0;
}
