/* SPDX-License-Identifier: Apache-2.0 */
/* FLOOR on float32 (TFLite Micro's reference Floor: std::floor per element).
 * floorf is exact, so the kernel equals python/opbridge/ops/floor/reference.py
 * bit for bit: -0.0 stays -0.0, infinities stay, a NaN stays a NaN. Element i
 * is read before it is written, so output may be input (the planner runs it
 * in place). */
#ifndef OPBRIDGE_FLOOR_H_
#define OPBRIDGE_FLOOR_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* output[i] = floorf(input[i]). */
int32_t opbridge_floor_f32(int32_t size, const float *input, float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_FLOOR_H_ */
