/* SPDX-License-Identifier: Apache-2.0 */
/* BATCH_MATMUL on float32, int8 and int16 (see opbridge_batch_matmul.h). */
#include "cc/kernels/opbridge_batch_matmul.h"

#include <stddef.h>

#include "cc/kernels/opbridge_fixed_point.h"

static int opbridge_batch_matmul_shape_is_valid(const opbridge_batch_matmul_shape *shape) {
  for (int d = 0; d < 3; ++d) {
    if (shape->batches[d] <= 0) {
      return 0;
    }
  }
  return shape->rows > 0 && shape->cols > 0 && shape->depth >= 0;
}

/* The offsets of batch b (flat over the three batch dimensions) in lhs and rhs. */
static void opbridge_batch_matmul_offsets(const opbridge_batch_matmul_shape *shape, int32_t b, int32_t *lhs_offset,
                                          int32_t *rhs_offset) {
  const int32_t b2 = b % shape->batches[2];
  const int32_t b1 = (b / shape->batches[2]) % shape->batches[1];
  const int32_t b0 = b / (shape->batches[2] * shape->batches[1]);
  *lhs_offset = b0 * shape->lhs_batch_strides[0] + b1 * shape->lhs_batch_strides[1] + b2 * shape->lhs_batch_strides[2];
  *rhs_offset = b0 * shape->rhs_batch_strides[0] + b1 * shape->rhs_batch_strides[1] + b2 * shape->rhs_batch_strides[2];
}

int32_t opbridge_batch_matmul_f32(const opbridge_batch_matmul_shape *shape, const float *lhs, const float *rhs,
                                  float *output) {
  if (shape == NULL || lhs == NULL || rhs == NULL || output == NULL || !opbridge_batch_matmul_shape_is_valid(shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t batches = shape->batches[0] * shape->batches[1] * shape->batches[2];
  float *out = output;
  for (int32_t b = 0; b < batches; ++b) {
    int32_t lhs_base;
    int32_t rhs_base;
    opbridge_batch_matmul_offsets(shape, b, &lhs_base, &rhs_base);
    for (int32_t i = 0; i < shape->rows; ++i) {
      const float *row = lhs + lhs_base + i * shape->lhs_row_stride;
      for (int32_t j = 0; j < shape->cols; ++j) {
        const float *col = rhs + rhs_base + j * shape->rhs_col_stride;
        float total = 0.0f;
        for (int32_t k = 0; k < shape->depth; ++k) {
          total += row[k * shape->lhs_depth_stride] * col[k * shape->rhs_depth_stride];
        }
        *out++ = total;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_batch_matmul_s8(const opbridge_batch_matmul_quantized_params *params, const int8_t *lhs,
                                 const int8_t *rhs, int8_t *output) {
  if (params == NULL || lhs == NULL || rhs == NULL || output == NULL ||
      !opbridge_batch_matmul_shape_is_valid(&params->shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_batch_matmul_shape *shape = &params->shape;
  const int32_t batches = shape->batches[0] * shape->batches[1] * shape->batches[2];
  int8_t *out = output;
  for (int32_t b = 0; b < batches; ++b) {
    int32_t lhs_base;
    int32_t rhs_base;
    opbridge_batch_matmul_offsets(shape, b, &lhs_base, &rhs_base);
    for (int32_t i = 0; i < shape->rows; ++i) {
      const int8_t *row = lhs + lhs_base + i * shape->lhs_row_stride;
      for (int32_t j = 0; j < shape->cols; ++j) {
        const int8_t *col = rhs + rhs_base + j * shape->rhs_col_stride;
        int32_t total = 0;
        for (int32_t k = 0; k < shape->depth; ++k) {
          total += ((int32_t)row[k * shape->lhs_depth_stride] + params->lhs_offset) *
                   ((int32_t)col[k * shape->rhs_depth_stride] + params->rhs_offset);
        }
        int32_t scaled =
            opbridge_rescale(total, params->output_multiplier, params->output_shift) + params->output_offset;
        scaled = scaled < -128 ? -128 : scaled;
        scaled = scaled > 127 ? 127 : scaled;
        *out++ = (int8_t)scaled;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_batch_matmul_s16(const opbridge_batch_matmul_quantized_params *params, const int16_t *lhs,
                                  const int16_t *rhs, int16_t *output) {
  if (params == NULL || lhs == NULL || rhs == NULL || output == NULL ||
      !opbridge_batch_matmul_shape_is_valid(&params->shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const opbridge_batch_matmul_shape *shape = &params->shape;
  const int32_t batches = shape->batches[0] * shape->batches[1] * shape->batches[2];
  int16_t *out = output;
  for (int32_t b = 0; b < batches; ++b) {
    int32_t lhs_base;
    int32_t rhs_base;
    opbridge_batch_matmul_offsets(shape, b, &lhs_base, &rhs_base);
    for (int32_t i = 0; i < shape->rows; ++i) {
      const int16_t *row = lhs + lhs_base + i * shape->lhs_row_stride;
      for (int32_t j = 0; j < shape->cols; ++j) {
        const int16_t *col = rhs + rhs_base + j * shape->rhs_col_stride;
        int64_t total = 0;
        for (int32_t k = 0; k < shape->depth; ++k) {
          total += ((int64_t)row[k * shape->lhs_depth_stride] + params->lhs_offset) *
                   ((int64_t)col[k * shape->rhs_depth_stride] + params->rhs_offset);
        }
        int32_t scaled = opbridge_rescale_s64(total, params->output_multiplier, params->output_shift) +
                         params->output_offset;
        scaled = scaled < -32768 ? -32768 : scaled;
        scaled = scaled > 32767 ? 32767 : scaled;
        *out++ = (int16_t)scaled;
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}
