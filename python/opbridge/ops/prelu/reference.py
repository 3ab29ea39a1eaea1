# SPDX-License-Identifier: Apache-2.0
"""PRELU: reference implementation, TFLite Micro's float BroadcastPrelu4DSlow.

x >= 0 ? x : x * alpha, one float32 multiply, alpha broadcast NumPy-style.
The comparison is >= (not LEAKY_RELU's >): -0.0 stays -0.0 whatever alpha's
sign, and NaN fails it and takes the product (NaN). x = -inf with alpha = 0
gives the FPU's default NaN (sign set on x86, clear on ARM), as MUL's inf * 0.
"""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_binary_reference


def float32_prelu(x: Array, alpha: Array) -> Array:
    return np.where(x >= np.float32(0.0), x, x * alpha)


def prelu_reference(call: ReferenceCall) -> list[Array]:
    return float32_binary_reference(call, float32_prelu, None)
