/* SPDX-License-Identifier: Apache-2.0 */
/* Element-wise int8 kernels: MUL, requantization (RELU, RELU6, QUANTIZE),
 * QUANTIZE from float32, DEQUANTIZE, PAD and MEAN. */
#include <math.h>
#include <stddef.h>

#include "cc/kernels/opbridge_kernels_internal.h"

int32_t opbridge_mul_s8(const opbridge_mul_s8_params *params, const int8_t *input1, const int8_t *input2,
                        int8_t *output) {
  if (params == NULL || input1 == NULL || input2 == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *shape = params->output_shape;
  const int32_t *s1 = params->input1_strides;
  const int32_t *s2 = params->input2_strides;
  int32_t out_index = 0;
  for (int32_t i0 = 0; i0 < shape[0]; ++i0) {
    for (int32_t i1 = 0; i1 < shape[1]; ++i1) {
      for (int32_t i2 = 0; i2 < shape[2]; ++i2) {
        for (int32_t i3 = 0; i3 < shape[3]; ++i3) {
          const int32_t a = input1[i0 * s1[0] + i1 * s1[1] + i2 * s1[2] + i3 * s1[3]] + params->input1_offset;
          const int32_t b = input2[i0 * s2[0] + i1 * s2[1] + i2 * s2[2] + i3 * s2[3]] + params->input2_offset;
          const int32_t product =
              opbridge_multiply_by_quantized_multiplier(a * b, params->output_multiplier, params->output_shift);
          output[out_index++] =
              opbridge_clamp_s8(product + params->output_offset, params->activation_min, params->activation_max);
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_requantize_s8(const opbridge_requantize_s8_params *params, const int8_t *input, int8_t *output) {
  if (params == NULL || input == NULL || output == NULL || params->size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < params->size; ++i) {
    const int32_t scaled = opbridge_multiply_by_quantized_multiplier((int32_t)input[i] + params->input_offset,
                                                                     params->multiplier, params->shift);
    output[i] = opbridge_clamp_s8(scaled + params->output_offset, params->activation_min, params->activation_max);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_quantize_f32_s8(int32_t size, float scale, int32_t zero_point, int32_t half_to_even,
                                 const float *input, int8_t *output) {
  if (input == NULL || output == NULL || size < 0 || !(scale > 0.0f)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  if (half_to_even) {
    const float low = (float)(-128 - zero_point);
    const float high = (float)(127 - zero_point);
    for (int32_t i = 0; i < size; ++i) {
      const float quotient = input[i] / scale;
      /* Saturate before rounding (infinities included); NaN fails both tests and becomes 0. */
      const float saturated = quotient < low ? low : (quotient > high ? high : (quotient == quotient ? quotient : 0.0f));
      output[i] = (int8_t)(opbridge_round_half_to_even(saturated) + zero_point);
    }
    return OPBRIDGE_STATUS_OK;
  }
  for (int32_t i = 0; i < size; ++i) {
    const float scaled = roundf(input[i] / scale);
    /* Saturate in float first (a float outside int32 has no defined conversion); any
     * value beyond +-512 saturates the int8 result the same way. NaN becomes 0. */
    const int32_t value = scaled > 512.0f ? 512 : (scaled < -512.0f ? -512 : (scaled == scaled ? (int32_t)scaled : 0));
    output[i] = opbridge_clamp_s8(value + zero_point, -128, 127);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_dequantize_s8_f32(int32_t size, float scale, int32_t zero_point, const int8_t *input,
                                   float *output) {
  if (input == NULL || output == NULL || size < 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < size; ++i) {
    /* A float product of exact operands: the correctly rounded scale * (q - zero_point). */
    output[i] = scale * (float)((int32_t)input[i] - zero_point);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_pad_s8(const opbridge_pad_s8_params *params, const int8_t *input, int8_t *output) {
  if (params == NULL || input == NULL || output == NULL) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const int32_t *in = params->input_shape;
  const int32_t *out = params->output_shape;
  const int32_t *before = params->padding_before;
  int32_t out_index = 0;
  int32_t in_index = 0;
  for (int32_t i0 = 0; i0 < out[0]; ++i0) {
    const int32_t inside0 = i0 >= before[0] && i0 < before[0] + in[0];
    for (int32_t i1 = 0; i1 < out[1]; ++i1) {
      const int32_t inside1 = inside0 && i1 >= before[1] && i1 < before[1] + in[1];
      for (int32_t i2 = 0; i2 < out[2]; ++i2) {
        const int32_t inside2 = inside1 && i2 >= before[2] && i2 < before[2] + in[2];
        for (int32_t i3 = 0; i3 < out[3]; ++i3) {
          const int32_t inside3 = inside2 && i3 >= before[3] && i3 < before[3] + in[3];
          for (int32_t i4 = 0; i4 < out[4]; ++i4) {
            const int32_t inside = inside3 && i4 >= before[4] && i4 < before[4] + in[4];
            /* Input elements appear in order, so a running index reads them. */
            output[out_index++] = inside ? input[in_index++] : (int8_t)params->pad_value;
          }
        }
      }
    }
  }
  return OPBRIDGE_STATUS_OK;
}


/* sums[c] += image[p * channels + c] over the positions: each position's channels into their running
 * sums, a row at a time. */
static void opbridge_spatial_sums_s8(int32_t *restrict sums, const int8_t *restrict image, int32_t positions,
                                     int32_t channels) {
#if OPBRIDGE_KERNELS_HELIUM
  opbridge_spatial_sums_s8_helium(sums, image, positions, channels);
#else
  for (int32_t p = 0; p < positions; ++p) {
    const int8_t *row = image + (size_t)p * (size_t)channels;
    for (int32_t c = 0; c < channels; ++c) {
      sums[c] += row[c];
    }
  }
#endif
}

int32_t opbridge_mean_s8(const opbridge_mean_s8_params *params, const int8_t *input, int32_t *sum, int8_t *output) {
  if (params == NULL || input == NULL || sum == NULL || output == NULL || params->count <= 0) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t o = 0; o < params->output_size; ++o) {
    sum[o] = 0;
  }
  const int32_t *shape = params->input_shape;
  const int32_t *reduce = params->reduce;
  const int32_t channels = shape[3];
  if (reduce[1] && reduce[2] && !reduce[3]) {
    /* The spatial mean of NHWC (Keras's GlobalAveragePooling2D, written as MEAN over axes 1 and 2):
     * each position's channels are contiguous, so they add to their sums a row at a time. The sums
     * are the same integers in any order. */
    const int32_t positions = shape[1] * shape[2];
    for (int32_t b = 0; b < shape[0]; ++b) {
      const int8_t *image = input + (size_t)b * (size_t)positions * (size_t)channels;
      opbridge_spatial_sums_s8(sum + (reduce[0] ? 0 : b * channels), image, positions, channels);
    }
  } else if (!reduce[0] && !reduce[1] && reduce[2] && !reduce[3]) {
    /* [batches, steps, channels] over its steps (Keras's GlobalAveragePooling1D after Conv1D: axis 1
     * of a 3-D tensor, axis 2 of the 4-D shape): the same sums, batch by batch. */
    const int32_t batches = shape[0] * shape[1];
    const int32_t steps = shape[2];
    for (int32_t b = 0; b < batches; ++b) {
      opbridge_spatial_sums_s8(sum + b * channels, input + (size_t)b * (size_t)steps * (size_t)channels, steps,
                               channels);
    }
  } else {
    OPBRIDGE_REDUCE_SUM_4D(shape, reduce, input, sum);
  }
  if (params->scale > 0.0f) {
    /* ONNX's arithmetic: one float32 scale for every output, as the int8 convolutions' ONNX stage. */
    const opbridge_requantization onnx = {NULL, NULL, 1, &params->scale};
    for (int32_t o = 0; o < params->output_size; ++o) {
      const int32_t centred = (int32_t)((int64_t)sum[o] - (int64_t)params->input_zero_point * params->count);
      output[o] = opbridge_requantize_channel_s8(centred, &onnx, 0, params->output_zero_point, -128, 127);
    }
    return OPBRIDGE_STATUS_OK;
  }
#if OPBRIDGE_KERNELS_HELIUM
  if (params->count < (1 << 23)) { /* every centred sum within int32: |sum - zero point x count| <= 255 x count */
    opbridge_mean_outputs_s8_helium(sum, params->output_size, params->input_zero_point * params->count,
                                    params->multiplier, params->shift, params->output_zero_point, output);
    return OPBRIDGE_STATUS_OK;
  }
#endif
  for (int32_t o = 0; o < params->output_size; ++o) {
    const int32_t centred = (int32_t)((int64_t)sum[o] - (int64_t)params->input_zero_point * params->count);
    const int32_t scaled = opbridge_multiply_by_quantized_multiplier(centred, params->multiplier, params->shift);
    output[o] = opbridge_clamp_s8(scaled + params->output_zero_point, -128, 127);
  }
  return OPBRIDGE_STATUS_OK;
}
