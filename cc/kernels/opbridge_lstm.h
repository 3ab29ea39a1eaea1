/* SPDX-License-Identifier: Apache-2.0 */
/* UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite Micro runs it (lstm_eval.h's EvalLstm): the plain LSTM (no
 * peephole, projection, layer norm or CIFG), float32, int8 with an int16 cell state, or 16x8 (int16
 * activations, int8 weights, int64 biases, an int16 cell state), equal to
 * python/opbridge/ops/unidirectional_sequence_lstm/reference.py (float32: bit for bit where the C
 * library's expf and tanhf are TFLite Micro's).
 *
 * The hidden and cell states live in the caller's persistent memory (`state`), laid out as
 * opbridge_lstm_*_state_bytes says: the cell state [batches * units] (float or int16), then the hidden
 * state [batches * units] (float, int8 or int16), at a 4-byte aligned offset; the output must not overlap
 * the input or the state. The reset functions set them as TFLite Micro resets variable tensors (int8: the
 * hidden zero point; else 0, int16 hidden states included).
 *
 * Gates are numbered input, forget, cell, output (LiteRT's input order). Each batch row runs its time
 * steps in turn; rows never mix, so time-major and batch-major inputs give TFLite Micro's values. */
#ifndef OPBRIDGE_LSTM_H_
#define OPBRIDGE_LSTM_H_

#include <stddef.h>
#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_LSTM_GATES 4

typedef struct {
  int32_t batches;
  int32_t time_steps;
  int32_t input_size;
  int32_t units;
  /* Nonzero: input [time, batch, input_size] and output [time, batch, units]; else batch first. */
  int32_t time_major;
} opbridge_lstm_shape;

typedef struct {
  opbridge_lstm_shape shape;
  /* The cell state is clamped to [-cell_clip, cell_clip] after each update when cell_clip > 0. */
  float cell_clip;
} opbridge_lstm_f32_params;

typedef struct {
  int32_t multiplier;
  int32_t shift;
} opbridge_lstm_scale;

typedef struct {
  opbridge_lstm_shape shape;
  int32_t input_offset;  /* -input zero point */
  int32_t hidden_zero_point;
  int32_t input_weight_offsets[OPBRIDGE_LSTM_GATES];     /* -zero point of each input weight matrix */
  int32_t recurrent_weight_offsets[OPBRIDGE_LSTM_GATES]; /* -zero point of each recurrent matrix */
  /* Each gate's FC sums to its Q3.12 pre-activation. */
  opbridge_lstm_scale input_scales[OPBRIDGE_LSTM_GATES];
  opbridge_lstm_scale recurrent_scales[OPBRIDGE_LSTM_GATES];
  opbridge_lstm_scale forget_times_cell; /* Q0.15 * cell -> cell */
  opbridge_lstm_scale input_times_cell_gate; /* Q0.15 * Q0.15 -> cell */
  opbridge_lstm_scale hidden; /* Q0.15 * Q0.15 -> hidden (then + its zero point) */
  /* TFLite's int16 tanh of the cell state: its input multiplier and left shift. */
  int32_t cell_tanh_multiplier;
  int32_t cell_tanh_shift;
  int32_t cell_clip; /* quantized; 0: no clamp */
  /* TFLite's int16 sigmoid table, sigmoid(i / 24) for i in 0..255 in 0.16 fixed point, which its int16
   * LOGISTIC and TANH interpolate in; the emitter writes it (reference.py's sigmoid_table). */
  const uint16_t *sigmoid_table;
} opbridge_lstm_s8_params;

/* 16x8 takes the same parameters (the offsets and zero points of int16 tensors, 0 as TFLite's converter
 * writes them, are applied all the same); its FC scales go through TFLite's 64-bit rescale, which rounds
 * each multiplier to 16 bits. */
typedef opbridge_lstm_s8_params opbridge_lstm_s16_params;

/* Bytes of persistent state (see above), for 4-byte aligned memory. */
size_t opbridge_lstm_f32_state_bytes(const opbridge_lstm_shape *shape);
size_t opbridge_lstm_s8_state_bytes(const opbridge_lstm_shape *shape);
size_t opbridge_lstm_s16_state_bytes(const opbridge_lstm_shape *shape);

int32_t opbridge_lstm_f32_reset(const opbridge_lstm_f32_params *params, void *state);
int32_t opbridge_lstm_s8_reset(const opbridge_lstm_s8_params *params, void *state);
int32_t opbridge_lstm_s16_reset(const opbridge_lstm_s16_params *params, void *state);

/* weights: the four input matrices [units, input_size] then the four recurrent ones [units, units];
 * biases: the four gate biases [units] (int64 for 16x8). */
int32_t opbridge_lstm_f32(const opbridge_lstm_f32_params *params, const float *input,
                          const float *const weights[2 * OPBRIDGE_LSTM_GATES],
                          const float *const biases[OPBRIDGE_LSTM_GATES], void *state, float *output);
int32_t opbridge_lstm_s8(const opbridge_lstm_s8_params *params, const int8_t *input,
                         const int8_t *const weights[2 * OPBRIDGE_LSTM_GATES],
                         const int32_t *const biases[OPBRIDGE_LSTM_GATES], void *state, int8_t *output);
int32_t opbridge_lstm_s16(const opbridge_lstm_s16_params *params, const int16_t *input,
                          const int8_t *const weights[2 * OPBRIDGE_LSTM_GATES],
                          const int64_t *const biases[OPBRIDGE_LSTM_GATES], void *state, int16_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_LSTM_H_ */
