/* SPDX-License-Identifier: Apache-2.0 */
/* GATHER: slices of the input picked along one axis by positions (TFLite's
 * GATHER with batch_dims 0; see python/opbridge/ops/gather/reference.py).
 * Elements are moved, never changed, so one kernel serves every element
 * type; the two entry points differ in the positions' type. */
#ifndef OPBRIDGE_GATHER_H_
#define OPBRIDGE_GATHER_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The input seen as [outer_size, axis_size, inner_size] around the gathered
 * axis; the output is [outer_size, position_count, inner_size]. */
typedef struct {
  int32_t element_size;   /* bytes per element, >= 1 */
  int32_t outer_size;     /* product of the input's sizes before the axis, >= 0 */
  int32_t axis_size;      /* the input's size along the axis, >= 0 */
  int32_t inner_size;     /* product of the input's sizes after the axis, >= 0 */
  int32_t position_count; /* elements of the positions tensor, >= 0 */
} opbridge_gather_params;

/* output[o][p][i] = input[o][positions[p]][i]. Every position must be in
 * [0, axis_size): otherwise nothing is written and the kernel returns
 * OPBRIDGE_STATUS_INVALID_ARGUMENT, as TFLite Micro's GATHER fails to invoke
 * (negative positions included: TFLite does not wrap them). */
int32_t opbridge_gather_s32_positions(const opbridge_gather_params *params, const void *input,
                                      const int32_t *positions, void *output);
int32_t opbridge_gather_s64_positions(const opbridge_gather_params *params, const void *input,
                                      const int64_t *positions, void *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_GATHER_H_ */
