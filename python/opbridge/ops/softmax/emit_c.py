# SPDX-License-Identifier: Apache-2.0
"""SOFTMAX -> opbridge_softmax_s8, opbridge_softmax_s8_s16, opbridge_softmax_s16 or opbridge_softmax_f32."""

import numpy as np

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode, constants_placement
from opbridge.backends.c.kernel_call import CExpression, FloatValue, KernelCall, ParamStruct, fields
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Node
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import require_dtype, require_quantization
from opbridge.ops.softmax.reference import (
    int8_input_output_bits,
    int16_exp_lut,
    int16_one_over_one_plus_x_lut,
    int16_quantizations,
    int16_softmax_parameters,
    softmax_parameters,
)

S16_KERNELS_HEADER = "cc/kernels/opbridge_kernels_s16.h"


def int16_table(ctx: EmitContext, node: Node, name: str, values: np.ndarray) -> tuple[str, str]:
    """(definition, symbol) of a static const int16_t table of `node`."""
    symbol = ctx.local_symbol(node, name)
    entries = ", ".join(str(int(v)) for v in values)
    return f"{constants_placement(ctx.prefix)} static const int16_t {symbol}[{len(values)}] = {{{entries}}};", symbol


def emit_int16_softmax(ctx: EmitContext, node: Node) -> NodeCode:
    """16x8: the two tables TFLite Micro builds at Prepare are computed here and emitted as constants."""
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    input_q = int16_quantizations(node, input_tensor, output)
    multiplier, shift = int16_softmax_parameters(node.attributes.beta, input_q.scale)
    exp_definition, exp_symbol = int16_table(ctx, node, "exp_lut", int16_exp_lut())
    reciprocal_definition, reciprocal_symbol = int16_table(
        ctx, node, "one_over_one_plus_x_lut", int16_one_over_one_plus_x_lut()
    )
    depth = input_tensor.shape[-1]
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_softmax_s16_params",
        params_symbol,
        fields(
            rows=input_tensor.element_count // depth,
            depth=depth,
            input_multiplier=multiplier,
            input_shift=shift,
            exp_lut=CExpression(exp_symbol),
            one_over_one_plus_x_lut=CExpression(reciprocal_symbol),
        ),
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall("opbridge_softmax_s16", params, (source, target))
    return NodeCode(includes=[S16_KERNELS_HEADER], definitions=[exp_definition, reciprocal_definition], call=call)


def emit_float32_softmax(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    require_float32(node, [("input", input_tensor), ("output", output)])
    if not input_tensor.shape or input_tensor.shape[-1] < 1:
        raise UnsupportedTensorError(
            f"{node.describe()}: input {input_tensor.describe()} has no last axis to normalise over",
            hint="reshape it to at least [1]",
        )
    depth = input_tensor.shape[-1]
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_softmax_f32_params",
        params_symbol,
        fields(rows=input_tensor.element_count // depth, depth=depth, beta=FloatValue(node.attributes.beta)),
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall("opbridge_softmax_f32", params, (source, target))
    return NodeCode(includes=[F32_KERNELS_HEADER], call=call)


def emit_softmax(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor = graph.tensor(node.inputs[0])
    output = graph.tensor(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_float32_softmax(ctx, node)
    if input_tensor.dtype is DType.INT16:
        return emit_int16_softmax(ctx, node)
    require_dtype(node, input_tensor, "input")
    input_q = require_quantization(node, input_tensor, "input")
    # int8, or int16 (TFLite's int8 -> int16 softmax): the same kernel and parameters, another output type.
    function = "opbridge_softmax_s8" if int8_input_output_bits(node, output) == 8 else "opbridge_softmax_s8_s16"
    multiplier, left_shift, diff_min = softmax_parameters(node.attributes.beta, input_q.scale)
    depth = input_tensor.shape[-1]
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_softmax_s8_params",
        params_symbol,
        fields(
            rows=input_tensor.element_count // depth,
            depth=depth,
            input_multiplier=multiplier,
            input_left_shift=left_shift,
            diff_min=diff_min,
        ),
    )
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    call = KernelCall(function, params, (source, target))
    return NodeCode(includes=[KERNELS_HEADER], call=call)
