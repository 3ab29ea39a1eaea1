/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_filter_bank.h"
#include "opbridge_signal_integer.h"

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
                         int32_t weight_start, int32_t width, int32_t vector) {
    uint64_t sum = 0;
    int32_t k = 0;
#if OPBRIDGE_KERNELS_HELIUM
    /* Non-negative weights (checked by the caller) widen to uint32 alike, whether sign- or
     * zero-extended, and the 64-bit sum of at most 2^16 products below 2^47 cannot wrap:
     * VMLALDAVA.U32 four products at a time, the last ones predicated. */
    for (; vector && k < width; k += 4) {
        const mve_pred16_t lanes = vctp32q((uint32_t)(width - k));
        const uint32x4_t weights = vldrhq_z_u32((const uint16_t *)table + weight_start + k, lanes);
        const uint32x4_t energy = vldrwq_z_u32(spectrum + frequency_start + k, lanes);
        sum = vmlaldavaq_u32(sum, weights, energy);
    }
#else
    (void)vector;
#endif
    for (; k < width; ++k) {
        sum += (uint64_t)table[weight_start + k] * (uint64_t)spectrum[frequency_start + k];
    }
    return sum;
}

#if OPBRIDGE_KERNELS_HELIUM
/* Whether any of the table's weights is negative (then the bands are summed in the scalar loop). */
static int32_t has_negative(const int16_t *table, int32_t length) {
    int16x8_t smallest = vdupq_n_s16(0);
    int32_t i = 0;
    for (; i + 8 <= length; i += 8) {
        smallest = vminq_s16(smallest, vld1q_s16(table + i));
    }
    int32_t low = vminvq_s16(0, smallest);
    for (; i < length; ++i) {
        low = table[i] < low ? table[i] : low;
    }
    return low < 0;
}
#endif

int32_t opbridge_signal_filter_bank(const uint32_t *spectrum, int32_t spectrum_length, const int16_t *weights,
                                    int32_t weights_length, const int16_t *unweights, int32_t unweights_length,
                                    const int16_t *channel_frequency_starts, const int16_t *channel_weight_starts,
                                    const int16_t *channel_widths, int32_t num_channels, uint64_t *output) {
    int32_t channel;
    int32_t vector = 0;
#if OPBRIDGE_KERNELS_HELIUM
    vector = !has_negative(weights, weights_length) && !has_negative(unweights, unweights_length);
#endif
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
                                   channel_widths[rising], vector) +
                          band_sum(spectrum, unweights, channel_frequency_starts[falling],
                                   channel_weight_starts[falling], channel_widths[falling], vector);
    }
    return 0;
}

int32_t opbridge_signal_filter_bank_merged(const uint32_t *spectrum, const uint16_t *starts, const uint16_t *widths,
                                           const uint16_t *weights, int32_t num_channels, uint64_t *output) {
    int32_t channel;
    for (channel = 0; channel < num_channels; ++channel) {
        const uint32_t *const bins = spectrum + starts[channel];
        const int32_t width = widths[channel];
        /* Products below 2^48, at most 2^16 of them: the sum cannot wrap, as TFLM's need not either. */
        uint64_t sum = 0;
        int32_t k = 0;
#if OPBRIDGE_KERNELS_HELIUM
        /* Four bins a step in a tail-predicated loop (DLSTP/LETP: the last step's missing lanes are left
         * out): a widening load of the weights, a load of the bins, one VMLALDAVA.U32 into the 64-bit sum.
         * In assembly: GCC 12 writes the predicate of each step through a core register (about twice the
         * instructions). The widening load takes a low register ("l"). */
        if (width > 0) {
            /* VMLALDAVA's sum is an even and the next odd register. */
            register uint32_t low __asm__("r4") = 0;
            register uint32_t high __asm__("r5") = 0;
            const uint16_t *weight = weights;
            const uint32_t *bin = bins;
            __asm__ volatile("   dlstp.32 lr, %[count]\n"
                             "1: vldrh.u32 q0, [%[weight]], #8\n"
                             "   vldrw.u32 q1, [%[bin]], #16\n"
                             "   vmlaldava.u32 %[low], %[high], q0, q1\n"
                             "   letp     lr, 1b\n"
                             : [low] "+r"(low), [high] "+r"(high), [weight] "+l"(weight), [bin] "+r"(bin)
                             : [count] "r"(width)
                             : "q0", "q1", "lr", "memory");
            sum = (uint64_t)high << 32 | low;
            k = width;
        }
#endif
        for (; k < width; ++k) {
            sum += (uint64_t)weights[k] * bins[k]; /* one UMLAL on Arm */
        }
        output[channel] = sum;
        weights += width;
    }
    return 0;
}
