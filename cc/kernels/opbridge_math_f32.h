/* SPDX-License-Identifier: Apache-2.0 */
/* float32 element-wise math of NEG, EXP, LOG, SQRT and ABS (TFLite Micro's
 * float kernels: -x, expf, logf, sqrtf, fabsf). NEG, ABS and SQRT are exact,
 * so they equal python/opbridge/ops/<op>/reference.py bit for bit; EXP and
 * LOG call libm, which may round an ulp away from the reference's float64
 * exp and log rounded once to float32. LOG and SQRT of a value below 0 (and
 * LOG of -inf) give the quiet NaN 0x7FC00000 on every platform: what ARM's
 * FPUs (so TFLite Micro on Cortex-M) make and what golden programs write for
 * any NaN (__builtin_nanf("")), where x86 would make 0xFFC00000. Each kernel
 * reads element i before it writes element i, so output may be input (the
 * planner runs them in place). */
#ifndef OPBRIDGE_MATH_F32_H_
#define OPBRIDGE_MATH_F32_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* output[i] = -input[i] (flips the sign bit: -0.0 for 0.0, NaN keeps its payload). */
int32_t opbridge_neg_f32(int32_t size, const float *input, float *output);
/* output[i] = expf(input[i]) (0 for -inf, inf on overflow). */
int32_t opbridge_exp_f32(int32_t size, const float *input, float *output);
/* output[i] = logf(input[i]) (-inf for +-0; below 0 and -inf: the NaN 0x7FC00000). */
int32_t opbridge_log_f32(int32_t size, const float *input, float *output);
/* output[i] = sqrtf(input[i]) (-0.0 for -0.0; below 0: the NaN 0x7FC00000). */
int32_t opbridge_sqrt_f32(int32_t size, const float *input, float *output);
/* output[i] = fabsf(input[i]) (clears the sign bit: 0.0 for -0.0). */
int32_t opbridge_abs_f32(int32_t size, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_MATH_F32_H_ */
