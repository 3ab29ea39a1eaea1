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

/* One output of the int64-bias kernel from its sum. */
static inline void output_wide(const opbridge_fully_connected_s8_params *params, int64_t acc, const int64_t *bias,
                               int32_t u, int16_t *row_output) {
  const opbridge_requantization *requantization = &params->requantization;
  if (bias != NULL) {
    acc += bias[u];
  }
  const int32_t channel = requantization->count == 1 ? 0 : u;
  const int32_t scaled =
      opbridge_rescale_s64(acc, requantization->multipliers[channel], requantization->shifts[channel]);
  row_output[u] = clamp_output(scaled + params->output_offset, params);
}

/* One output of the int32-bias kernel from its wrapping sum. */
static inline void output_wrapping(const opbridge_fully_connected_s8_params *params, uint32_t acc,
                                   const int32_t *bias, int32_t u, int16_t *row_output) {
  const opbridge_requantization *requantization = &params->requantization;
  if (bias != NULL) {
    acc += (uint32_t)bias[u];
  }
  const int32_t channel = requantization->count == 1 ? 0 : u;
  const int32_t scaled = opbridge_multiply_by_quantized_multiplier((int32_t)acc, requantization->multipliers[channel],
                                                                   requantization->shifts[channel]);
  row_output[u] = clamp_output(scaled + params->output_offset, params);
}

#if OPBRIDGE_KERNELS_HELIUM
/* Whether the Helium variant takes four units a step (no offsets, the 16x8 scheme's). */
static int32_t units_by_four(const opbridge_fully_connected_s8_params *params) {
  return params->filter_offset == 0 && params->input_offset == 0;
}
#elif OPBRIDGE_KERNELS_DSP
/* Whether the DSP variant pairs a row once for all its units (no offsets, the 16x8 scheme's). */
static int32_t paired_rows(const opbridge_fully_connected_s8_params *params) {
  return params->filter_offset == 0 && params->input_offset == 0 &&
         params->input_depth <= OPBRIDGE_S16_DSP_PAIRED_DEPTH;
}
#endif

int32_t opbridge_fully_connected_s16(const opbridge_fully_connected_s8_params *params, const int16_t *input,
                                     const int8_t *filter, const int64_t *bias, int16_t *output) {
  if (!valid(params, input, filter, output)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t depth = params->input_depth;
  const int32_t units = params->output_depth;
#if OPBRIDGE_KERNELS_DSP
  int32_t pairs[OPBRIDGE_S16_DSP_PAIRED_DEPTH / 2];
  const int32_t paired = paired_rows(params);
#endif
  for (int32_t b = 0; b < params->batches; ++b) {
    const int16_t *row = input + (size_t)b * (size_t)depth;
    int16_t *row_output = output + (size_t)b * (size_t)units;
    int32_t u = 0;
#if OPBRIDGE_KERNELS_HELIUM
    if (units_by_four(params)) { /* four units a step, the row loaded once for them */
      u = opbridge_fully_connected_s16_units_helium(params, row, filter, bias, row_output);
    }
#elif OPBRIDGE_KERNELS_DSP
    if (paired) { /* the row paired once, then its units in pairs */
      opbridge_pair_s16_dsp(row, depth, pairs);
      u = opbridge_fully_connected_s16_units_dsp(params, pairs, row, filter, bias, row_output);
      for (; u + 2 <= units; u += 2) {
        int64_t sums[2];
        opbridge_dot2_s16_s8_dsp(pairs, row, filter + (size_t)u * (size_t)depth,
                                 filter + (size_t)(u + 1) * (size_t)depth, depth, sums);
        output_wide(params, sums[0], bias, u, row_output);
        output_wide(params, sums[1], bias, u + 1, row_output);
      }
    }
#endif
    for (; u < units; ++u) {
      output_wide(params, dot_wide(params, row, filter + (size_t)u * (size_t)depth), bias, u, row_output);
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
  const int32_t units = params->output_depth;
#if OPBRIDGE_KERNELS_DSP
  int32_t pairs[OPBRIDGE_S16_DSP_PAIRED_DEPTH / 2];
  const int32_t paired = paired_rows(params);
#endif
  for (int32_t b = 0; b < params->batches; ++b) {
    const int16_t *row = input + (size_t)b * (size_t)depth;
    int16_t *row_output = output + (size_t)b * (size_t)units;
    int32_t u = 0;
#if OPBRIDGE_KERNELS_HELIUM
    if (units_by_four(params)) {
      for (; u + 4 <= units; u += 4) {
        int64_t sums[4];
        opbridge_dot4_s16_s8_helium(row, filter + (size_t)u * (size_t)depth, depth, sums);
        for (int32_t k = 0; k < 4; ++k) {
          output_wrapping(params, (uint32_t)(uint64_t)sums[k], bias, u + k, row_output);
        }
      }
    }
#elif OPBRIDGE_KERNELS_DSP
    if (paired) {
      opbridge_pair_s16_dsp(row, depth, pairs);
      for (; u + 2 <= units; u += 2) {
        uint32_t sums[2];
        opbridge_dot2_s16_s8_wrapping_dsp(pairs, row, filter + (size_t)u * (size_t)depth,
                                          filter + (size_t)(u + 1) * (size_t)depth, depth, sums);
        output_wrapping(params, sums[0], bias, u, row_output);
        output_wrapping(params, sums[1], bias, u + 1, row_output);
      }
    }
#endif
    for (; u < units; ++u) {
      output_wrapping(params, dot_wrapping(params, row, filter + (size_t)u * (size_t)depth), bias, u, row_output);
    }
  }
  return OPBRIDGE_STATUS_OK;
}
