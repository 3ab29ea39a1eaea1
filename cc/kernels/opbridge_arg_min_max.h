/* SPDX-License-Identifier: Apache-2.0 */
/* ARG_MAX and ARG_MIN along one axis, float32 and int8 inputs, int32 or int64
 * indices (TFLite Micro's reference ArgMinMax, bit for bit; see
 * python/opbridge/ops/arg_max/reference.py, which makes the same comparisons
 * in the same order). */
#ifndef OPBRIDGE_ARG_MIN_MAX_H_
#define OPBRIDGE_ARG_MIN_MAX_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The input seen as [outer_size, axis_size, inner_size], the output as
 * [outer_size, inner_size]. */
typedef struct {
  int32_t outer_size;      /* the product of the sizes before the axis, >= 0 */
  int32_t axis_size;       /* the size of the axis, >= 1 */
  int32_t inner_size;      /* the product of the sizes after the axis, >= 0 */
  int32_t output_is_int64; /* 1: the output is int64_t, 0: int32_t */
} opbridge_arg_min_max_params;

/* Each output is the index along the axis of the first element that wins:
 * element 0 is taken first, and element i replaces the current one only when
 * `candidate > current` (ARG_MAX) or `candidate < current` (ARG_MIN), so ties
 * keep the first index (0.0 and -0.0 tie). float32: both are false with a NaN
 * on either side, so a NaN candidate never replaces and a NaN at index 0 is
 * never replaced (the output is 0). `output` points to int32_t or int64_t
 * values as params->output_is_int64 says. The kernel must be built without
 * -ffast-math (NaN comparisons). */
int32_t opbridge_arg_max_f32(const opbridge_arg_min_max_params *params, const float *input, void *output);
int32_t opbridge_arg_min_f32(const opbridge_arg_min_max_params *params, const float *input, void *output);
/* int8: the stored values are compared (the scale is positive, so the order
 * is the real values' order). */
int32_t opbridge_arg_max_s8(const opbridge_arg_min_max_params *params, const int8_t *input, void *output);
int32_t opbridge_arg_min_s8(const opbridge_arg_min_max_params *params, const int8_t *input, void *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_ARG_MIN_MAX_H_ */
