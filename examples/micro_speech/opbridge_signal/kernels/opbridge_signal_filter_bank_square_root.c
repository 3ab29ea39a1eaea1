/* SPDX-License-Identifier: Apache-2.0 */
#include "opbridge_signal_filter_bank_square_root.h"
#include "opbridge_signal_integer.h"

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

/* floor(sqrt(value)) for any 64-bit value. With h = half the bits above the top 32 (rounded up), the
 * root's bits above h are floor(sqrt(value >> 2h)) (the floor of a square root of a floor is the
 * floor of the square root), a 32-bit root; the h bits below are found one at a time from the top,
 * each square one 32x32->64 multiply. Filter bank energies rarely pass 2^40: a few steps, not 32.
 * With a double-precision FPU, VSQRT.F64 instead. */
static uint32_t floor_sqrt64(uint64_t value) {
#if defined(__ARM_FP) && (__ARM_FP & 8) && defined(__thumb2__)
    /* A core with a double-precision FPU (the Cortex-M55): the value as a double (both halves convert
     * exactly; their sum rounds to 53 bits) and VSQRT.F64 give the root within 2^-20, and the integer
     * steps below make it exact whatever the estimate. */
    double estimate = (double)(uint32_t)(value >> 32) * 4294967296.0 + (double)(uint32_t)value;
    __asm__("vsqrt.f64 %P0, %P0" : "+w"(estimate));
    uint32_t root = estimate >= 4294967295.0 ? UINT32_C(0xFFFFFFFF) : (uint32_t)estimate;
    while ((uint64_t)root * root > value) {
        --root;
    }
    while (root < UINT32_C(0xFFFFFFFF) && (uint64_t)(root + 1u) * (root + 1u) <= value) {
        ++root;
    }
    return root;
#else
    const uint32_t high = (uint32_t)(value >> 32);
    const int32_t half = high == 0 ? 0 : (opbridge_signal_bit_length32(high) + 1) / 2;
    uint32_t root = floor_sqrt32((uint32_t)(value >> (2 * half))) << half;
    uint32_t bit = half == 0 ? 0 : UINT32_C(1) << (half - 1);
    while (bit != 0) {
        const uint32_t candidate = root | bit;
        if ((uint64_t)candidate * candidate <= value) {
            root = candidate;
        }
        bit >>= 1;
    }
    return root;
#endif
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
