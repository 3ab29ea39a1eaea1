/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_pcan.h"
#include "opbridge_signal_helium_internal.h"
#include "opbridge_signal_integer.h"

#define SNR_FRACTION_BITS 12
#define OUTPUT_FRACTION_BITS 6

/* The gain for one noise level, widened to uint32 the way TFLM widens its
 * int16 gain (sign extension, so a negative gain becomes a huge one). The
 * noise's octave picks three coefficients; the 10 bits below its leading one
 * are the position inside the octave. All products fit in int32. */
static int gain_for_noise(uint32_t noise, const int16_t *lut, int32_t lut_length, uint32_t *gain) {
    int32_t value;
    if (noise <= 2) {
        if ((int32_t)noise >= lut_length) {
            return 0;
        }
        value = lut[noise];
    } else {
        const int32_t bits = opbridge_signal_bit_length32(noise);
        const int32_t first = 4 * bits - 6;
        int32_t position;
        int32_t slope;
        if (first + 2 >= lut_length) {
            return 0;
        }
        position = (int32_t)((bits < 11 ? noise << (11 - bits) : noise >> (bits - 11)) & 0x3FFu);
        slope = opbridge_signal_shift_right(lut[first + 2] * position, 5) + lut[first + 1] * 32;
        value = opbridge_signal_shift_right(slope * position + (1 << 14), 15) + lut[first];
    }
    /* Keep the low 16 bits as a signed value, then sign-extend modulo 2^32. */
    *gain = (((uint32_t)value & 0xFFFFu) ^ 0x8000u) - 0x8000u;
    return 1;
}

/* x^2 / 4 for x < 2, x - 1 from there on; 12 fractional bits in, 6 out. */
static uint32_t shrink(uint32_t snr) {
    if (snr < (UINT32_C(2) << SNR_FRACTION_BITS)) {
        return (snr * snr) >> (2 + 2 * SNR_FRACTION_BITS - OUTPUT_FRACTION_BITS);
    }
    return (snr >> (SNR_FRACTION_BITS - OUTPUT_FRACTION_BITS)) - (UINT32_C(1) << OUTPUT_FRACTION_BITS);
}

int32_t opbridge_signal_pcan(const uint32_t *input, const uint32_t *noise_estimate, const int16_t *gain_lut,
                             int32_t gain_lut_length, int32_t snr_shift, int32_t num_channels, uint32_t *output) {
    int32_t i;
    if (snr_shift < 0 || snr_shift > 63) {
        return OPBRIDGE_SIGNAL_PCAN_BAD_SHIFT;
    }
    i = 0;
#if OPBRIDGE_KERNELS_HELIUM
    i = opbridge_signal_pcan_helium(input, noise_estimate, gain_lut, gain_lut_length, snr_shift, num_channels, output);
#endif
    for (; i < num_channels; ++i) {
        uint32_t gain;
        uint32_t snr;
        if (!gain_for_noise(noise_estimate[i], gain_lut, gain_lut_length, &gain)) {
            return OPBRIDGE_SIGNAL_PCAN_LUT_TOO_SHORT;
        }
        /* The ratio is kept in 32 bits, as TFLM keeps it. */
        snr = (uint32_t)(((uint64_t)input[i] * gain) >> snr_shift);
        output[i] = shrink(snr);
    }
    return 0;
}
