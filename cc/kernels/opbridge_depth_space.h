/* SPDX-License-Identifier: Apache-2.0 */
/* DEPTH_TO_SPACE and SPACE_TO_DEPTH on NHWC tensors (TFLite's reference
 * kernels, DCR order; see python/opbridge/ops/depth_to_space/reference.py).
 * Elements are moved, never changed, so one kernel serves every element type
 * (opbridge emits float32 and int8). */
#ifndef OPBRIDGE_DEPTH_SPACE_H_
#define OPBRIDGE_DEPTH_SPACE_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The input's NHWC shape and the block size. */
typedef struct {
  int32_t element_size; /* bytes per element, >= 1 */
  int32_t batch;        /* >= 0 */
  int32_t height;       /* >= 0; SPACE_TO_DEPTH: a multiple of block_size */
  int32_t width;        /* >= 0; SPACE_TO_DEPTH: a multiple of block_size */
  int32_t depth;        /* >= 0; DEPTH_TO_SPACE: a multiple of block_size squared */
  int32_t block_size;   /* >= 1 */
} opbridge_depth_space_params;

/* Output [batch, height * block, width * block, depth / block^2]: output
 * (b, h * block + y, w * block + x, d) is input (b, h, w, (y * block + x) *
 * (depth / block^2) + d). The output must not overlap the input. */
int32_t opbridge_depth_to_space(const opbridge_depth_space_params *params, const void *input, void *output);

/* Output [batch, height / block, width / block, depth * block^2]: output
 * (b, h, w, (y * block + x) * depth + d) is input (b, h * block + y,
 * w * block + x, d). The output must not overlap the input. */
int32_t opbridge_space_to_depth(const opbridge_depth_space_params *params, const void *input, void *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_DEPTH_SPACE_H_ */
