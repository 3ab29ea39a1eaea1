/* SPDX-License-Identifier: Apache-2.0 */
/* What the int16 FULLY_CONNECTED's files share: the Helium and DSP variants' units and dot products
 * (opbridge_fully_connected_s16_helium.c, opbridge_fully_connected_s16_dsp.c), which
 * opbridge_fully_connected_s16.c calls on the Cortex-M55 and the Cortex-M4 when neither operand has
 * an offset (TFLite's 16x8 scheme: symmetric int16 activations and int8 weights). Not part of
 * the API. */
#ifndef OPBRIDGE_FULLY_CONNECTED_S16_INTERNAL_H_
#define OPBRIDGE_FULLY_CONNECTED_S16_INTERNAL_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernel_variant.h"
#include "cc/kernels/opbridge_kernels_s8.h"

#if OPBRIDGE_KERNELS_HELIUM
/* sum(input[d] * weights[d]) for d < depth, exact in 64 bits (VMLALDAVA.S16, eight products a step). */
int64_t opbridge_dot_s16_s8_helium(const int16_t *input, const int8_t *weights, int32_t depth);
/* The same sum modulo 2^32 (VMLADAVA.S16): TFLite Micro's int32 accumulator, wrapping. */
uint32_t opbridge_dot_s16_s8_wrapping_helium(const int16_t *input, const int8_t *weights, int32_t depth);
/* Four units' exact sums (rows of `depth` weights one after another from `weights`) over one row,
 * which is read once for all four; modulo 2^32 they are the wrapping sums. */
void opbridge_dot4_s16_s8_helium(const int16_t *input, const int8_t *weights, int32_t depth, int64_t sums[4]);
/* The int64-bias kernel's outputs of one row for its units in fours (opbridge_fully_connected_s16,
 * no offsets): the first output_depth & ~3 of them, which it returns. */
int32_t opbridge_fully_connected_s16_units_helium(const opbridge_fully_connected_s8_params *params,
                                                  const int16_t *row, const int8_t *filter, const int64_t *bias,
                                                  int16_t *row_output);
#elif OPBRIDGE_KERNELS_DSP
/* The same two sums, two products per SMLALD (64 bits) or SMLAD (modulo 2^32). */
int64_t opbridge_dot_s16_s8_dsp(const int16_t *input, const int8_t *weights, int32_t depth);
uint32_t opbridge_dot_s16_s8_wrapping_dsp(const int16_t *input, const int8_t *weights, int32_t depth);
/* The deepest row opbridge_fully_connected_s16.c pairs once for all units (on the stack, 2 bytes a
 * value). */
#define OPBRIDGE_S16_DSP_PAIRED_DEPTH 1024
/* A row's values, per 4, as the pairs [x0, x2] and [x1, x3] that SXTB16 gives of 4 weights
 * (depth / 4 x 2 words into `pairs`). */
void opbridge_pair_s16_dsp(const int16_t *input, int32_t depth, int32_t *pairs);
/* Two units' sums over a row paired by opbridge_pair_s16_dsp (`input` for the last depth % 4
 * values): one load of the pairs for both, two SMLALD (SMLAD, wrapping) per unit and 4 values. */
void opbridge_dot2_s16_s8_dsp(const int32_t *pairs, const int16_t *input, const int8_t *weights0,
                              const int8_t *weights1, int32_t depth, int64_t sums[2]);
void opbridge_dot2_s16_s8_wrapping_dsp(const int32_t *pairs, const int16_t *input, const int8_t *weights0,
                                       const int8_t *weights1, int32_t depth, uint32_t sums[2]);
/* The int64-bias kernel's outputs of one row paired by opbridge_pair_s16_dsp (`row` for its last
 * depth % 8 values), its units in pairs in assembly (OPBRIDGE_S16_DSP_TURN_UNITS at a time): the
 * first output_depth & ~1 of them, which it returns (0 where the assembly does not build or the
 * rows are shorter than 8). */
#define OPBRIDGE_S16_DSP_TURN_UNITS 64
int32_t opbridge_fully_connected_s16_units_dsp(const opbridge_fully_connected_s8_params *params, const int32_t *pairs,
                                               const int16_t *row, const int8_t *filter, const int64_t *bias,
                                               int16_t *row_output);
#endif

#endif /* OPBRIDGE_FULLY_CONNECTED_S16_INTERNAL_H_ */
