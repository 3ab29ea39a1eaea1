# SPDX-License-Identifier: Apache-2.0
"""SVDF -> opbridge_svdf_f32 / opbridge_svdf_s8_s16 / opbridge_svdf_s8_s8 (cc/kernels/opbridge_svdf.h).

The activation state lives in the node's persistent arena bytes, not in the variable tensor (which
gets no buffer): the module's init resets it as TFLite Micro's ResetVariableTensors does, and each
run carries it on."""

from opbridge.backends.c.emit_context import C_TYPES, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import CExpression, KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import Activation
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import require_dtype, require_quantization
from opbridge.ops.svdf.attributes import SvdfAttributes
from opbridge.ops.svdf.reference import STATE_INPUT, require_variable_state, svdf_tensor_multipliers

HEADER = "cc/kernels/opbridge_svdf.h"
ACTIVATION_CODES = {
    Activation.NONE: "OPBRIDGE_SVDF_ACTIVATION_NONE",
    Activation.RELU: "OPBRIDGE_SVDF_ACTIVATION_RELU",
    Activation.RELU_N1_TO_1: "OPBRIDGE_SVDF_ACTIVATION_RELU_N1_TO_1",
    Activation.RELU6: "OPBRIDGE_SVDF_ACTIVATION_RELU6",
}


def svdf_state_bytes(graph: Graph, node: Node) -> int:
    """The activation state's bytes: the node's persistent memory."""
    return graph.tensor(node.inputs[STATE_INPUT]).bytes


def state_reset_byte(graph: Graph, node: Node) -> int:
    """Every state byte after a reset: the zero point of an int8 state, else 0 (ResetVariableTensors)."""
    state = graph.tensor(node.inputs[STATE_INPUT])
    if state.dtype is DType.INT8 and state.quantization is not None:
        return state.quantization.zero_point & 0xFF
    return 0


def emit_svdf(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    attributes: SvdfAttributes = node.attributes
    x, feature, time = (graph.tensor(node.inputs[position]) for position in range(3))
    bias_index = node.inputs[3] if len(node.inputs) > 3 else None
    state, output = graph.tensor(node.inputs[STATE_INPUT]), graph.tensor(node.outputs[0])
    require_variable_state(node, state)
    batch, input_size = x.shape
    filters, memory = time.shape
    state_pointer = ctx.persistent_pointer(node, C_TYPES[state.dtype])
    init = [f"memset({ctx.persistent_pointer(node, 'uint8_t')}, {state_reset_byte(graph, node)}, {state.bytes}u);"]
    dimensions = fields(
        batch=batch, input_size=input_size, num_filters=filters, memory_size=memory, rank=attributes.rank
    )
    params_symbol = ctx.local_symbol(node, "params")
    operands = (
        *(ctx.pointer(index) for index in node.inputs[:3]),
        ctx.optional_pointer(bias_index),
        state_pointer,
        ctx.pointer(node.outputs[0]),
    )
    if x.dtype is DType.FLOAT32:
        require_float32(node, [("input", x), ("weights_feature", feature), ("weights_time", time), ("output", output)])
        params = ParamStruct(
            "opbridge_svdf_f32_params",
            params_symbol,
            (*dimensions, *fields(activation=CExpression(ACTIVATION_CODES[attributes.activation]))),
        )
        call = KernelCall("opbridge_svdf_f32", params, operands)
        return NodeCode([HEADER, "string.h"], init_statements=init, call=call)
    require_dtype(node, feature, "weights_feature")
    require_dtype(node, output, "output")
    if state.dtype not in (DType.INT16, DType.INT8) or time.dtype is not state.dtype:
        raise UnsupportedTensorError(
            f"{node.describe()}: an int8 SVDF with {time.dtype.value} weights_time and a {state.dtype.value} state",
            hint="int16 (or int8) weights_time and activation state, of the same type",
        )
    (feature_multiplier, feature_shift), (output_multiplier, output_shift) = svdf_tensor_multipliers(
        node, x, feature, time, state, output
    )
    params = ParamStruct(
        "opbridge_svdf_s8_params",
        params_symbol,
        (
            *dimensions,
            *fields(
                input_offset=-require_quantization(node, x, "input").zero_point,
                state_zero_point=require_quantization(node, state, "activation_state").zero_point,
                output_zero_point=require_quantization(node, output, "output").zero_point,
                feature_multiplier=feature_multiplier,
                feature_shift=feature_shift,
                output_multiplier=output_multiplier,
                output_shift=output_shift,
            ),
        ),
    )
    kernel = "opbridge_svdf_s8_s16" if state.dtype is DType.INT16 else "opbridge_svdf_s8_s8"
    call = KernelCall(kernel, params, operands)
    return NodeCode([HEADER, "string.h"], init_statements=init, call=call)
