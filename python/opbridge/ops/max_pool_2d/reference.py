# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's reference MAX_POOL_2D, int8 and float32: the largest value each window covers."""

from opbridge.ir import DType
from opbridge.ops.average_pool_2d.reference import float32_pool_reference, pool_reference
from opbridge.ops.definition import Array, ReferenceCall


def max_pool_2d_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_pool_reference(call, average=False)
    return pool_reference(call, lambda windows: windows.max(axis=(1, 2), initial=-128))
