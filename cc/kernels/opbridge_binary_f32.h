/* SPDX-License-Identifier: Apache-2.0 */
/* float32 PRELU and POW with 4-D broadcasting (TFLite's float kernels; see
 * python/opbridge/ops/prelu/reference.py and pow/reference.py). They take the
 * opbridge_broadcast_4d of MINIMUM and MAXIMUM (opbridge_kernels_int.h) and
 * visit the output in order.
 *
 * PRELU: input1 >= 0 ? input1 : input1 * input2 (TFLite Micro's comparison:
 * -0.0 passes unchanged, NaN takes the product; one float32 multiply, so it
 * equals the reference bit for bit).
 *
 * POW: powf(input1, input2). libm's powf may round an ulp away from the
 * reference (pow in float64, rounded once to float32). A finite base below 0
 * with a finite non-integer exponent gives the quiet NaN 0x7FC00000 on every
 * platform (ARM's default NaN; x86's has the sign bit set): golden programs
 * write every expected NaN as __builtin_nanf("") and compare float32 bits.
 * NaN operands propagate as libm propagates them. */
#ifndef OPBRIDGE_BINARY_F32_H_
#define OPBRIDGE_BINARY_F32_H_

#include <stdint.h>

#include "cc/kernels/opbridge_kernels_int.h"
#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* input1 is PRELU's input, input2 its alpha (slope). */
int32_t opbridge_prelu_f32(const opbridge_broadcast_4d *params, const float *input1, const float *input2,
                           float *output);
/* input1 is POW's base, input2 its exponent. */
int32_t opbridge_pow_f32(const opbridge_broadcast_4d *params, const float *input1, const float *input2,
                         float *output);

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_BINARY_F32_H_ */
