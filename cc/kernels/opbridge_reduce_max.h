/* SPDX-License-Identifier: Apache-2.0 */
/* REDUCE_MAX over constant axes, float32 and int8 (TFLite Micro's reference,
 * bit for bit; see python/opbridge/ops/reduce_max/reference.py, which visits
 * the input in the same order with the same comparison). */
#ifndef OPBRIDGE_REDUCE_MAX_H_
#define OPBRIDGE_REDUCE_MAX_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_REDUCE_MAX_MAX_RANK 6

typedef struct {
  int32_t input_shape[OPBRIDGE_REDUCE_MAX_MAX_RANK]; /* left-padded with 1s; sizes >= 1 */
  int32_t reduce[OPBRIDGE_REDUCE_MAX_MAX_RANK];      /* 1 for each reduced axis, else 0 */
  int32_t output_size;                               /* the product of the kept sizes */
} opbridge_reduce_max_params;

/* Each output starts at -FLT_MAX and takes each of its inputs, in the
 * input's row-major order, only when `in > current`: NaN and -inf never
 * replace -FLT_MAX, and of equal values (0.0 and -0.0) the first stays.
 * Works in `output` (no scratch): input and output must not overlap. */
int32_t opbridge_reduce_max_f32(const opbridge_reduce_max_params *params, const float *input, float *output);

/* int8: the same over the stored values, from -128 (input and output
 * quantization are equal, so no rescale). */
int32_t opbridge_reduce_max_s8(const opbridge_reduce_max_params *params, const int8_t *input, int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_REDUCE_MAX_H_ */
