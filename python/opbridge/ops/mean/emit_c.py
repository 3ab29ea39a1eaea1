# SPDX-License-Identifier: Apache-2.0
"""MEAN: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import FloatValue, KernelCall, ParamStruct, fields, int_array
from opbridge.errors import UnsupportedTensorError
from opbridge.ir import DType, Graph, Node
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.mean.reference import mean_axes, mean_parameters, onnx_mean_scale
from opbridge.ops.shared.emit_elementwise import F32_KERNELS_HEADER
from opbridge.ops.shared.float32 import require_float32
from opbridge.ops.shared.quantized import require_dtype, require_quantization


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
    params = ParamStruct(
        "opbridge_mean_f32_params",
        params_symbol,
        fields(
            input_shape=int_array((1,) * lead + input_tensor.shape),
            reduce=int_array(reduce),
            output_size=output.element_count,
            count=count,
        ),
    )
    call = KernelCall("opbridge_mean_f32", params, (ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])))
    return NodeCode(includes=[F32_KERNELS_HEADER], call=call)


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
    # ONNX's output stage when the scale is set (> 0); TFLite's multiplier and shift otherwise.
    onnx = node.attributes.requantization is Requantization.ONNX
    scale = float(onnx_mean_scale(input_q, output_q, p.count)) if onnx else 0.0
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_mean_s8_params",
        params_symbol,
        fields(
            input_shape=int_array((1,) * lead + input_tensor.shape),
            reduce=int_array(reduce),
            output_size=output.element_count,
            count=p.count,
            input_zero_point=input_q.zero_point,
            output_zero_point=output_q.zero_point,
            multiplier=p.multiplier,
            shift=p.shift,
            scale=FloatValue(scale),
        ),
    )
    call = KernelCall(
        "opbridge_mean_s8",
        params,
        (ctx.pointer(node.inputs[0]), ctx.scratch_pointer(node, "int32_t"), ctx.pointer(node.outputs[0])),
    )
    return NodeCode(includes=[KERNELS_HEADER], call=call)


def mean_scratch_bytes(graph: Graph, node: Node) -> int:
    """int8: one int32 sum per output element (the kernel's `sum` scratch; the only definition of its
    size); float32 sums in the output."""
    if graph.tensor(node.inputs[0]).dtype is DType.FLOAT32:
        return 0
    return 4 * graph.tensor(node.outputs[0]).element_count
