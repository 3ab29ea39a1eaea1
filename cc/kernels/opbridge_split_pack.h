/* SPDX-License-Identifier: Apache-2.0 */
/* SPLIT, SPLIT_V, UNPACK (one tensor cut into parts along an axis) and PACK
 * (parts joined along a new axis): elements are moved, never changed, so one
 * pair of byte-copy kernels serves every operator and element type (see
 * python/opbridge/ops/split/reference.py). */
#ifndef OPBRIDGE_SPLIT_PACK_H_
#define OPBRIDGE_SPLIT_PACK_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The whole tensor seen as [outer_size, sum of part_sizes, inner_size]; part
 * i is [outer_size, part_sizes[i], inner_size]. UNPACK and PACK have parts of
 * size 1 (their missing axis has size 1 in this view). */
typedef struct {
  int32_t element_size;      /* bytes per element, >= 1 */
  int32_t outer_size;        /* product of the whole tensor's sizes before the axis, >= 0 */
  int32_t inner_size;        /* product of the whole tensor's sizes after the axis, >= 0 */
  int32_t part_count;        /* number of parts, >= 1 */
  const int32_t *part_sizes; /* [part_count]: each part's size along the axis, >= 0 */
} opbridge_split_pack_params;

/* SPLIT, SPLIT_V, UNPACK: parts[i][o][a][n] = whole[o][offset_i + a][n], where
 * offset_i is the sum of the sizes of the parts before i. */
int32_t opbridge_split_pack_split(const opbridge_split_pack_params *params, const void *whole, void *const *parts);

/* PACK: whole[o][offset_i + a][n] = parts[i][o][a][n]. */
int32_t opbridge_split_pack_join(const opbridge_split_pack_params *params, const void *const *parts, void *whole);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_SPLIT_PACK_H_ */
