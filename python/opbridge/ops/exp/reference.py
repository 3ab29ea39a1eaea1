# SPDX-License-Identifier: Apache-2.0
"""EXP: reference implementation, TFLite Micro's std::exp on float32, computed in float64 and rounded once
(libm's expf is within an ulp of it)."""

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.float32 import float32_exp, float32_unary_reference


def exp_reference(call: ReferenceCall) -> list[Array]:
    return float32_unary_reference(call, float32_exp)
