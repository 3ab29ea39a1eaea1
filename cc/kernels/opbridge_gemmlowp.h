/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gemmlowp's fixed-point functions, as TFLite's int8 SOFTMAX, LOGISTIC and
 * TANH use them (internal to cc/kernels; python/opbridge/quantization/gemmlowp.py
 * is the NumPy twin). A value with N integer bits is an int32 with 31 - N
 * fractional bits; multiplying two is a saturating rounding doubling high
 * multiply, and the integer bits add.
 */
#ifndef OPBRIDGE_KERNELS_GEMMLOWP_H_
#define OPBRIDGE_KERNELS_GEMMLOWP_H_

#include <stdint.h>

int32_t opbridge_gemmlowp_multiply(int32_t a, int32_t b);
/* x * 2^exponent: saturating for exponent > 0, rounding for exponent < 0. */
int32_t opbridge_gemmlowp_multiply_by_power_of_two(int32_t x, int32_t exponent);
/* exp(a) for a <= 0 with `integer_bits` (<= 5) integer bits; 0 integer bits out. */
int32_t opbridge_gemmlowp_exp_on_negative_values(int32_t a, int32_t integer_bits);
/* 1 / (1 + a) for a in [0, 1), 0 integer bits in and out. */
int32_t opbridge_gemmlowp_one_over_one_plus_x(int32_t a);
/* (1 - a) / (1 + a) for a in [0, 1), 0 integer bits in and out. */
int32_t opbridge_gemmlowp_one_minus_x_over_one_plus_x(int32_t a);
/* logistic(a) and tanh(a) for a with 4 integer bits; 0 integer bits out. */
int32_t opbridge_gemmlowp_logistic(int32_t a);
int32_t opbridge_gemmlowp_tanh(int32_t a);

#endif /* OPBRIDGE_KERNELS_GEMMLOWP_H_ */
