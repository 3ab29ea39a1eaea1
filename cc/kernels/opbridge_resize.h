/* SPDX-License-Identifier: Apache-2.0 */
/* RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR on NHWC tensors, bit-exact
 * with TFLite Micro's reference kernels (see python/opbridge/ops/
 * resize_nearest_neighbor/reference.py and resize_bilinear/reference.py).
 * Source positions are computed in float32 as TFLite does (nearest
 * neighbor, bilinear float32) or in its 10-bit fixed point (bilinear int8);
 * compile as C99 without fused multiply-adds (-ffp-contract=off). */
#ifndef OPBRIDGE_RESIZE_H_
#define OPBRIDGE_RESIZE_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int32_t element_size;       /* nearest neighbor: bytes per element, >= 1 (bilinear ignores it) */
  int32_t batch;              /* >= 0 */
  int32_t input_height;       /* >= 1 */
  int32_t input_width;        /* >= 1 */
  int32_t depth;              /* >= 0 */
  int32_t output_height;      /* >= 1 */
  int32_t output_width;       /* >= 1 */
  int32_t align_corners;      /* 0 or 1 */
  int32_t half_pixel_centers; /* 0 or 1; bilinear: not with align_corners */
} opbridge_resize_params;

/* Output [batch, output_height, output_width, depth]: each output pixel a
 * copy of the input pixel TFLite's GetNearestNeighbor picks. Any element
 * type. The output must not overlap the input. */
int32_t opbridge_resize_nearest_neighbor(const opbridge_resize_params *params, const void *input, void *output);

/* Bilinear interpolation of the four neighbours in float32, TFLite's
 * operation order (then + 0.0f, which makes -0.0 +0.0). */
int32_t opbridge_resize_bilinear_f32(const opbridge_resize_params *params, const float *input, float *output);

/* Bilinear interpolation of stored int8 values in TFLite's 10-bit fixed
 * point, rounded half away from zero (TFLite's default, not
 * TFLITE_SINGLE_ROUNDING). The output keeps the input's quantization.
 * OPBRIDGE_STATUS_INVALID_ARGUMENT where TFLite would read past the input
 * (a lower source index beyond the last row or column). */
int32_t opbridge_resize_bilinear_s8(const opbridge_resize_params *params, const int8_t *input, int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_RESIZE_H_ */
