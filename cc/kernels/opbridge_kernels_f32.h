/*
 * float32 kernels of the built-in operators (TFLite Micro's float reference
 * semantics). Each kernel accumulates in the order the NumPy reference
 * (python/opbridge/ops/<op>/reference.py) does, so the two agree bit for bit
 * except where libm's transcendental functions (expf, tanhf) round differently.
 * Emitted code and these kernels are C99: GCC then does not contract a*b+c
 * into a fused multiply-add, which would round differently from NumPy.
 */
#ifndef OPBRIDGE_KERNELS_F32_H_
#define OPBRIDGE_KERNELS_F32_H_

#include <stddef.h>
#include <stdint.h>

#include "cc/kernels/opbridge_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Convolutions, fully connected, transpose, pad ------------------------ */

/* --- Element-wise arithmetic, activations, pooling, mean, softmax --------- */

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_KERNELS_F32_H_ */
