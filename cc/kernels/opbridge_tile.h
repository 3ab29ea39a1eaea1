/* SPDX-License-Identifier: Apache-2.0 */
/* TILE: the input repeated multiples[d] times along each axis d (TFLite's
 * TILE; see python/opbridge/ops/tile/reference.py). Elements are moved, never
 * changed, so one kernel serves every element type. */
#ifndef OPBRIDGE_TILE_H_
#define OPBRIDGE_TILE_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_TILE_MAX_RANK 6

/* The emitter drops axes of size 1 that are not repeated, merges an axis that
 * is not repeated into the axis before it, and left-pads with {1, 1}. */
typedef struct {
  int32_t element_size;                          /* bytes per element, >= 1 */
  int32_t input_shape[OPBRIDGE_TILE_MAX_RANK];   /* >= 0 */
  int32_t multiples[OPBRIDGE_TILE_MAX_RANK];     /* >= 0; output_shape[d] = input_shape[d] * multiples[d] */
} opbridge_tile_params;

/* Output element (o0, ..., o5) is input element (o0 % input_shape[0], ...,
 * o5 % input_shape[5]). The input is copied once into the first tile, then
 * each axis, innermost first, is replicated by doubling copies. The output
 * must not overlap the input. */
int32_t opbridge_tile(const opbridge_tile_params *params, const void *input, void *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_TILE_H_ */
