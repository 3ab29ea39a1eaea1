/* SPDX-License-Identifier: Apache-2.0 */
/* int64 ADD, SUB and MUL with 4-D broadcasting: the arithmetic ONNX models carry on int64 values
 * (see python/opbridge/ops/shared/wide_dtypes.py). Results wrap around on overflow, as NumPy's
 * int64 arithmetic does in the reference; there is no fused activation. */
#ifndef OPBRIDGE_ARITHMETIC_S64_H_
#define OPBRIDGE_ARITHMETIC_S64_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernels_int.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t opbridge_add_s64(const opbridge_broadcast_4d *params, const int64_t *input1, const int64_t *input2,
                         int64_t *output);
int32_t opbridge_sub_s64(const opbridge_broadcast_4d *params, const int64_t *input1, const int64_t *input2,
                         int64_t *output);
int32_t opbridge_mul_s64(const opbridge_broadcast_4d *params, const int64_t *input1, const int64_t *input2,
                         int64_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_ARITHMETIC_S64_H_ */
