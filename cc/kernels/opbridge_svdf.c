/* SPDX-License-Identifier: Apache-2.0 */
/* SVDF (see opbridge_svdf.h). Per call: the state moves left by one element
 * (each filter drops its oldest value; a filter's first value moves into its
 * neighbour's last slot, which is overwritten next), each filter's dot product
 * with the input becomes its newest value, and each output unit is its bias
 * plus, filter after filter, the filter's memory dotted with its time
 * weights. */
#include "cc/kernels/opbridge_svdf.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cc/kernels/opbridge_dot_s8_internal.h"
#include "cc/kernels/opbridge_fixed_point.h"

static int opbridge_svdf_shape_valid(int32_t batch, int32_t input_size, int32_t filters, int32_t memory, int32_t rank) {
  return batch > 0 && input_size > 0 && filters > 0 && memory > 0 && rank > 0 && filters % rank == 0;
}

static float opbridge_svdf_activate(float value, int32_t activation) {
  switch (activation) {
    case OPBRIDGE_SVDF_ACTIVATION_RELU:
      return fmaxf(0.0f, value);
    case OPBRIDGE_SVDF_ACTIVATION_RELU_N1_TO_1:
      return fmaxf(-1.0f, fminf(value, 1.0f));
    case OPBRIDGE_SVDF_ACTIVATION_RELU6:
      return fmaxf(0.0f, fminf(value, 6.0f));
    default:
      return value;
  }
}

