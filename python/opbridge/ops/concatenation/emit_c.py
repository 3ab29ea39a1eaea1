# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION: C emitter."""

import numpy as np

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import Activation
from opbridge.ops.concatenation.attributes import CONCATENATION_DTYPES
from opbridge.ops.shared.quantized import require_quantization


def concatenation_slices(graph: Graph, node: Node) -> list[int] | None:
    """Each input's byte offset in the output when the inputs are contiguous slices of it: every
    dimension before the axis is 1 (NodeMemory.output_slices)."""
    output = graph.tensor(node.outputs[0])
    axis = node.attributes.axis % len(output.shape)
    if any(size != 1 for size in output.shape[:axis]) or any(index is None for index in node.inputs):
        return None
    offsets, at = [], 0
    for index in node.inputs:
        tensor = graph.tensor(index)
        if tensor.dtype is not output.dtype or tensor.quantization != output.quantization:
            return None
        offsets.append(at)
        at += tensor.bytes
    return offsets


def emit_concatenation(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    output = graph.tensor(node.outputs[0])
    if node.attributes.activation is not Activation.NONE:
        raise UnsupportedOperatorError(f"{node.describe()}: a fused activation", hint="TFLite allows none here")
    if output.dtype not in CONCATENATION_DTYPES:
        raise UnsupportedTensorError(
            f"{node.describe()}: output {output.describe()} is {output.dtype.value}; CONCATENATION supports "
            f"{', '.join(d.value for d in CONCATENATION_DTYPES)}",
            hint="these are the types TFLite Micro's CONCATENATION takes",
        )
    output_q = require_quantization(node, output, "output") if output.dtype is DType.INT8 else None
    axis = node.attributes.axis % len(output.shape)
    outer = int(np.prod(output.shape[:axis], dtype=np.int64))
    inner = int(np.prod(output.shape[axis + 1 :], dtype=np.int64))
    slices = concatenation_slices(graph, node)
    statements = [f"uint8_t *target = (uint8_t *){ctx.pointer(node.outputs[0])};"]
    statements.append(f"for (int32_t outer = 0; outer < {outer}; ++outer) {{")
    for position, index in enumerate(node.inputs):
        tensor = graph.tensor(index)
        if tensor.dtype is not output.dtype:
            raise UnsupportedTensorError(
                f"{node.describe()}: input {position} {tensor.describe()} is not {output.dtype.value} like the output",
                hint="TFLite Micro's CONCATENATION joins tensors of one type",
            )
        if output_q is not None and require_quantization(node, tensor, f"input {position}") != output_q:
            raise UnsupportedTensorError(
                f"{node.describe()}: input {position} {tensor.describe()} is quantized unlike the output",
                hint="TFLite Micro's int8 CONCATENATION requires equal scales and zero points",
            )
        block = tensor.shape[axis] * inner * tensor.dtype.itemsize  # bytes per outer index
        if slices is not None and ctx.in_slice(index, node.outputs[0], slices[position]):
            statements.append(f"  /* input {position} was written in its place by its producer */")
        else:
            statements.append(
                f"  memcpy(target, (const uint8_t *){ctx.pointer(index)} + (size_t)outer * {block}u, {block}u);"
            )
        statements.append(f"  target += {block};")
    statements += ["}", "status = 0;"]
    if not any("memcpy" in line for line in statements):
        statements = ["/* Every input was written in its place in the output by its producer. */", "status = 0;"]
    return NodeCode(includes=["string.h"], statements=statements)
