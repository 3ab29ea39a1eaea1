/* SPDX-License-Identifier: Apache-2.0 */
/* RSQRT kernels (TFLite Micro's reference semantics bit for bit; see
 * python/opbridge/ops/rsqrt/reference.py). Each kernel reads element i before
 * it writes element i, so output may be input (the planner runs them in
 * place). */
#ifndef OPBRIDGE_RSQRT_H_
#define OPBRIDGE_RSQRT_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* float32: output[i] = 1.0f / sqrtf(input[i]), two correctly rounded float32
 * operations (-inf for -0.0, +inf for +0.0, 0 for inf); below 0 the quiet NaN
 * 0x7FC00000 on every platform (what golden programs write for any NaN). */
int32_t opbridge_rsqrt_f32(int32_t size, const float *input, float *output);

/* int8: TFLite Micro's fixed-point RSQRT depends on the stored value alone,
 * so the emitter tabulates it: output[i] = table[input[i] + 128]. A stored
 * input below input_zero_point (a negative real value) stops the kernel with
 * OPBRIDGE_STATUS_INVALID_ARGUMENT, as TFLite Micro fails to invoke. */
typedef struct {
  int32_t size;
  int32_t input_zero_point;
  const int8_t *table; /* 256 outputs, for the stored inputs -128..127 */
} opbridge_rsqrt_s8_params;

int32_t opbridge_rsqrt_s8(const opbridge_rsqrt_s8_params *params, const int8_t *input, int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_RSQRT_H_ */
