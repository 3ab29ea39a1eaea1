/* SPDX-License-Identifier: Apache-2.0 */
/* SQUARED_DIFFERENCE kernels with 4-D broadcasting (strides of 0 along
 * broadcast dimensions), TFLite Micro's reference semantics bit for bit (see
 * python/opbridge/ops/squared_difference/reference.py). Each kernel visits the
 * output in order and reads element i of an input of the output's shape before
 * it writes element i, so output may be such an input (the planner runs them
 * in place). */
#ifndef OPBRIDGE_SQUARED_DIFFERENCE_H_
#define OPBRIDGE_SQUARED_DIFFERENCE_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernels_int.h"
#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* float32: d = input1 - input2, then d * d, two float32 operations (no clamp:
 * inf for overflow, NaN from inf - inf). */
int32_t opbridge_squared_difference_f32(const opbridge_broadcast_4d *params, const float *input1,
                                        const float *input2, float *output);

/* int32 (unquantized): d = input1 - input2, then d * d, both wrapping around
 * modulo 2^32 (two's complement, as TFLite Micro's int32 arithmetic on its
 * hosts and targets). */
int32_t opbridge_squared_difference_s32(const opbridge_broadcast_4d *params, const int32_t *input1,
                                        const int32_t *input2, int32_t *output);

/* int8: each input, centred by its offset and shifted left by left_shift
 * (TFLite Micro: 7), is rescaled by its multiplier (shift <= 0) onto the
 * common scale (twice the larger input scale); the difference of the two is
 * squared in int32, rescaled to the output by output_multiplier and
 * output_shift, offset by output_offset and clamped to [-128, 127].
 * Multipliers in [0, 2^31); left_shift in [0, 7]. */
typedef struct {
  int32_t input1_offset; /* -input 1's zero point */
  int32_t input2_offset; /* -input 2's zero point */
  int32_t output_offset; /* the output's zero point */
  int32_t left_shift;
  int32_t input1_multiplier;
  int32_t input1_shift;
  int32_t input2_multiplier;
  int32_t input2_shift;
  int32_t output_multiplier;
  int32_t output_shift;
  opbridge_broadcast_4d broadcast;
} opbridge_squared_difference_s8_params;

int32_t opbridge_squared_difference_s8(const opbridge_squared_difference_s8_params *params, const int8_t *input1,
                                       const int8_t *input2, int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_SQUARED_DIFFERENCE_H_ */
