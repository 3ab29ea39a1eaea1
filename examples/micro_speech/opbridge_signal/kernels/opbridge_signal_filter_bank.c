/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_filter_bank.h"

/* Whether [start, start + width) lies inside [0, length); an empty band reads nothing. */
static int band_fits(int32_t start, int32_t width, int32_t length) {
    if (width <= 0) {
        return 1;
    }
    return start >= 0 && start <= length && width <= length - start;
}

/* One band's dot product. The int16 weight converts to uint64 by sign
 * extension and the sum wraps modulo 2^64, exactly as TFLM accumulates. */
static uint64_t band_sum(const uint32_t *spectrum, const int16_t *table, int32_t frequency_start,
                         int32_t weight_start, int32_t width) {
    uint64_t sum = 0;
    int32_t k;
    for (k = 0; k < width; ++k) {
        sum += (uint64_t)table[weight_start + k] * (uint64_t)spectrum[frequency_start + k];
    }
    return sum;
}

int32_t opbridge_signal_filter_bank(const uint32_t *spectrum, int32_t spectrum_length, const int16_t *weights,
                                    int32_t weights_length, const int16_t *unweights, int32_t unweights_length,
                                    const int16_t *channel_frequency_starts, const int16_t *channel_weight_starts,
                                    const int16_t *channel_widths, int32_t num_channels, uint64_t *output) {
    int32_t channel;
    for (channel = 0; channel < num_channels; ++channel) {
        /* The rising edge comes from the next band, the falling edge from this one. */
        const int32_t rising = channel + 1;
        const int32_t falling = channel;
        if (!band_fits(channel_frequency_starts[rising], channel_widths[rising], spectrum_length) ||
            !band_fits(channel_weight_starts[rising], channel_widths[rising], weights_length) ||
            !band_fits(channel_frequency_starts[falling], channel_widths[falling], spectrum_length) ||
            !band_fits(channel_weight_starts[falling], channel_widths[falling], unweights_length)) {
            return OPBRIDGE_SIGNAL_FILTER_BANK_BAD_BAND;
        }
        output[channel] = band_sum(spectrum, weights, channel_frequency_starts[rising], channel_weight_starts[rising],
                                   channel_widths[rising]) +
                          band_sum(spectrum, unweights, channel_frequency_starts[falling],
                                   channel_weight_starts[falling], channel_widths[falling]);
    }
    return 0;
}
