"""MEAN on int8 over constant axes (TFLite Micro's sum-then-rescale algorithm)."""

import dataclasses
from typing import Any

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.lowering import KERNELS_HEADER, LoweringContext, NodeCode, c_int_list
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import Graph, Node
from opbridge.ops.common import INT8_MAX, INT8_MIN, require_dtype, require_quantization
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier


@dataclasses.dataclass(frozen=True)
class MeanAttributes:
    keep_dims: bool = False


def parse_litert_options(operator: Any) -> MeanAttributes:
    table = operator.BuiltinOptions()
    if table is None:
        return MeanAttributes()
    options = tflite.ReducerOptions()
    options.Init(table.Bytes, table.Pos)
    return MeanAttributes(keep_dims=bool(options.KeepDims()))


@dataclasses.dataclass(frozen=True)
class MeanParameters:
    axes: tuple[int, ...]
    count: int
    multiplier: int
    shift: int


def mean_parameters(graph: Graph, node: Node) -> MeanParameters:
    input_tensor = graph.tensor(node.inputs[0])
    axes_tensor = graph.tensor(node.inputs[1])
    if axes_tensor.data is None:
        raise UnsupportedTensorError(f"{node.describe()}: the axes must be a constant", hint="fold them")
    rank = len(input_tensor.shape)
    axes = tuple(sorted({int(a) % rank for a in axes_tensor.data.ravel()}))
    count = int(np.prod([input_tensor.shape[a] for a in axes], dtype=np.int64))
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, graph.tensor(node.outputs[0]), "output")
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    # Fold 1/count into the multiplier, keeping as many bits as TFLite Micro does.
    bits = min(count.bit_length() - 1, 32, 31 + shift)
    return MeanParameters(axes, count, (multiplier << bits) // count, shift - bits)


def mean_reference(call: ReferenceCall) -> list[Array]:
    p = mean_parameters(call.graph, call.node)
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    sums = call.value(0).astype(np.int64).sum(axis=p.axes)
    centred = sums - input_q.zero_point * p.count
    scaled = multiply_by_quantized_multiplier(centred, p.multiplier, p.shift) + output_q.zero_point
    return [np.clip(scaled, INT8_MIN, INT8_MAX).astype(np.int8).reshape(output.shape)]


def lower_mean(ctx: LoweringContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    require_dtype(node, input_tensor, "input")
    require_dtype(node, output, "output")
    if len(input_tensor.shape) > 4:
        raise UnsupportedTensorError(f"{node.describe()}: rank {len(input_tensor.shape)} > 4", hint="reshape to 4-D")
    p = mean_parameters(graph, node)
    lead = 4 - len(input_tensor.shape)
    reduce = [0] * lead + [1 if axis in p.axes else 0 for axis in range(len(input_tensor.shape))]
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, output, "output")
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_mean_s8_params {params_symbol} = {{
    .input_shape = {{{c_int_list((1,) * lead + input_tensor.shape)}}},
    .reduce = {{{c_int_list(reduce)}}},
    .output_size = {output.element_count},
    .count = {p.count},
    .input_zero_point = {input_q.zero_point},
    .output_zero_point = {output_q.zero_point},
    .multiplier = {p.multiplier},
    .shift = {p.shift},
}};"""
    call = (
        f"status = opbridge_mean_s8(&{params_symbol}, {ctx.pointer(node.inputs[0])}, "
        f"{ctx.scratch_pointer(node, 'int32_t')}, {ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[KERNELS_HEADER], definitions=[params], statements=[call])


def mean_scratch_bytes(graph: Graph, node: Node) -> int:
    """One int32 sum per output element (opbridge_mean_s8_get_buffer_size)."""
    return 4 * graph.tensor(node.outputs[0]).element_count


MEAN = OperatorDefinition(
    op_type="MEAN",
    reference=mean_reference,
    litert_builtin_code=BuiltinOperator.MEAN,
    litert_versions=frozenset({1, 2, 3}),
    parse_litert_options=parse_litert_options,
    lower_c=lower_mean,
    scratch_bytes=mean_scratch_bytes,
    doc=__doc__ or "",
)
