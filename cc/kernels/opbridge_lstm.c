/* SPDX-License-Identifier: Apache-2.0 */
/* UNIDIRECTIONAL_SEQUENCE_LSTM (see opbridge_lstm.h). */
#include "cc/kernels/opbridge_lstm.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "cc/kernels/opbridge_dot_s8_internal.h"
#include "cc/kernels/opbridge_fixed_point.h"

enum { GATE_INPUT = 0, GATE_FORGET = 1, GATE_CELL = 2, GATE_OUTPUT = 3 };


static size_t aligned4(size_t bytes) { return (bytes + 3u) & ~(size_t)3u; }

static int32_t shape_is_valid(const opbridge_lstm_shape *shape) {
  return shape != NULL && shape->batches > 0 && shape->time_steps > 0 && shape->input_size > 0 && shape->units > 0;
}

/* Offsets of input row (batch, step) and output row, in elements. */
static int32_t input_row(const opbridge_lstm_shape *shape, int32_t batch, int32_t step) {
  const int32_t row = shape->time_major ? step * shape->batches + batch : batch * shape->time_steps + step;
  return row * shape->input_size;
}

static int32_t output_row(const opbridge_lstm_shape *shape, int32_t batch, int32_t step) {
  const int32_t row = shape->time_major ? step * shape->batches + batch : batch * shape->time_steps + step;
  return row * shape->units;
}

/* ---- float32 ---------------------------------------------------------------------------------- */

size_t opbridge_lstm_f32_state_bytes(const opbridge_lstm_shape *shape) {
  if (!shape_is_valid(shape)) {
    return 0;
  }
  const size_t rows = (size_t)shape->batches * (size_t)shape->units;
  return 2u * rows * sizeof(float);
}

