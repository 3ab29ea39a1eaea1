/* SPDX-License-Identifier: Apache-2.0 */
/*
 * opbridge's portable kernels on plain (unquantized) integers and on raw
 * elements: CAST, STRIDED_SLICE, int32 ADD, MUL and DIV, and MINIMUM and
 * MAXIMUM. TFLite Micro's reference semantics, bit for bit (see
 * python/opbridge/ops/<op>/reference.py, the golden model).
 *
 * Integer results that do not fit wrap around (modulo 2^bits), as the
 * two's-complement machines TFLite Micro runs on compute them; the kernels
 * get there without signed overflow or implementation-defined conversions.
 * Each function returns an int32_t status (opbridge_status.h).
 */
#ifndef OPBRIDGE_KERNELS_INT_H_
#define OPBRIDGE_KERNELS_INT_H_

#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CAST: output[i] = input[i] converted, for `size` elements. Integer targets
 * keep the low bits of the value (C++ static_cast on two's complement: int32
 * 300 becomes int8 44, int32 -1 becomes uint32 4294967295); float targets
 * round to nearest. Bool inputs (one byte each) read as 0 or 1. Suffixes:
 * b8 bool, s8/s16/s32 signed, u32 unsigned, f32 float. */
int32_t opbridge_cast_b8_s8(int32_t size, const uint8_t *input, int8_t *output);
int32_t opbridge_cast_b8_s16(int32_t size, const uint8_t *input, int16_t *output);
int32_t opbridge_cast_b8_s32(int32_t size, const uint8_t *input, int32_t *output);
int32_t opbridge_cast_b8_u32(int32_t size, const uint8_t *input, uint32_t *output);
int32_t opbridge_cast_b8_f32(int32_t size, const uint8_t *input, float *output);
int32_t opbridge_cast_s8_s8(int32_t size, const int8_t *input, int8_t *output);
int32_t opbridge_cast_s8_s16(int32_t size, const int8_t *input, int16_t *output);
int32_t opbridge_cast_s8_s32(int32_t size, const int8_t *input, int32_t *output);
int32_t opbridge_cast_s8_u32(int32_t size, const int8_t *input, uint32_t *output);
int32_t opbridge_cast_s8_f32(int32_t size, const int8_t *input, float *output);
int32_t opbridge_cast_s16_s8(int32_t size, const int16_t *input, int8_t *output);
int32_t opbridge_cast_s16_s16(int32_t size, const int16_t *input, int16_t *output);
int32_t opbridge_cast_s16_s32(int32_t size, const int16_t *input, int32_t *output);
int32_t opbridge_cast_s16_u32(int32_t size, const int16_t *input, uint32_t *output);
int32_t opbridge_cast_s16_f32(int32_t size, const int16_t *input, float *output);
int32_t opbridge_cast_s32_s8(int32_t size, const int32_t *input, int8_t *output);
int32_t opbridge_cast_s32_s16(int32_t size, const int32_t *input, int16_t *output);
int32_t opbridge_cast_s32_s32(int32_t size, const int32_t *input, int32_t *output);
int32_t opbridge_cast_s32_u32(int32_t size, const int32_t *input, uint32_t *output);
int32_t opbridge_cast_s32_f32(int32_t size, const int32_t *input, float *output);
int32_t opbridge_cast_u32_s8(int32_t size, const uint32_t *input, int8_t *output);
int32_t opbridge_cast_u32_s16(int32_t size, const uint32_t *input, int16_t *output);
int32_t opbridge_cast_u32_s32(int32_t size, const uint32_t *input, int32_t *output);
int32_t opbridge_cast_u32_u32(int32_t size, const uint32_t *input, uint32_t *output);
int32_t opbridge_cast_u32_f32(int32_t size, const uint32_t *input, float *output);

typedef struct {
  int32_t element_size;    /* bytes per element: any positive size */
  int32_t output_shape[4]; /* elements taken along each axis (left-padded with 1s) */
  int32_t input_start;     /* element offset of the first element taken */
  int32_t input_steps[4];  /* element step between taken elements along each axis; may be negative */
} opbridge_strided_slice_params;

/* STRIDED_SLICE with the begin/end/stride arithmetic done at conversion time:
 * output element (i0, i1, i2, i3) is input element
 * input_start + i0 * input_steps[0] + ... + i3 * input_steps[3]. */
int32_t opbridge_strided_slice(const opbridge_strided_slice_params *params, const void *input, void *output);

/* Output index space of an element-wise binary operator, 4-D (left-padded
 * with 1s), and the element strides of each input in it (0 along dimensions
 * an input broadcasts). */
typedef struct {
  int32_t output_shape[4];
  int32_t input1_strides[4];
  int32_t input2_strides[4];
} opbridge_broadcast_4d;

typedef struct {
  opbridge_broadcast_4d broadcast;
  int32_t activation_min; /* the fused activation's clamp, in [INT32_MIN, INT32_MAX] */
  int32_t activation_max;
} opbridge_arithmetic_s32_params;

/* output = clamp(input1 + input2), the sum wrapping around. */
int32_t opbridge_add_s32(const opbridge_arithmetic_s32_params *params, const int32_t *input1,
                         const int32_t *input2, int32_t *output);
/* output = clamp(input1 * input2), the product wrapping around. */
int32_t opbridge_mul_s32(const opbridge_arithmetic_s32_params *params, const int32_t *input1,
                         const int32_t *input2, int32_t *output);
/* output = clamp(input1 / input2), the quotient truncated toward zero. A zero
 * divisor gives 0 and INT32_MIN / -1 gives INT32_MIN, as Cortex-M's SDIV does
 * (with divide-by-zero trapping off, the reset default). */
int32_t opbridge_div_s32(const opbridge_arithmetic_s32_params *params, const int32_t *input1,
                         const int32_t *input2, int32_t *output);

/* Element-wise minimum and maximum of raw values (quantization is not looked at). */
int32_t opbridge_minimum_s8(const opbridge_broadcast_4d *params, const int8_t *input1, const int8_t *input2,
                            int8_t *output);
int32_t opbridge_minimum_s16(const opbridge_broadcast_4d *params, const int16_t *input1, const int16_t *input2,
                             int16_t *output);
int32_t opbridge_minimum_s32(const opbridge_broadcast_4d *params, const int32_t *input1, const int32_t *input2,
                             int32_t *output);
int32_t opbridge_maximum_s8(const opbridge_broadcast_4d *params, const int8_t *input1, const int8_t *input2,
                            int8_t *output);
int32_t opbridge_maximum_s16(const opbridge_broadcast_4d *params, const int16_t *input1, const int16_t *input2,
                             int16_t *output);
int32_t opbridge_maximum_s32(const opbridge_broadcast_4d *params, const int32_t *input1, const int32_t *input2,
                             int32_t *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_KERNELS_INT_H_ */
