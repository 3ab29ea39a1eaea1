# SPDX-License-Identifier: Apache-2.0
"""TANH: reference implementation."""

from opbridge.ir import DType
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.logistic.reference import saturating_activation
from opbridge.ops.shared.float32 import float32_tanh, float32_unary_reference


def tanh_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_unary_reference(call, float32_tanh)
    return [saturating_activation(call, "tanh")]
