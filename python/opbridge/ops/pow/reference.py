# SPDX-License-Identifier: Apache-2.0
"""POW: reference implementation, TFLite's std::pow on float32 (powf), computed in float64 and rounded once.

Why float64: it is portable and within an ulp of every libm's powf. glibc's powf
(TFLite and the C kernel on the host) differs from it by 1 ulp on about 0.05% of
random operands and by nothing on the edge values (signed zeros, infinities, NaN,
overflow, subnormals); NumPy's float32 np.power (SIMD, not libm) differs from
powf on about 20%. The op tests allow 1 ulp against TFLite and the C kernel.

A finite base below 0 with a finite non-integer exponent (pow's domain error)
gives the host's default NaN, as TFLite on the host does (0xFFC00000 on x86); the
C kernel writes 0x7FC00000 on every platform, the NaN golden programs expect
(see cc/kernels/opbridge_binary_f32.h). NaN operands propagate (pow(NaN, 0) and
pow(1, NaN) are 1, as C99 defines them).
"""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference


def float32_pow(base: Array, exponent: Array) -> Array:
    """pow in float64 (exact for float32 operands but for its last-bit error), rounded once to float32."""
    with np.errstate(all="ignore"):  # the domain error's NaN and overflow to inf, as in C
        wide = np.power(np.asarray(base, dtype=np.float64), np.asarray(exponent, dtype=np.float64))
        return wide.astype(np.float32)


def pow_reference(call: ReferenceCall) -> list[Array]:
    return float32_binary_reference(call, float32_pow, None)
