/* SPDX-License-Identifier: Apache-2.0 */
/* QUANTIZE between integer types (int8, int16, int32, uint8), every pair TFLite Micro's QUANTIZE runs
 * but int8 -> int8 (opbridge_kernels_s8.h's requantize, shared with other ops): int8 <-> int16,
 * int16 -> int16, to and from int32, and between int8 and uint8, as TFLite Micro's Requantize, bit for
 * bit (python/opbridge/ops/quantize/reference.py):
 *
 *   output = clamp(rescale(input + input_offset) + output_offset, activation_min, activation_max)
 *
 * rescale is TFLite's MultiplyByQuantizedMultiplier (multiplier in Q0.31, shift <= 31; positive:
 * left); the two sums wrap in int32 as TFLite's int32 arithmetic does; the bounds are those of
 * the output type. The input and output may be the same buffer when of the same element width.
 * float32 -> int8 / int16 and DEQUANTIZE are in opbridge_kernels_s8.h and opbridge_kernels_s16.h. */
#ifndef OPBRIDGE_QUANTIZE_H_
#define OPBRIDGE_QUANTIZE_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernels_s8.h"
#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t opbridge_requantize_s8_s16(const opbridge_requantize_s8_params *params, const int8_t *input,
                                   int16_t *output);
int32_t opbridge_requantize_s16_s8(const opbridge_requantize_s8_params *params, const int16_t *input,
                                   int8_t *output);
int32_t opbridge_requantize_s16_s16(const opbridge_requantize_s8_params *params, const int16_t *input,
                                    int16_t *output);
int32_t opbridge_requantize_s8_s32(const opbridge_requantize_s8_params *params, const int8_t *input,
                                   int32_t *output);
int32_t opbridge_requantize_s16_s32(const opbridge_requantize_s8_params *params, const int16_t *input,
                                    int32_t *output);
int32_t opbridge_requantize_s32_s8(const opbridge_requantize_s8_params *params, const int32_t *input,
                                   int8_t *output);
int32_t opbridge_requantize_s32_s16(const opbridge_requantize_s8_params *params, const int32_t *input,
                                    int16_t *output);
int32_t opbridge_requantize_s8_u8(const opbridge_requantize_s8_params *params, const int8_t *input,
                                  uint8_t *output);
int32_t opbridge_requantize_u8_s8(const opbridge_requantize_s8_params *params, const uint8_t *input,
                                  int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_QUANTIZE_H_ */
