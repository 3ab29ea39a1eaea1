/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_filter_bank_square_root.h"

/* floor(sqrt(value)) for value < 2^32, built one result bit at a time from the
 * top: keep a bit when its square still fits. 32-bit multiplies only, since
 * filter bank energies mostly stay below 2^32. */
static uint32_t floor_sqrt32(uint32_t value) {
#if defined(__ARM_FP) && (__ARM_FP & 4) && defined(__thumb2__)
    /* A core with a single-precision FPU (Cortex-M4, M55): VSQRT of the value as a float gives
     * the root within 1 (float keeps 24 bits; the root has at most 16), and the integer steps
     * below make it exact whatever the estimate: about 12 instructions instead of the bit
     * loop's 90. */
    float estimate = (float)value;
    __asm__("vsqrt.f32 %0, %0" : "+t"(estimate));
    uint32_t root = (uint32_t)estimate;
    root = root > UINT32_C(0xFFFF) ? UINT32_C(0xFFFF) : root;
    while (root * root > value) {
        --root;
    }
    while (root < UINT32_C(0xFFFF) && (root + 1u) * (root + 1u) <= value) {
        ++root;
    }
    return root;
#else
    uint32_t root = 0;
    uint32_t bit = UINT32_C(1) << 15;
    while (bit != 0) {
        const uint32_t candidate = root | bit;
        if (candidate * candidate <= value) {
            root = candidate;
        }
        bit >>= 1;
    }
    return root;
#endif
}

/* floor(sqrt(value)) for any 64-bit value; each square is one 32x32->64 multiply. */
static uint32_t floor_sqrt64(uint64_t value) {
    uint32_t root = 0;
    uint32_t bit = UINT32_C(1) << 31;
    while (bit != 0) {
        const uint32_t candidate = root | bit;
        if ((uint64_t)candidate * candidate <= value) {
            root = candidate;
        }
        bit >>= 1;
    }
    return root;
}

/* Round to nearest: value - root^2 > root means value lies above (root + 1/2)^2.
 * TFLM does not round past the result's width: 0xFFFF on its 32-bit path
 * (values below 2^32), 0xFFFFFFFF on its 64-bit path. */
static uint32_t rounded_sqrt(uint64_t value) {
    if ((value >> 32) == 0) {
        const uint32_t narrow = (uint32_t)value;
        const uint32_t root = floor_sqrt32(narrow);
        return (narrow - root * root > root && root != UINT32_C(0xFFFF)) ? root + 1u : root;
    } else {
        const uint32_t root = floor_sqrt64(value);
        const uint64_t remainder = value - (uint64_t)root * root;
        return (remainder > root && root != UINT32_C(0xFFFFFFFF)) ? root + 1u : root;
    }
}

int32_t opbridge_signal_filter_bank_square_root(const uint64_t *input, int32_t count, int32_t scale_down_bits,
                                                uint32_t *output) {
    int32_t i;
    /* The shift comes from a tensor at run time; outside [0, 31] C (and TFLM) is undefined. */
    if (scale_down_bits < 0 || scale_down_bits > 31) {
        return OPBRIDGE_SIGNAL_FILTER_BANK_SQUARE_ROOT_BAD_SHIFT;
    }
    for (i = 0; i < count; ++i) {
        output[i] = rounded_sqrt(input[i]) >> scale_down_bits;
    }
    return 0;
}
