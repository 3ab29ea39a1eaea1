"""SUB: element-wise difference of two int8 tensors with their own scales, or of two float32 tensors (broadcasting)."""

from typing import Any

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.ir import DType, Node, Quantization
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.add.emit_c import emit_add_or_sub
from opbridge.ops.add.reference import LEFT_SHIFT, AddParameters, add_or_sub_reference
from opbridge.ops.common import float32, float32_divide, litert_activation
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.elementwise import emit_float32_binary, float32_binary_reference
from opbridge.ops.sub.schema import SUB_SCHEMA
from opbridge.quantization.fixed_point import quantize_multiplier


def sub_parameters(first_q: Quantization, second_q: Quantization, output_q: Quantization) -> AddParameters:
    """As ADD's, but TFLite Micro computes SUB's ratios in float32, then widens them."""
    twice_max = float32(2.0 * float32(max(first_q.scale, second_q.scale)))
    first = quantize_multiplier(float32_divide(first_q.scale, twice_max))
    second = quantize_multiplier(float32_divide(second_q.scale, twice_max))
    output = quantize_multiplier(float32_divide(twice_max, float32((1 << LEFT_SHIFT) * output_q.scale)))
    return AddParameters(*first, *second, *output)


def sub_reference(call: ReferenceCall) -> list[Array]:
    if call.outputs[0].dtype is DType.FLOAT32:
        return float32_binary_reference(call, np.subtract, call.attributes.activation)
    return add_or_sub_reference(call, sub_parameters, sign=-1)


def emit_sub(ctx: EmitContext, node: Node) -> NodeCode:
    if ctx.graph.tensor(node.outputs[0]).dtype is DType.FLOAT32:
        return emit_float32_binary(ctx, node, "opbridge_sub_f32", node.attributes.activation)
    return emit_add_or_sub(ctx, node, sub_parameters, "opbridge_sub_s8")


def parse_litert_options(operator: Any) -> AddAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return AddAttributes()
    options = tflite.SubOptions()
    options.Init(table.Bytes, table.Pos)
    return AddAttributes(activation=litert_activation(options.FusedActivationFunction()))


SUB = OperatorDefinition(
    op_type="SUB",
    reference=sub_reference,
    litert_builtin_code=BuiltinOperator.SUB,
    litert_versions=frozenset({1, 2, 3}),
    parse_litert_options=parse_litert_options,
    emit_c=emit_sub,
    doc=__doc__ or "",
    schema=SUB_SCHEMA,
)
