# SPDX-License-Identifier: Apache-2.0
"""ZEROS_LIKE -> opbridge_zeros_like (cc/kernels/opbridge_zeros_like.h): the output's bytes cleared."""

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Node
from opbridge.ops.zeros_like.schema import ZEROS_LIKE_DTYPES

HEADER = "cc/kernels/opbridge_zeros_like.h"


def emit_zeros_like(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    if output.dtype not in ZEROS_LIKE_DTYPES or output.dtype is not input_tensor.dtype:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()}; ZEROS_LIKE takes "
            f"{', '.join(d.value for d in ZEROS_LIKE_DTYPES)}, the same for its input and output",
            hint="TFLite Micro's ZEROS_LIKE gives its input's dtype",
        )
    if input_tensor.element_count != output.element_count:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} and output {output.describe()} differ in size",
            hint="ZEROS_LIKE's output has its input's shape; the model is inconsistent",
        )
    call = KernelCall("opbridge_zeros_like", None, (output.bytes, ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[HEADER], call=call)
