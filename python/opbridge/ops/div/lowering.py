"""DIV -> opbridge_div_s32 or opbridge_div_f32, with broadcasting as 4-D strides."""

from opbridge.backends.c.lowering import LoweringContext, NodeCode
from opbridge.ir import DType, Node
from opbridge.ops.div.reference import check_div
from opbridge.ops.elementwise import lower_float32_binary, lower_int_binary


def lower_div(ctx: LoweringContext, node: Node) -> NodeCode:
    graph = ctx.graph
    if graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return lower_float32_binary(ctx, node, "opbridge_div_f32", node.attributes.activation)
    check_div(node, graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1]), graph.tensor(node.outputs[0]))
    return lower_int_binary(ctx, node, "opbridge_div_s32", node.attributes.activation)
