# SPDX-License-Identifier: Apache-2.0
"""SHAPE: C emitter. The sizes are known at conversion time, so the C stores them; no kernel.

Conversion folds SHAPE into a constant (frontends/litert/static_shapes.py); this runs only for a SHAPE that
writes a graph output, which folding leaves computed."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node

_C_TYPES = {DType.INT32: "int32_t", DType.INT64: "int64_t"}


def emit_shape(ctx: EmitContext, node: Node) -> NodeCode:
    source, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    if -1 in source.shape:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {source.describe()} has a size known only at run time",
            hint="give the model's inputs static shapes (batch 1)",
        )
    c_type = _C_TYPES[output.dtype]
    values = ", ".join(str(size) for size in source.shape)
    statements = [
        f"static const {c_type} sizes[{len(source.shape)}] = {{{values}}};",
        f"memcpy({ctx.pointer(node.outputs[0])}, sizes, sizeof(sizes));",
        "status = 0;",
    ]
    return NodeCode(includes=["string.h", "stdint.h"], statements=statements)
