"""MEAN over constant axes: int8 (TFLite Micro's sum-then-rescale algorithm) or float32.

float32 is TFLite Micro's float reference: each output is 0 plus its inputs
in row-major order (one float32 rounding per addition), divided by their
count. The reference adds column by column in that order, never with np.sum.
"""

import dataclasses
from typing import Any

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode, c_int_list
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ops.common import INT8_MAX, INT8_MIN, require_dtype, require_quantization
from opbridge.ops.definition import Array, OperatorDefinition, ReferenceCall
from opbridge.ops.elementwise import F32_KERNELS_HEADER, require_float32
from opbridge.ops.mean.attributes import MeanAttributes
from opbridge.ops.mean.schema import MEAN_SCHEMA
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier


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


def mean_axes(graph: Graph, node: Node) -> tuple[tuple[int, ...], int]:
    """(the reduced axes, sorted, without repeats; the number of elements averaged into each output)."""
    input_tensor = graph.tensor(node.inputs[0])
    axes_tensor = graph.tensor(node.inputs[1])
    if axes_tensor.data is None:
        raise UnsupportedTensorError(f"{node.describe()}: the axes must be a constant", hint="fold them")
    rank = len(input_tensor.shape)
    axes = tuple(sorted({int(a) % rank for a in axes_tensor.data.ravel()})) if rank else ()
    return axes, int(np.prod([input_tensor.shape[a] for a in axes], dtype=np.int64))


def mean_parameters(graph: Graph, node: Node) -> MeanParameters:
    input_tensor = graph.tensor(node.inputs[0])
    axes, count = mean_axes(graph, node)
    input_q = require_quantization(node, input_tensor, "input")
    output_q = require_quantization(node, graph.tensor(node.outputs[0]), "output")
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    # Fold 1/count into the multiplier, keeping as many bits as TFLite Micro does.
    bits = min(count.bit_length() - 1, 32, 31 + shift)
    return MeanParameters(axes, count, (multiplier << bits) // count, shift - bits)


def float32_mean_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    require_float32(call.node, [("input", call.input_tensor(0)), ("output", output)])
    axes, count = mean_axes(call.graph, call.node)
    values = np.asarray(call.value(0), dtype=np.float32)
    kept = [axis for axis in range(values.ndim) if axis not in axes]
    # One row per output, its reduced elements in row-major order as the kernel visits them.
    rows = np.transpose(values, kept + list(axes)).reshape(-1, count)
    total = np.zeros(rows.shape[0], dtype=np.float32)
    with np.errstate(all="ignore"):
        for column in range(count):
            total = total + rows[:, column]
        return [(total / np.float32(count)).astype(np.float32).reshape(output.shape)]


def mean_reference(call: ReferenceCall) -> list[Array]:
    if call.input_tensor(0).dtype is DType.FLOAT32:
        return float32_mean_reference(call)
    p = mean_parameters(call.graph, call.node)
    input_q = require_quantization(call.node, call.input_tensor(0), "input")
    output = call.outputs[0]
    output_q = require_quantization(call.node, output, "output")
    sums = call.value(0).astype(np.int64).sum(axis=p.axes)
    centred = sums - input_q.zero_point * p.count
    scaled = multiply_by_quantized_multiplier(centred, p.multiplier, p.shift) + output_q.zero_point
    return [np.clip(scaled, INT8_MIN, INT8_MAX).astype(np.int8).reshape(output.shape)]


def emit_float32_mean(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    require_float32(node, [("input", input_tensor), ("output", output)])
    if len(input_tensor.shape) > 4:
        raise UnsupportedTensorError(f"{node.describe()}: rank {len(input_tensor.shape)} > 4", hint="reshape to 4-D")
    axes, count = mean_axes(graph, node)
    lead = 4 - len(input_tensor.shape)
    reduce = [0] * lead + [1 if axis in axes else 0 for axis in range(len(input_tensor.shape))]
    params_symbol = ctx.local_symbol(node, "params")
    params = f"""static const opbridge_mean_f32_params {params_symbol} = {{
    .input_shape = {{{c_int_list((1,) * lead + input_tensor.shape)}}},
    .reduce = {{{c_int_list(reduce)}}},
    .output_size = {output.element_count},
    .count = {count},
}};"""
    call = (
        f"status = opbridge_mean_f32(&{params_symbol}, {ctx.pointer(node.inputs[0])}, {ctx.pointer(node.outputs[0])});"
    )
    return NodeCode(includes=[F32_KERNELS_HEADER], definitions=[params], statements=[call])


def emit_mean(ctx: EmitContext, node: Node) -> NodeCode:
    graph = ctx.graph
    input_tensor, output = graph.tensor(node.inputs[0]), graph.tensor(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        return emit_float32_mean(ctx, node)
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
    """int8: one int32 sum per output element (opbridge_mean_s8_get_buffer_size); float32 sums in the output."""
    if graph.tensor(node.inputs[0]).dtype is DType.FLOAT32:
        return 0
    return 4 * graph.tensor(node.outputs[0]).element_count


MEAN = OperatorDefinition(
    op_type="MEAN",
    reference=mean_reference,
    litert_builtin_code=BuiltinOperator.MEAN,
    litert_versions=frozenset({1, 2, 3}),
    parse_litert_options=parse_litert_options,
    emit_c=emit_mean,
    scratch_bytes=mean_scratch_bytes,
    doc=__doc__ or "",
    schema=MEAN_SCHEMA,
)
