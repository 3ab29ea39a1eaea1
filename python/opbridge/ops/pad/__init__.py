"""PAD / PADV2 on int8: constant padding with the output zero point (or the given value)."""

import numpy as np
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.lowering import KERNELS_HEADER, LoweringContext, NodeCode, c_int_list
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Graph, Node
from opbridge.ops.common import require_dtype, require_quantization
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall

MAX_RANK = 5


def padding_and_value(graph: Graph, node: Node) -> tuple[np.ndarray, int]:
    """([rank, 2] paddings, pad value); the paddings must be a constant int32 tensor."""
    paddings = graph.tensor(node.inputs[1])
    if paddings.data is None:
        raise UnsupportedTensorError(
            f"{node.describe()}: paddings {paddings.describe()} must be a constant",
            hint="TFLite Micro plans PAD ahead of time; fold the paddings into the model",
        )
    output_q = require_quantization(node, graph.tensor(node.outputs[0]), "output")
    value = output_q.zero_point
    if len(node.inputs) > 2 and node.inputs[2] is not None:
        constant = graph.tensor(node.inputs[2])
        if constant.data is None:
            raise UnsupportedTensorError(f"{node.describe()}: the pad value must be a constant", hint="fold it")
        value = int(constant.data.ravel()[0])
    return paddings.data.astype(np.int64).reshape(-1, 2), value


def pad_reference(call: ReferenceCall) -> list[Array]:
    paddings, value = padding_and_value(call.graph, call.node)
    return [np.pad(call.value(0), [tuple(p) for p in paddings], constant_values=value).astype(np.int8)]


def lower_pad(ctx: LoweringContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    if len(input_tensor.shape) > MAX_RANK:
        raise UnsupportedTensorError(f"{node.describe()}: rank {len(input_tensor.shape)} > {MAX_RANK}")
    paddings, value = padding_and_value(graph, node)
    lead = MAX_RANK - len(input_tensor.shape)
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_pad_s8_params {params_symbol} = {{
    .input_shape = {{{c_int_list((1,) * lead + input_tensor.shape)}}},
    .output_shape = {{{c_int_list((1,) * lead + output.shape)}}},
    .padding_before = {{{c_int_list([0] * lead + [int(p[0]) for p in paddings])}}},
    .pad_value = {value},
}};"""
    call = f"status = opbridge_pad_s8(&{params_symbol}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.outputs[0])});"
    return NodeCode(includes=[KERNELS_HEADER], definitions=[params], statements=[call])


PAD = OperatorDefinition(
    op_type="PAD",
    reference=pad_reference,
    litert_builtin_code=BuiltinOperator.PAD,
    litert_versions=frozenset({1, 2, 3, 4}),
    lower_c=lower_pad,
    doc=__doc__ or "",
)

PADV2 = OperatorDefinition(
    op_type="PADV2",
    reference=pad_reference,
    litert_builtin_code=BuiltinOperator.PADV2,
    litert_versions=frozenset({1, 2, 3, 4}),
    lower_c=lower_pad,
    doc=__doc__ or "",
)
