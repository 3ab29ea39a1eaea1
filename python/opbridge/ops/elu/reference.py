# SPDX-License-Identifier: Apache-2.0
"""ELU: reference implementation, TFLite Micro's float32 ELU with a scale.

TFLite Micro computes x < 0 ? expm1f(x) : x (reference_ops::Elu through
TfLiteExpm1, std::expm1 on a float): expm1, not exp(x) - 1, so results near
0 keep their precision. NaN and -0.0 take the x branch. With ONNX's alpha the
expm1 is then multiplied by alpha in float32 (exact for TFLite's alpha 1).

expm1 is computed in float64 and rounded once to float32, a correctly
rounded expm1f but for rare double roundings. glibc 2.36's expm1f (which
TFLite Micro's Python runtime and the host C kernel call) is not correctly
rounded: checked over every negative float32, it differs from this on
4,616,836 of 2,139,095,039 inputs (0.22%), each by one ulp, never more.
"""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_unary_reference


def float32_expm1(values: Array) -> Array:
    """expm1 in float64, rounded once to float32 (libm's expm1f is within an ulp of it)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.expm1(np.asarray(values, dtype=np.float64)).astype(np.float32)


def float32_elu(values: Array, alpha: float) -> Array:
    """x < 0 ? alpha * expm1(x) : x, each step rounded to float32 as the C kernel rounds it."""
    values = np.asarray(values, dtype=np.float32)
    with np.errstate(all="ignore"):  # the x >= 0 lanes' expm1 may overflow; they are not taken
        scaled = np.float32(alpha) * float32_expm1(values)
    return np.where(values < np.float32(0.0), scaled, values).astype(np.float32)


def elu_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, lambda x: float32_elu(x, call.attributes.alpha))
