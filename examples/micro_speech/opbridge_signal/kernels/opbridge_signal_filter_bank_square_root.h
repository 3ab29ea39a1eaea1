/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFilterBankSquareRoot: filter bank energies to amplitudes. */
#ifndef OPBRIDGE_SIGNAL_FILTER_BANK_SQUARE_ROOT_H_
#define OPBRIDGE_SIGNAL_FILTER_BANK_SQUARE_ROOT_H_

#include <stdint.h>

/* Returned when the scale shift is outside [0, 31]. */
#define OPBRIDGE_SIGNAL_FILTER_BANK_SQUARE_ROOT_BAD_SHIFT ((int32_t)1)

/*
 * output[i] = round(sqrt(input[i])) >> scale_down_bits, rounding as TFLM does:
 * a value below 2^32 yields at most 0xFFFF, a larger one at most 0xFFFFFFFF.
 * scale_down_bits undoes the FFT's auto scaling. Returns 0, or
 * OPBRIDGE_SIGNAL_FILTER_BANK_SQUARE_ROOT_BAD_SHIFT.
 */
int32_t opbridge_signal_filter_bank_square_root(const uint64_t *input, int32_t count, int32_t scale_down_bits,
                                                uint32_t *output);

#endif /* OPBRIDGE_SIGNAL_FILTER_BANK_SQUARE_ROOT_H_ */
