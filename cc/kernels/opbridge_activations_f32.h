/* SPDX-License-Identifier: Apache-2.0 */
/* float32 ELU and SOFTPLUS (python/opbridge/ops/elu/reference.py and
 * python/opbridge/ops/softplus/reference.py). Both call libm (expm1f; expf and
 * log1pf), which may round an ulp away from the references' float64 functions
 * rounded once to float32. Each kernel reads element i before it writes
 * element i, so output may be input (the planner runs them in place). */
#ifndef OPBRIDGE_ACTIVATIONS_F32_H_
#define OPBRIDGE_ACTIVATIONS_F32_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ELU's scale below zero (1 for TFLite's ELU, ONNX Elu's alpha). */
typedef struct {
  float alpha;
} opbridge_elu_f32_params_t;

/* output[i] = x < 0 ? alpha * expm1f(x) : x (TFLite Micro's ELU, expm1f rather
 * than expf(x) - 1; NaN and -0.0 pass through, -inf gives -alpha). */
int32_t opbridge_elu_f32(const opbridge_elu_f32_params_t *params, int32_t size, const float *input, float *output);

/* output[i] = x > 0 ? x + log1pf(expf(-x)) : log1pf(expf(x)): log(1 + exp(x))
 * with no overflow (x for large x, +inf for +inf, 0 for -inf, NaN for NaN). */
int32_t opbridge_softplus_f32(int32_t size, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_ACTIVATIONS_F32_H_ */
