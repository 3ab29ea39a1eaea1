# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE: reference implementation."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.quantized import require_quantization


def dequantize_reference(call: ReferenceCall) -> list[Array]:
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    centred = (call.value(0).astype(np.int32) - input_q.zero_point).astype(np.float32)
    # One float32 multiply of exact operands: the correctly rounded product, as in C.
    return [(np.float32(input_q.scale) * centred).astype(np.float32)]
