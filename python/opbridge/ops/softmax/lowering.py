"""SOFTMAX -> opbridge_softmax_s8."""

from opbridge.backends.c.lowering import KERNELS_HEADER, LoweringContext, NodeCode
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Node
from opbridge.ops.common import require_dtype, require_quantization
from opbridge.ops.softmax.reference import softmax_parameters


def lower_softmax(ctx: LoweringContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor = graph.tensor(node.inputs[0])
    output = graph.tensor(node.outputs[0])
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    if output_q.zero_point != -128 or abs(output_q.scale - 1.0 / 256.0) > 1e-9:
        raise UnsupportedTensorError(
            f"{node.describe()}: int8 softmax output must have scale 1/256 and zero point -128, got {output_q}",
            hint="re-quantize the model; TFLite requires these output parameters",
        )
    multiplier, left_shift, diff_min = softmax_parameters(node.attributes.beta, input_q.scale)
    depth = input_tensor.shape[-1]
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_softmax_s8_params {params_symbol} = {{
    .rows = {input_tensor.element_count // depth},
    .depth = {depth},
    .input_multiplier = {multiplier},
    .input_left_shift = {left_shift},
    .diff_min = {diff_min},
}};"""
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = f"status = opbridge_softmax_s8(&{params_symbol}, {source}, {target});"
    return NodeCode(includes=[KERNELS_HEADER], definitions=[params], statements=[call])
