/* SPDX-License-Identifier: Apache-2.0 */
/* BATCH_MATMUL kernels (TFLite Micro's reference semantics bit for bit; see
 * python/opbridge/ops/batch_matmul/reference.py). output[b][i][j] is the sum
 * over k = 0, 1, ... of lhs(b, i, k) * rhs(b, k, j); the operands are read in
 * place through strides (adj_x, adj_y and broadcast batch dimensions need no
 * copy). The output must not overlap the inputs. */
#ifndef OPBRIDGE_BATCH_MATMUL_H_
#define OPBRIDGE_BATCH_MATMUL_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The output is [batches[0], batches[1], batches[2], rows, cols], row-major.
 * lhs(b, i, k) is at sum(b[d] * lhs_batch_strides[d]) + i * lhs_row_stride +
 * k * lhs_depth_stride; rhs(b, k, j) likewise with its strides. A batch stride
 * of 0 broadcasts that operand along the dimension. */
typedef struct {
  int32_t batches[3];
  int32_t lhs_batch_strides[3];
  int32_t rhs_batch_strides[3];
  int32_t rows;  /* M */
  int32_t cols;  /* N */
  int32_t depth; /* K */
  int32_t lhs_row_stride;
  int32_t lhs_depth_stride;
  int32_t rhs_depth_stride;
  int32_t rhs_col_stride;
} opbridge_batch_matmul_shape;

/* float32: total = 0.0f, then total += lhs * rhs in k order, each step rounded
 * to float (compile with -ffp-contract=off). */
int32_t opbridge_batch_matmul_f32(const opbridge_batch_matmul_shape *shape, const float *lhs, const float *rhs,
                                  float *output);

/* int8 and int16: sum of (lhs + lhs_offset) * (rhs + rhs_offset) (int32 for
 * int8, int64 for int16), rescaled by multiplier and shift (TFLite's
 * MultiplyByQuantizedMultiplier; for int16 its 64-bit form), plus
 * output_offset, clamped to the type's range. */
typedef struct {
  opbridge_batch_matmul_shape shape;
  int32_t lhs_offset; /* minus the lhs zero point */
  int32_t rhs_offset; /* minus the rhs zero point */
  int32_t output_offset;
  int32_t output_multiplier;
  int32_t output_shift;
} opbridge_batch_matmul_quantized_params;

int32_t opbridge_batch_matmul_s8(const opbridge_batch_matmul_quantized_params *params, const int8_t *lhs,
                                 const int8_t *rhs, int8_t *output);
int32_t opbridge_batch_matmul_s16(const opbridge_batch_matmul_quantized_params *params, const int16_t *lhs,
                                  const int16_t *rhs, int16_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_BATCH_MATMUL_H_ */
