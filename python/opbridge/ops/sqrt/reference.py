# SPDX-License-Identifier: Apache-2.0
"""SQRT: reference implementation, TFLite Micro's std::sqrt on float32. IEEE-754 requires sqrt to be correctly
rounded, so NumPy's float32 sqrt and sqrtf give the same bits: -0.0 for -0.0, NaN below 0 (the host's default
NaN, as TFLite Micro on the host; the C kernel writes 0x7FC00000 everywhere, see cc/kernels/opbridge_math_f32.h)."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference


def sqrt_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, np.sqrt)
