/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_filter_bank_log.h"
#include "opbridge_signal_helium_internal.h"
#include "opbridge_signal_integer.h"

#define Q16_BITS 16
#define SEGMENT_BITS 7 /* the correction table splits the mantissa into 128 segments */
#define LN2_Q16 UINT32_C(45426) /* round(ln(2) * 2^16) */
#define HALF_Q16 (UINT32_C(1) << (Q16_BITS - 1))

/* log2(value) in Q16 for value >= 2: the position of the leading one is the
 * integer part; the bits below it, as a Q16 fraction f, approximate log2(1 + f)
 * as f plus a linearly interpolated correction. */
static uint32_t log2_q16(uint32_t value, const uint16_t *log2_correction) {
    const uint32_t exponent = opbridge_signal_bit_length32(value) - 1u;
    const uint32_t mantissa = value - (UINT32_C(1) << exponent);
    const uint32_t fraction =
        exponent < Q16_BITS ? mantissa << (Q16_BITS - exponent) : mantissa >> (exponent - Q16_BITS);
    const uint32_t segment = fraction >> (Q16_BITS - SEGMENT_BITS);
    const int32_t offset = (int32_t)(fraction - (segment << (Q16_BITS - SEGMENT_BITS)));
    const int32_t low = log2_correction[segment];
    const int32_t high = log2_correction[segment + 1];
    const int32_t correction = low + opbridge_signal_shift_right((high - low) * offset, Q16_BITS);
    return (exponent << Q16_BITS) + fraction + (uint32_t)correction;
}

int32_t opbridge_signal_filter_bank_log(const uint32_t *input, int32_t count, uint32_t input_correction_bits,
                                        uint32_t output_scale, const uint16_t *log2_correction, int16_t *output) {
    int32_t i;
    if (input_correction_bits > 31) {
        return OPBRIDGE_SIGNAL_FILTER_BANK_LOG_BAD_SHIFT;
    }
    i = 0;
#if OPBRIDGE_KERNELS_HELIUM
    i = opbridge_signal_filter_bank_log_helium(input, count, input_correction_bits, output_scale, log2_correction,
                                               output);
#endif
    for (; i < count; ++i) {
        const uint32_t value = input[i] << input_correction_bits;
        uint32_t log_e;
        uint32_t scaled;
        if (value <= 1) {
            output[i] = 0; /* no log of 0; log(1) is 0 anyway */
            continue;
        }
        log_e = (uint32_t)(((uint64_t)LN2_Q16 * log2_q16(value, log2_correction) + HALF_Q16) >> Q16_BITS);
        /* TFLM scales in 32 bits, so a large output_scale wraps; keep that. */
        scaled = (uint32_t)(output_scale * log_e + HALF_Q16) >> Q16_BITS;
        output[i] = (int16_t)(scaled < UINT32_C(32767) ? scaled : UINT32_C(32767));
    }
    return 0;
}
