# SPDX-License-Identifier: Apache-2.0
"""SOFTPLUS: reference implementation, log(1 + exp(x)) in float32 without overflow.

x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)), as onnxruntime computes ONNX
Softplus: exp never sees a positive argument, so it never overflows; large
x give x (+inf gives +inf), very negative x give exp(x) down to 0 (-inf gives
0), NaN stays NaN. Each step is one float32 rounding, as the C kernel's
expf, log1pf and addition are; exp and log1p are float64 rounded once (libm's
expf and log1pf are within an ulp of them).
"""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_exp, float32_unary_reference


def float32_log1p(values: Array) -> Array:
    """log1p in float64, rounded once to float32 (libm's log1pf is within an ulp of it)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log1p(np.asarray(values, dtype=np.float64)).astype(np.float32)


def float32_softplus(values: Array) -> Array:
    values = np.asarray(values, dtype=np.float32)
    positive = values > np.float32(0.0)
    # exp of -|x| for positive x, of x otherwise (NaN stays NaN): never above 1.
    tail = float32_log1p(float32_exp(np.where(positive, -values, values)))
    return np.where(positive, values + tail, tail).astype(np.float32)


def softplus_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, float32_softplus)
