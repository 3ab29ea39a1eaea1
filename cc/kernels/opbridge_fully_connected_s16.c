/* SPDX-License-Identifier: Apache-2.0 */
/* FULLY_CONNECTED with int16 activations and int8 weights (TFLite's 16x8 quantization), bit for bit with
 * TFLite Micro's reference FullyConnected and FullyConnectedPerChannel for int64 and int32 biases. */
#include <stddef.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_fully_connected_s16_internal.h"
#include "cc/kernels/opbridge_kernels_s16.h"

/* sum((weights[d] + filter_offset) * (row[d] + input_offset)) in 64 bits; without offsets (the 16x8
 * scheme's), on the Cortex-M55 eight products a step (opbridge_fully_connected_s16_helium.c), on the
 * Cortex-M4 two (opbridge_fully_connected_s16_dsp.c). */
static int64_t dot_wide(const opbridge_fully_connected_s8_params *params, const int16_t *row, const int8_t *weights) {
#if OPBRIDGE_KERNELS_HELIUM
  if (params->filter_offset == 0 && params->input_offset == 0) {
    return opbridge_dot_s16_s8_helium(row, weights, params->input_depth);
  }
#elif OPBRIDGE_KERNELS_DSP
  if (params->filter_offset == 0 && params->input_offset == 0) {
    return opbridge_dot_s16_s8_dsp(row, weights, params->input_depth);
  }
#endif
  int64_t acc = 0;
  for (int32_t d = 0; d < params->input_depth; ++d) {
    acc += (int64_t)(((int32_t)weights[d] + params->filter_offset) * ((int32_t)row[d] + params->input_offset));
  }
  return acc;
}

/* The same sum in TFLite Micro's int32 accumulator, wrapping (defined as uint32_t). */
static uint32_t dot_wrapping(const opbridge_fully_connected_s8_params *params, const int16_t *row,
                             const int8_t *weights) {
#if OPBRIDGE_KERNELS_HELIUM
  if (params->filter_offset == 0 && params->input_offset == 0) {
    return opbridge_dot_s16_s8_wrapping_helium(row, weights, params->input_depth);
  }
#elif OPBRIDGE_KERNELS_DSP
  if (params->filter_offset == 0 && params->input_offset == 0) {
    return opbridge_dot_s16_s8_wrapping_dsp(row, weights, params->input_depth);
  }
#endif
  uint32_t acc = 0;
  for (int32_t d = 0; d < params->input_depth; ++d) {
    acc += (uint32_t)(((int32_t)weights[d] + params->filter_offset) * ((int32_t)row[d] + params->input_offset));
  }
  return acc;
}

static int16_t clamp_output(int32_t value, const opbridge_fully_connected_s8_params *params) {
  if (value < params->activation_min) {
    value = params->activation_min;
  }
  if (value > params->activation_max) {
    value = params->activation_max;
  }
  return (int16_t)value;
}

static int32_t valid(const opbridge_fully_connected_s8_params *params, const int16_t *input, const int8_t *filter,
                     const int16_t *output) {
  const opbridge_requantization *requantization = params == NULL ? NULL : &params->requantization;
  return params != NULL && input != NULL && filter != NULL && output != NULL && requantization->multipliers != NULL &&
         requantization->shifts != NULL &&
         (requantization->count == 1 || requantization->count == params->output_depth);
}

int32_t opbridge_fully_connected_s16(const opbridge_fully_connected_s8_params *params, const int16_t *input,
                                     const int8_t *filter, const int64_t *bias, int16_t *output) {
  if (!valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->input_depth;
  const opbridge_requantization *requantization = &params->requantization;
  for (int32_t b = 0; b < params->batches; ++b) {
    const int16_t *row = input + (size_t)b * (size_t)depth;
    for (int32_t u = 0; u < params->output_depth; ++u) {
      int64_t acc = dot_wide(params, row, filter + (size_t)u * (size_t)depth);
      if (bias != NULL) {
        acc += bias[u];
      }
      const int32_t channel = requantization->count == 1 ? 0 : u;
      const int32_t scaled = opbridge_rescale_s64(acc, requantization->multipliers[channel], requantization->shifts[channel]);
      const size_t index = (size_t)b * (size_t)params->output_depth + (size_t)u;
      output[index] = clamp_output(scaled + params->output_offset, params);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_fully_connected_s16_bias32(const opbridge_fully_connected_s8_params *params, const int16_t *input,
                                            const int8_t *filter, const int32_t *bias, int16_t *output) {
  if (!valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->input_depth;
  const opbridge_requantization *requantization = &params->requantization;
  for (int32_t b = 0; b < params->batches; ++b) {
    const int16_t *row = input + (size_t)b * (size_t)depth;
    for (int32_t u = 0; u < params->output_depth; ++u) {
      uint32_t acc = dot_wrapping(params, row, filter + (size_t)u * (size_t)depth);
      if (bias != NULL) {
        acc += (uint32_t)bias[u];
      }
      const int32_t channel = requantization->count == 1 ? 0 : u;
      const int32_t scaled = opbridge_multiply_by_quantized_multiplier(
          (int32_t)acc, requantization->multipliers[channel], requantization->shifts[channel]);
      const size_t index = (size_t)b * (size_t)params->output_depth + (size_t)u;
      output[index] = clamp_output(scaled + params->output_offset, params);
    }
  }
  return OPBRIDGE_STATUS_OK;
}
