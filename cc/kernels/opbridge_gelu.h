/* SPDX-License-Identifier: Apache-2.0 */
/* GELU kernels (python/opbridge/ops/gelu/reference.py is the reference). Each
 * kernel reads element i before it writes element i, so output may be input
 * (the planner runs them in place). */
#ifndef OPBRIDGE_GELU_H_
#define OPBRIDGE_GELU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* int8: output[i] = table[input[i] + 128]. The 256 entries are GELU of every
 * int8 input, requantized at conversion time (LiteRT's lookup table). */
int32_t opbridge_gelu_s8(const int8_t *table, int32_t size, const int8_t *input, int8_t *output);

/* float32: 0.5f * x * erfcf(x * -sqrt(1/2)), or with approximate
 * 0.5f * x * (1 + tanh(u)), u = sqrt(2/pi) * (x + 0.044715f * x * x * x), with
 * 1 + tanh(u) computed as 2.0f / (1.0f + expf(-2.0f * u)); each operation in
 * float32 and in that order. */
int32_t opbridge_gelu_f32(int32_t approximate, int32_t size, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_GELU_H_ */