int32_t opbridge_lstm_f32_reset(const opbridge_lstm_f32_params *params, void *state) {
  if (params == NULL || state == NULL || !shape_is_valid(&params->shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  float *values = (float *)state;
  const size_t count = 2u * (size_t)params->shape.batches * (size_t)params->shape.units;
  for (size_t i = 0; i < count; ++i) {
    values[i] = 0.0f;
  }
  return OPBRIDGE_STATUS_OK;
}

/* min(max(value, -FLT_MAX), FLT_MAX), as TFLite's ActivationFunctionWithMinMax (NaN passes). */
static float clamp_finite(float value) {
  const float raised = value < -FLT_MAX ? -FLT_MAX : value;
  return FLT_MAX < raised ? FLT_MAX : raised;
}

/* TFLite's reference float FULLY_CONNECTED for one unit: a sum from 0 in order, + bias (+ 0 without). */
static float dot_f32(const float *row, const float *weights, int32_t depth, float bias) {
  float total = 0.0f;
  for (int32_t d = 0; d < depth; ++d) {
    total += row[d] * weights[d];
  }
  return clamp_finite(total + bias);
}

/* exp and tanh in double, rounded once to float32: the reference's float32_exp and float32_tanh. An LSTM's
 * cell sums cancel, so libm's expf and tanhf (an ulp or two away, and not the same ulp on every platform)
 * would move small outputs by hundreds of ulps; this keeps the C equal to the reference everywhere. */
static float exp_rounded_once(float x) { return (float)exp((double)x); }

static float tanh_rounded_once(float x) { return (float)tanh((double)x); }

/* TFLite's reference float Logistic. */
static float logistic_f32(float x) {
  if (x > 16.619047164916992188f) {
    return 1.0f;
  }
  if (x < -9.0f) {
    return exp_rounded_once(x);
  }
  return 1.0f / (1.0f + exp_rounded_once(-x));
}

int32_t opbridge_lstm_f32(const opbridge_lstm_f32_params *params, const float *input,
                          const float *const weights[2 * OPBRIDGE_LSTM_GATES],
                          const float *const biases[OPBRIDGE_LSTM_GATES], void *state, float *output) {
  if (params == NULL || input == NULL || weights == NULL || biases == NULL || state == NULL || output == NULL ||
      !shape_is_valid(&params->shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < 2 * OPBRIDGE_LSTM_GATES; ++i) {
    if (weights[i] == NULL || (i < OPBRIDGE_LSTM_GATES && biases[i] == NULL)) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  const opbridge_lstm_shape *shape = &params->shape;
  const int32_t units = shape->units;
  float *cells = (float *)state;
  float *hiddens = cells + (size_t)shape->batches * (size_t)units;
  const float clip = params->cell_clip;
  for (int32_t batch = 0; batch < shape->batches; ++batch) {
    float *cell = cells + (size_t)batch * (size_t)units;
    float *hidden = hiddens + (size_t)batch * (size_t)units;
    for (int32_t step = 0; step < shape->time_steps; ++step) {
      const float *x = input + input_row(shape, batch, step);
      /* The new hidden row goes to the output first: the gates of every unit read the previous one. */
      float *next = output + output_row(shape, batch, step);
      for (int32_t unit = 0; unit < units; ++unit) {
        float gates[OPBRIDGE_LSTM_GATES];
        for (int32_t g = 0; g < OPBRIDGE_LSTM_GATES; ++g) {
          const float *w = weights[g] + (size_t)unit * (size_t)shape->input_size;
          const float *r = weights[OPBRIDGE_LSTM_GATES + g] + (size_t)unit * (size_t)units;
          gates[g] = dot_f32(x, w, shape->input_size, biases[g][unit]) + dot_f32(hidden, r, units, 0.0f);
        }
        const float forget = logistic_f32(gates[GATE_FORGET]);
        const float input_gate = logistic_f32(gates[GATE_INPUT]);
        const float cell_gate = tanh_rounded_once(gates[GATE_CELL]);
        float c = clamp_finite(forget * cell[unit]) + clamp_finite(input_gate * cell_gate);
        if (clip > 0.0f) {
          c = c < clip ? c : clip;
          c = c < -clip ? -clip : c;
        }
        cell[unit] = c;
        const float output_gate = logistic_f32(gates[GATE_OUTPUT]);
        next[unit] = clamp_finite(tanh_rounded_once(c) * output_gate);
      }
      memcpy(hidden, next, (size_t)units * sizeof(float));
    }
  }
  return OPBRIDGE_STATUS_OK;
}

/* ---- int8 or int16 activations with an int16 cell state -------------------------------------- */

/* The hidden state's element size: int8, or int16 for 16x8. */
static size_t hidden_bytes(int32_t wide) { return wide ? sizeof(int16_t) : sizeof(int8_t); }

static size_t integer_state_bytes(const opbridge_lstm_shape *shape, int32_t wide) {
  if (!shape_is_valid(shape)) {
    return 0;
  }
  const size_t rows = (size_t)shape->batches * (size_t)shape->units;
  return aligned4(rows * sizeof(int16_t)) + rows * hidden_bytes(wide);
}

size_t opbridge_lstm_s8_state_bytes(const opbridge_lstm_shape *shape) { return integer_state_bytes(shape, 0); }

size_t opbridge_lstm_s16_state_bytes(const opbridge_lstm_shape *shape) { return integer_state_bytes(shape, 1); }

/* The cell state 0; the hidden state the zero point (int8) or 0 (int16: TFLite Micro resets only int8
 * variable tensors to their zero point). */
static int32_t integer_reset(const opbridge_lstm_s8_params *params, void *state, int32_t wide) {
  if (params == NULL || state == NULL || !shape_is_valid(&params->shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  const size_t rows = (size_t)params->shape.batches * (size_t)params->shape.units;
  int16_t *cells = (int16_t *)state;
  for (size_t i = 0; i < rows; ++i) {
    cells[i] = 0;
  }
  void *hiddens = (int8_t *)state + aligned4(rows * sizeof(int16_t));
  if (wide) {
    int16_t *hidden = (int16_t *)hiddens;
    for (size_t i = 0; i < rows; ++i) {
      hidden[i] = 0;
    }
  } else {
    memset(hiddens, (int8_t)params->hidden_zero_point, rows);
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_lstm_s8_reset(const opbridge_lstm_s8_params *params, void *state) {
  return integer_reset(params, state, 0);
}

int32_t opbridge_lstm_s16_reset(const opbridge_lstm_s16_params *params, void *state) {
  return integer_reset(params, state, 1);
}

static int32_t clamp_i32(int32_t value, int32_t low, int32_t high) {
  return value < low ? low : (value > high ? high : value);
}

static int32_t saturate_i16(int32_t value) { return clamp_i32(value, INT16_MIN, INT16_MAX); }

/* TFLite's integer FULLY_CONNECTED for one unit, to int16 at zero point 0: int8 rows with an int32
 * accumulator and bias. */
static int32_t dot_s8(const int8_t *row, int32_t row_offset, const int8_t *weights, int32_t weight_offset,
                      int32_t depth, int32_t bias, opbridge_lstm_scale scale) {
  const int32_t acc =
      (int32_t)((uint32_t)opbridge_dot_s8_offsets(row, row_offset, weights, weight_offset, depth) + (uint32_t)bias);
  return saturate_i16(opbridge_multiply_by_quantized_multiplier(acc, scale.multiplier, scale.shift));
}

/* The same for int16 rows (16x8): an int64 accumulator and bias, TFLite's 64-bit rescale (truncated to
 * int32 as its cast does), then saturated to int16. */
static int32_t dot_s16(const int16_t *row, int32_t row_offset, const int8_t *weights, int32_t weight_offset,
                       int32_t depth, int64_t bias, opbridge_lstm_scale scale) {
  int64_t acc = 0;
  for (int32_t d = 0; d < depth; ++d) {
    acc += (int64_t)(((int32_t)weights[d] + weight_offset) * ((int32_t)row[d] + row_offset));
  }
  acc += bias;
  return saturate_i16(opbridge_rescale_s64(acc, scale.multiplier, scale.shift));
}

/* TFLite's int16 LOGISTIC (input multiplier 0, shift 0): Q3.12 -> Q0.15. */
static int32_t sigmoid_s16(const uint16_t *table, int32_t x) {
  const int32_t scaled = x * 3;
  const uint32_t magnitude = (uint32_t)(scaled < 0 ? -scaled : scaled);
  const uint32_t index = magnitude >> 9;
  uint32_t result;
  if (index >= 255u) {
    result = 0x7FFFu << 10;
  } else {
    const uint32_t low = table[index];
    const uint32_t high = table[index + 1u];
    result = (low << 9) + (magnitude & 0x1FFu) * (high - low);
  }
  result = scaled >= 0 ? result + (1u << 9) : (1u << 25) - result + (1u << 9) - 1u;
  return (int32_t)(result >> 10);
}

/* TFLite's int16 TANH: Q0.15 out; (multiplier 0, shift s) means multiplier 3 << s. */
static int32_t tanh_s16(const uint16_t *table, int32_t x, int32_t multiplier, int32_t shift) {
  if (multiplier == 0) {
    multiplier = 3 << shift;
    shift = 0;
  }
  const int32_t rounding = shift > 0 ? 1 << (shift - 1) : 0;
  const int32_t scaled = (x * multiplier + rounding) >> shift;
  const uint32_t magnitude = (uint32_t)(scaled < 0 ? -scaled : scaled);
  const uint32_t index = magnitude >> 8;
  int32_t result;
  if (index >= 255u) {
    result = (int32_t)(0xFFFFu << 8);
  } else {
    const uint32_t low = table[index];
    const uint32_t high = table[index + 1u];
    result = (int32_t)((low << 8) + (magnitude & 0xFFu) * (high - low));
  }
  result = scaled >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  /* >> of a negative integer is an arithmetic shift on every compiler we use. */
  return result >> 8;
}

/* What the int8 and 16x8 kernels read and write: wide (16x8) selects int16 activations and the int64
 * biases, else int8 activations and the int32 biases. */
typedef struct {
  int32_t wide;
  const void *input;
  const int32_t *const *biases32;
  const int64_t *const *biases64;
  void *output;
} integer_io;

/* One gate's FC of `row` (row_index: input or output/hidden row, in elements) for `unit`. */
static int32_t gate_fc(const integer_io *io, const void *rows, size_t row_index, int32_t row_offset,
                       const int8_t *weights, int32_t weight_offset, int32_t depth, int32_t gate, int32_t unit,
                       int32_t with_bias, opbridge_lstm_scale scale) {
  if (io->wide) {
    const int64_t bias = with_bias ? io->biases64[gate][unit] : 0;
    return dot_s16((const int16_t *)rows + row_index, row_offset, weights, weight_offset, depth, bias, scale);
  }
  const int32_t bias = with_bias ? io->biases32[gate][unit] : 0;
  return dot_s8((const int8_t *)rows + row_index, row_offset, weights, weight_offset, depth, bias, scale);
}

static int32_t lstm_integer(const opbridge_lstm_s8_params *params, const integer_io *io,
                            const int8_t *const weights[2 * OPBRIDGE_LSTM_GATES], void *state) {
  if (params == NULL || params->sigmoid_table == NULL || io->input == NULL || weights == NULL ||
      (io->wide ? io->biases64 == NULL : io->biases32 == NULL) || state == NULL || io->output == NULL ||
      !shape_is_valid(&params->shape)) {
    return OPBRIDGE_STATUS_INVALID_ARGUMENT;
  }
  for (int32_t i = 0; i < 2 * OPBRIDGE_LSTM_GATES; ++i) {
    const void *bias = i >= OPBRIDGE_LSTM_GATES ? NULL
                       : io->wide                ? (const void *)io->biases64[i]
                                                 : (const void *)io->biases32[i];
    if (weights[i] == NULL || (i < OPBRIDGE_LSTM_GATES && bias == NULL)) {
      return OPBRIDGE_STATUS_INVALID_ARGUMENT;
    }
  }
  const opbridge_lstm_shape *shape = &params->shape;
  const int32_t units = shape->units;
  const size_t rows = (size_t)shape->batches * (size_t)units;
  const size_t element = hidden_bytes(io->wide);
  int16_t *cells = (int16_t *)state;
  int8_t *hiddens = (int8_t *)state + aligned4(rows * sizeof(int16_t));
  const int32_t hidden_offset = -params->hidden_zero_point;
  const int32_t low = io->wide ? INT16_MIN : INT8_MIN;
  const int32_t high = io->wide ? INT16_MAX : INT8_MAX;
  for (int32_t batch = 0; batch < shape->batches; ++batch) {
    int16_t *cell = cells + (size_t)batch * (size_t)units;
    /* This row's hidden state, as element index (batch * units) of the hidden buffer. */
    const size_t hidden_row = (size_t)batch * (size_t)units;
    for (int32_t step = 0; step < shape->time_steps; ++step) {
      const size_t x = (size_t)input_row(shape, batch, step);
      const size_t next = (size_t)output_row(shape, batch, step);
      for (int32_t unit = 0; unit < units; ++unit) {
        int32_t gates[OPBRIDGE_LSTM_GATES];
        for (int32_t g = 0; g < OPBRIDGE_LSTM_GATES; ++g) {
          const int8_t *w = weights[g] + (size_t)unit * (size_t)shape->input_size;
          const int8_t *r = weights[OPBRIDGE_LSTM_GATES + g] + (size_t)unit * (size_t)units;
          const int32_t from_input = gate_fc(io, io->input, x, params->input_offset, w, params->input_weight_offsets[g],
                                             shape->input_size, g, unit, 1, params->input_scales[g]);
          const int32_t from_hidden = gate_fc(io, hiddens, hidden_row, hidden_offset, r,
                                              params->recurrent_weight_offsets[g], units, g, unit, 0,
                                              params->recurrent_scales[g]);
          gates[g] = saturate_i16(from_input + from_hidden);
        }
        const int32_t forget = sigmoid_s16(params->sigmoid_table, gates[GATE_FORGET]);
        const int32_t input_gate = sigmoid_s16(params->sigmoid_table, gates[GATE_INPUT]);
        const int32_t cell_gate = tanh_s16(params->sigmoid_table, gates[GATE_CELL], 0, 0);
        const int32_t kept = saturate_i16(opbridge_multiply_by_quantized_multiplier(
            forget * (int32_t)cell[unit], params->forget_times_cell.multiplier, params->forget_times_cell.shift));
        const int32_t added = saturate_i16(opbridge_multiply_by_quantized_multiplier(
            input_gate * cell_gate, params->input_times_cell_gate.multiplier, params->input_times_cell_gate.shift));
        int32_t c = saturate_i16(kept + added);
        if (params->cell_clip > 0) {
          c = clamp_i32(c, -params->cell_clip, params->cell_clip);
        }
        cell[unit] = (int16_t)c;
        const int32_t output_gate = sigmoid_s16(params->sigmoid_table, gates[GATE_OUTPUT]);
        const int32_t squashed =
            tanh_s16(params->sigmoid_table, c, params->cell_tanh_multiplier, params->cell_tanh_shift);
        const int32_t h = opbridge_multiply_by_quantized_multiplier(squashed * output_gate, params->hidden.multiplier,
                                                                    params->hidden.shift) +
                          params->hidden_zero_point;
        /* The new hidden row goes to the output first: the gates of every unit read the previous one. */
        if (io->wide) {
          ((int16_t *)io->output)[next + (size_t)unit] = (int16_t)clamp_i32(h, low, high);
        } else {
          ((int8_t *)io->output)[next + (size_t)unit] = (int8_t)clamp_i32(h, low, high);
        }
      }
      memcpy(hiddens + hidden_row * element, (int8_t *)io->output + next * element, (size_t)units * element);
    }
  }
  return OPBRIDGE_STATUS_OK;
}

int32_t opbridge_lstm_s8(const opbridge_lstm_s8_params *params, const int8_t *input,
                         const int8_t *const weights[2 * OPBRIDGE_LSTM_GATES],
                         const int32_t *const biases[OPBRIDGE_LSTM_GATES], void *state, int8_t *output) {
  const integer_io io = {0, input, biases, NULL, output};
  return lstm_integer(params, &io, weights, state);
}

int32_t opbridge_lstm_s16(const opbridge_lstm_s16_params *params, const int16_t *input,
                          const int8_t *const weights[2 * OPBRIDGE_LSTM_GATES],
                          const int64_t *const biases[OPBRIDGE_LSTM_GATES], void *state, int16_t *output) {
  const integer_io io = {1, input, NULL, biases, output};
  return lstm_integer(params, &io, weights, state);
}
