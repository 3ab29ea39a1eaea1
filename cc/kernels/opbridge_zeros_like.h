/* SPDX-License-Identifier: Apache-2.0 */
/* ZEROS_LIKE (TFLite Micro's reference semantics): every element of the
 * output is 0 of its type, whatever the input holds. For int8 that is the
 * stored value 0, not the quantized zero point (TFLite Micro writes
 * static_cast<int8_t>(0)); float32 0.0f, int32 0 and int64 0 are all-zero
 * bytes too, so one kernel clears the output's bytes. The input is not read,
 * so output may be input (the planner runs it in place). */
#ifndef OPBRIDGE_ZEROS_LIKE_H_
#define OPBRIDGE_ZEROS_LIKE_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets the `bytes` bytes at output to 0. */
int32_t opbridge_zeros_like(int32_t bytes, void *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_ZEROS_LIKE_H_ */