int32_t opbridge_svdf_f32(const opbridge_svdf_f32_params *params, const float *input, const float *weights_feature,
                          const float *weights_time, const float *bias, float *state, float *output) {
  if (params == NULL || input == NULL || weights_feature == NULL || weights_time == NULL || state == NULL ||
      output == NULL ||
      !opbridge_svdf_shape_valid(params->batch, params->input_size, params->num_filters, params->memory_size,
                                 params->rank) ||
      params->activation < OPBRIDGE_SVDF_ACTIVATION_NONE || params->activation > OPBRIDGE_SVDF_ACTIVATION_RELU6) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t batch = params->batch, input_size = params->input_size, filters = params->num_filters;
  const int32_t memory = params->memory_size, rank = params->rank, units = filters / rank;
  const size_t state_count = (size_t)batch * (size_t)filters * (size_t)memory;
  memmove(state, state + 1, (state_count - 1u) * sizeof(float));
  for (int32_t b = 0; b < batch; ++b) {
    const float *x = input + (size_t)b * (size_t)input_size;
    float *memories = state + (size_t)b * (size_t)filters * (size_t)memory;
    for (int32_t f = 0; f < filters; ++f) {
      const float *w = weights_feature + (size_t)f * (size_t)input_size;
      float dot = 0.0f;
      for (int32_t k = 0; k < input_size; ++k) {
        dot += w[k] * x[k];
      }
      memories[(size_t)f * (size_t)memory + (size_t)(memory - 1)] = dot;
    }
    for (int32_t u = 0; u < units; ++u) {
      float sum = bias != NULL ? bias[u] : 0.0f;
      for (int32_t r = 0; r < rank; ++r) {
        const int32_t f = u * rank + r;
        const float *m = memories + (size_t)f * (size_t)memory;
        const float *t = weights_time + (size_t)f * (size_t)memory;
        float filter_sum = 0.0f;
        for (int32_t j = 0; j < memory; ++j) {
          filter_sum += t[j] * m[j];
        }
        sum += filter_sum;
      }
      output[(size_t)b * (size_t)units + (size_t)u] = opbridge_svdf_activate(sum, params->activation);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

static int opbridge_svdf_s8_params_valid(const opbridge_svdf_s8_params *params) {
  return opbridge_svdf_shape_valid(params->batch, params->input_size, params->num_filters, params->memory_size,
                                   params->rank) &&
         params->feature_multiplier >= 0 && params->output_multiplier >= 0 && params->feature_shift >= -31 &&
         params->feature_shift <= 30 && params->output_shift >= -31 && params->output_shift <= 30;
}

static int8_t opbridge_svdf_clamp_s8(int32_t value) {
  return (int8_t)(value < -128 ? -128 : value > 127 ? 127 : value);
}

/* sum((m - zero_point) * t) over int8 memory and time weights. */
static inline int32_t opbridge_svdf_time_dot_s8(const int8_t *m, int32_t zero_point, const int8_t *t, int32_t depth) {
  return opbridge_dot_s8_offsets(m, -zero_point, t, 0, depth);
}

/* The integer kernel for one state type: STATE_T and its range. Unsigned sums wrap without undefined
 * behaviour; the conversions back are two's complement on every compiler we use. */
#define OPBRIDGE_SVDF_INTEGER_BODY(STATE_T, STATE_MIN, STATE_MAX, TIME_DOT)                                            \
  if (params == NULL || input == NULL || weights_feature == NULL || weights_time == NULL || state == NULL ||        \
      output == NULL || !opbridge_svdf_s8_params_valid(params)) {                                                  \
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;                                                                       \
  }                                                                                                                \
  const int32_t batch = params->batch, input_size = params->input_size, filters = params->num_filters;             \
  const int32_t memory = params->memory_size, rank = params->rank, units = filters / rank;                         \
  const size_t state_count = (size_t)batch * (size_t)filters * (size_t)memory;                                     \
  memmove(state, state + 1, (state_count - 1u) * sizeof(STATE_T));                                                \
  for (int32_t b = 0; b < batch; ++b) {                                                                            \
    const int8_t *x = input + (size_t)b * (size_t)input_size;                                                      \
    STATE_T *memories = state + (size_t)b * (size_t)filters * (size_t)memory;                                      \
    for (int32_t f = 0; f < filters; ++f) {                                                                        \
      const int8_t *w = weights_feature + (size_t)f * (size_t)input_size;                                          \
      const int32_t dot = opbridge_dot_s8_offsets(x, params->input_offset, w, 0, input_size);                     \
      int32_t value = opbridge_multiply_by_quantized_multiplier(dot, params->feature_multiplier,                   \
                                                                params->feature_shift);                            \
      value = value < (STATE_MIN) ? (STATE_MIN) : value > (STATE_MAX) ? (STATE_MAX) : value;                       \
      /* The zero point after the clamp, narrowed with wrap-around: the pinned TFLite Micro's order. */            \
      memories[(size_t)f * (size_t)memory + (size_t)(memory - 1)] =                                                \
          (STATE_T)(uint32_t)((uint32_t)value + (uint32_t)params->state_zero_point);                               \
    }                                                                                                              \
    for (int32_t u = 0; u < units; ++u) {                                                                          \
      uint32_t sum = bias != NULL ? (uint32_t)bias[u] : 0u;                                                        \
      for (int32_t r = 0; r < rank; ++r) {                                                                         \
        const int32_t f = u * rank + r;                                                                            \
        const STATE_T *m = memories + (size_t)f * (size_t)memory;                                                  \
        const STATE_T *t = weights_time + (size_t)f * (size_t)memory;                                              \
        sum += (uint32_t)TIME_DOT(m, params->state_zero_point, t, memory);                                         \
      }                                                                                                            \
      const int32_t scaled =                                                                                       \
          opbridge_multiply_by_quantized_multiplier((int32_t)sum, params->output_multiplier, params->output_shift); \
      output[(size_t)b * (size_t)units + (size_t)u] = opbridge_svdf_clamp_s8(scaled + params->output_zero_point);   \
    }                                                                                                              \
  }                                                                                                                \
  return OPBRIDGE_STATUS_OK

int32_t opbridge_svdf_s8_s16(const opbridge_svdf_s8_params *params, const int8_t *input, const int8_t *weights_feature,
                             const int16_t *weights_time, const int32_t *bias, int16_t *state, int8_t *output) {
  OPBRIDGE_SVDF_INTEGER_BODY(int16_t, INT16_MIN, INT16_MAX, opbridge_dot_s16_zero_point);
}

int32_t opbridge_svdf_s8_s8(const opbridge_svdf_s8_params *params, const int8_t *input, const int8_t *weights_feature,
                            const int8_t *weights_time, const int32_t *bias, int8_t *state, int8_t *output) {
  OPBRIDGE_SVDF_INTEGER_BODY(int8_t, INT8_MIN, INT8_MAX, opbridge_svdf_time_dot_s8);
}
