/* SPDX-License-Identifier: Apache-2.0 */
/* LOCAL_RESPONSE_NORMALIZATION on float32 along the last axis (see
 * python/opbridge/ops/lrn/reference.py, which rounds as this kernel does). */
#ifndef OPBRIDGE_LOCAL_RESPONSE_NORMALIZATION_F32_H_
#define OPBRIDGE_LOCAL_RESPONSE_NORMALIZATION_F32_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rows x depth values, each row normalized on its own. */
typedef struct {
  int32_t rows;
  int32_t depth;         /* channels, 1 or more */
  int32_t radius_before; /* channels before each channel in its window, 0 or more */
  int32_t radius_after;  /* channels after it, 0 or more */
  float bias;
  float alpha; /* multiplies the window's sum of squares (ONNX's alpha / size) */
  float beta;
} opbridge_local_response_normalization_f32_params;

/* output[c] = input[c] * powf(bias + alpha * sum, -beta), the sum of input[i] * input[i] over
 * i = max(0, c - radius_before) .. min(depth - 1, c + radius_after) in ascending order from 0.0f
 * (compile with -ffp-contract=off). The output must not overlap the input. */
int32_t opbridge_local_response_normalization_f32(const opbridge_local_response_normalization_f32_params *params,
                                                  const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_LOCAL_RESPONSE_NORMALIZATION_F32_H_ */
