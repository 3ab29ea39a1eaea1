/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFilterBankLog: fixed-point natural log of filter bank channels, saturated to int16. */
#ifndef OPBRIDGE_SIGNAL_FILTER_BANK_LOG_H_
#define OPBRIDGE_SIGNAL_FILTER_BANK_LOG_H_

#include <stdint.h>

/* Returned when input_correction_bits is 32 or more. */
#define OPBRIDGE_SIGNAL_FILTER_BANK_LOG_BAD_SHIFT ((int32_t)1)

/*
 * output[i] = min(ln(x) * output_scale, 32767) for x = input[i] << input_correction_bits
 * (a uint32 shift), 0 when x <= 1; the scaling product wraps modulo 2^32 as in TFLM.
 * log2_correction holds 129 entries, (log2(1 + k/128) - k/128) * 2^16 for
 * k = 0..128, generated at conversion time. Returns 0, or
 * OPBRIDGE_SIGNAL_FILTER_BANK_LOG_BAD_SHIFT.
 */
int32_t opbridge_signal_filter_bank_log(const uint32_t *input, int32_t count, uint32_t input_correction_bits,
                                        uint32_t output_scale, const uint16_t *log2_correction, int16_t *output);

#endif /* OPBRIDGE_SIGNAL_FILTER_BANK_LOG_H_ */
