/* SPDX-License-Identifier: Apache-2.0 */
/* SVDF kernels: TFLite Micro's reference SVDF bit for bit (see
 * python/opbridge/ops/svdf/reference.py). The activation state
 * ([batch][num_filters][memory_size], flat) is the caller's persistent memory:
 * each call moves it left by one element, writes each filter's newest value
 * and reads it back, so it must keep its contents from one call to the next
 * and be reset (float 0, or every byte set to the state's reset value) before
 * the first. */
#ifndef OPBRIDGE_SVDF_H_
#define OPBRIDGE_SVDF_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fused activations of the float32 kernel (TFLite Micro's: std::fmax and
 * std::fmin, so a NaN sum becomes the bound). */
enum {
  OPBRIDGE_SVDF_ACTIVATION_NONE = 0,
  OPBRIDGE_SVDF_ACTIVATION_RELU = 1,
  OPBRIDGE_SVDF_ACTIVATION_RELU_N1_TO_1 = 2,
  OPBRIDGE_SVDF_ACTIVATION_RELU6 = 3
};

typedef struct {
  int32_t batch;
  int32_t input_size;
  int32_t num_filters; /* rank x num_units */
  int32_t memory_size;
  int32_t rank;
  int32_t activation; /* OPBRIDGE_SVDF_ACTIVATION_* */
} opbridge_svdf_f32_params;

/* float32: every sum is a loop in TFLite Micro's order, each step rounded to
 * float32 (no contraction into fused multiply-adds). bias may be NULL. */
int32_t opbridge_svdf_f32(const opbridge_svdf_f32_params *params, const float *input, const float *weights_feature,
                          const float *weights_time, const float *bias, float *state, float *output);

typedef struct {
  int32_t batch;
  int32_t input_size;
  int32_t num_filters;
  int32_t memory_size;
  int32_t rank;
  int32_t input_offset;      /* -input's zero point */
  int32_t state_zero_point;  /* added to each new state value, subtracted when the state is read */
  int32_t output_zero_point;
  int32_t feature_multiplier; /* input x weights_feature / state scale */
  int32_t feature_shift;
  int32_t output_multiplier; /* state x weights_time / output scale */
  int32_t output_shift;
} opbridge_svdf_s8_params;

/* int8 input, weights_feature and output, int32 bias (may be NULL); int16
 * state and weights_time (_s16) or int8 ones (_s8). Sums are int32, wrapping
 * around as TFLite Micro's on its targets; no fused activation (TFLite Micro's
 * integer SVDF clamps to int8 only). */
int32_t opbridge_svdf_s8_s16(const opbridge_svdf_s8_params *params, const int8_t *input, const int8_t *weights_feature,
                             const int16_t *weights_time, const int32_t *bias, int16_t *state, int8_t *output);
int32_t opbridge_svdf_s8_s8(const opbridge_svdf_s8_params *params, const int8_t *input, const int8_t *weights_feature,
                            const int8_t *weights_time, const int32_t *bias, int8_t *state, int8_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_SVDF_H_ */
