/* SPDX-License-Identifier: Apache-2.0 */
/* float32 LOG_SOFTMAX over the last axis (TFLite Micro's float reference; see
 * python/opbridge/ops/log_softmax/reference.py, which rounds the same way but
 * for libm's expf and logf). */
#ifndef OPBRIDGE_LOG_SOFTMAX_F32_H_
#define OPBRIDGE_LOG_SOFTMAX_F32_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int32_t rows;  /* the product of the leading axes, >= 0 */
  int32_t depth; /* the last axis, >= 1 */
} opbridge_log_softmax_f32_params;

/* Each row: m = its maximum (from -FLT_MAX, m = m < x ? x : m), sum = 0 +
 * expf(x_0 - m) + expf(x_1 - m) + ... in order, output (x_c - m) - logf(sum);
 * one float32 rounding per operation. Input and output may be the same array
 * (each row is read whole before any of it is written). */
int32_t opbridge_log_softmax_f32(const opbridge_log_softmax_f32_params *params, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_LOG_SOFTMAX_F32_H_ */
