/* SPDX-License-Identifier: Apache-2.0 */
/* L2_NORMALIZATION kernels along the last axis (TFLite Micro's reference
 * semantics bit for bit; see python/opbridge/ops/l2_normalization/reference.py). */
#ifndef OPBRIDGE_L2_NORMALIZATION_H_
#define OPBRIDGE_L2_NORMALIZATION_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rows x depth values, each row normalized on its own. */
typedef struct {
  int32_t rows;
  int32_t depth;
  int32_t input_zero_point; /* int8 only */
} opbridge_l2_normalization_params;

/* float32: x / max(sqrtf(sum of x * x in order), 1e-6f) (compile with -ffp-contract=off). */
int32_t opbridge_l2_normalization_f32(const opbridge_l2_normalization_params *params, const float *input,
                                      float *output);

/* int8: TFLite's fixed-point inverse square root of the row's sum of squared
 * centred values; outputs in units of 1/128 (zero point 0). */
int32_t opbridge_l2_normalization_s8(const opbridge_l2_normalization_params *params, const int8_t *input,
                                     int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_L2_NORMALIZATION_H_ */
