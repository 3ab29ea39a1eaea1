/* SPDX-License-Identifier: Apache-2.0 */
/* float32 SUM over constant axes (TFLite Micro's float reference; see
 * python/opbridge/ops/sum/reference.py, which adds in the same order). */
#ifndef OPBRIDGE_SUM_F32_H_
#define OPBRIDGE_SUM_F32_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_SUM_F32_MAX_RANK 6

typedef struct {
  int32_t input_shape[OPBRIDGE_SUM_F32_MAX_RANK]; /* left-padded with 1s; sizes >= 1 */
  int32_t reduce[OPBRIDGE_SUM_F32_MAX_RANK];      /* 1 for each reduced axis, else 0 */
  int32_t output_size;                            /* the product of the kept sizes */
} opbridge_sum_f32_params;

/* Each output is 0.0f plus its inputs, added one at a time in the input's
 * row-major order (one float32 rounding per addition). Accumulates in
 * `output` (no scratch): input and output must not overlap. */
int32_t opbridge_sum_f32(const opbridge_sum_f32_params *params, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_SUM_F32_H_ */
