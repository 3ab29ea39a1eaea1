# SPDX-License-Identifier: Apache-2.0
"""MINIMUM and MAXIMUM, which share one reference and one emitter (int8, int16, int32, float32)."""

from collections.abc import Callable

import numpy as np

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.shared.emit_elementwise import KERNEL_SUFFIXES, emit_float32_binary, emit_int_binary
from opbridge.ops.shared.float32 import float32_binary_reference
from opbridge.ops.shared.integer import broadcast_binary_reference, plain_integer_operands

# MINIMUM and MAXIMUM: raw values compared, whatever the quantization (as TFLite Micro does).
MIN_MAX_DTYPES = (DType.INT8, DType.INT16, DType.INT32, DType.FLOAT32)


def float32_minimum(first: Array, second: Array) -> Array:
    """TFLite Micro's MinimumOp, a < b ? a : b (a NaN in either gives b; np.minimum would give the NaN)."""
    return np.where(first < second, first, second)


def float32_maximum(first: Array, second: Array) -> Array:
    """TFLite Micro's MaximumOp, a > b ? a : b."""
    return np.where(first > second, first, second)


def min_max_reference(call: ReferenceCall, choose: Callable[[Array, Array], Array]) -> list[Array]:
    """MINIMUM (choose=np.minimum) or MAXIMUM (np.maximum) of two broadcast inputs."""
    if call.outputs[0].dtype is DType.FLOAT32:
        float_choose = float32_minimum if choose is np.minimum else float32_maximum
        return float32_binary_reference(call, float_choose, None)
    dtype = plain_integer_operands(
        call.node, call.input_tensor(0), call.input_tensor(1), call.outputs[0], MIN_MAX_DTYPES
    )
    return broadcast_binary_reference(call, choose, dtype)


def emit_min_max(ctx: EmitContext, node: Node, name: str) -> NodeCode:
    """MINIMUM or MAXIMUM (`name` is "minimum" or "maximum") -> opbridge_<name>_<s8|s16|s32|f32>."""
    graph = ctx.graph
    if graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, f"opbridge_{name}_f32", None)
    dtype = plain_integer_operands(
        node, graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1]), graph.tensor(node.outputs[0]), MIN_MAX_DTYPES
    )
    return emit_int_binary(ctx, node, f"opbridge_{name}_{KERNEL_SUFFIXES[dtype]}", None)
