# SPDX-License-Identifier: Apache-2.0
"""LOG: reference implementation, TFLite Micro's std::log on float32, computed in float64 and rounded once
(libm's logf is within an ulp of it): -inf for +-0, NaN below 0 and for -inf (the host's default NaN, as TFLite
Micro on the host; the C kernel writes 0x7FC00000 everywhere, see cc/kernels/opbridge_math_f32.h)."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference


def float32_log(values: Array) -> Array:
    """log in float64 (where float32's subnormals are normal), rounded once to float32."""
    return np.log(np.asarray(values, dtype=np.float64)).astype(np.float32)


def log_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, float32_log)
