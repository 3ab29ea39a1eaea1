/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_filter_bank_spectral_subtraction.h"
#include "opbridge_signal_helium_internal.h"

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
    /* The configuration in locals: the arrays are uint32 like its fields, so each store would
     * otherwise make the compiler read the fields again. */
    const uint32_t smoothing_bits = config->smoothing_bits;
    const uint32_t fraction_bits = config->spectral_subtraction_bits;
    const uint32_t smoothings[2] = {config->smoothing, config->alternate_smoothing};
    const uint32_t one_minus_smoothings[2] = {config->one_minus_smoothing, config->alternate_one_minus_smoothing};
    const uint32_t min_signal_remaining = config->min_signal_remaining;
    const int32_t clamping = config->clamping;
    const int32_t channels = config->num_channels;
    int32_t i;
    if (smoothing_bits > 31 || fraction_bits > 63) {
        return OPBRIDGE_SIGNAL_SPECTRAL_SUBTRACTION_BAD_CONFIG;
    }
    i = 0;
#if OPBRIDGE_KERNELS_HELIUM
    i = opbridge_signal_filter_bank_spectral_subtraction_helium(config, input, output, noise_estimate_state);
#endif
    for (; i < channels; ++i) {
        /* Even channels take the first pair of coefficients, odd ones the alternate pair. */
        const uint32_t smoothing = smoothings[i & 1];
        const uint32_t one_minus_smoothing = one_minus_smoothings[i & 1];
        const uint32_t signal = input[i];
        const uint32_t previous = noise_estimate_state[i];
        /* The estimate keeps smoothing_bits more fraction than the signal;
         * like TFLM, the scaled signal is a uint32 and may wrap. */
        const uint32_t scaled = signal << smoothing_bits;
        /* One-pole low-pass filter; the 64-bit sum wraps as TFLM's does. */
        const uint32_t estimate =
            (uint32_t)(((uint64_t)scaled * smoothing + (uint64_t)previous * one_minus_smoothing) >> fraction_bits);
        /* Never subtract more than the signal, so the difference stays non-negative. */
        const uint32_t subtracted_estimate = estimate < scaled ? estimate : scaled;
        const uint32_t remainder = (scaled - subtracted_estimate) >> smoothing_bits;
        const uint32_t floor = (uint32_t)(((uint64_t)signal * min_signal_remaining) >> fraction_bits);
        noise_estimate_state[i] = clamping ? subtracted_estimate : estimate;
        output[i] = remainder > floor ? remainder : floor;
    }
    /* A copy: the output tensor's memory may be reused between invokes, the state is not. */
    i = 0;
#if OPBRIDGE_KERNELS_HELIUM
    for (; i + 4 <= channels; i += 4) {
        vst1q_u32(noise_estimate_output + i, vld1q_u32(noise_estimate_state + i));
    }
#endif
    for (; i < channels; ++i) {
        noise_estimate_output[i] = noise_estimate_state[i];
    }
    return 0;
}
