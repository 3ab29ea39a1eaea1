# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.ir import DType, Node
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.quantize.reference import OUTPUT_RANGES, output_quantization, requantization_of
from opbridge.ops.quantize.schema import QUANTIZE_OUTPUT_DTYPES
from opbridge.ops.shared.emit_elementwise import KERNEL_SUFFIXES, emit_requantize
from opbridge.ops.shared.quantized import require_dtype, require_quantization
from opbridge.quantization.fixed_point import quantize_multiplier

S16_KERNELS_HEADER = "cc/kernels/opbridge_kernels_s16.h"


def emit_quantize(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    require_dtype(node, input_tensor, "input", (DType.FLOAT32, DType.INT8, DType.INT16))
    require_dtype(node, output, "output", QUANTIZE_OUTPUT_DTYPES)
    output_q = output_quantization(node, output)
    low, high = OUTPUT_RANGES[output.dtype]
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        half_to_even = int(requantization_of(node) is Requantization.ONNX)
        kernel = f"opbridge_quantize_f32_{KERNEL_SUFFIXES[output.dtype]}"
        call = KernelCall(
            kernel,
            None,
            (
                input_tensor.element_count,
                f"{float(output_q.scale)!r}f",
                output_q.zero_point,
                half_to_even,
                source,
                target,
            ),
        )
        header = KERNELS_HEADER if output.dtype is DType.INT8 else S16_KERNELS_HEADER
        return NodeCode(includes=[header], call=call)
    input_q = require_quantization(node, input_tensor, "input")
    multiplier, shift = quantize_multiplier(input_q.scale / output_q.scale)
    if input_tensor.dtype is DType.INT8 and output.dtype is DType.INT8:
        return emit_requantize(ctx, node, input_q.zero_point, multiplier, shift, output_q.zero_point, low, high)
    params_symbol = ctx.local_symbol(node, "params")
    params = ParamStruct(
        "opbridge_requantize_s8_params",
        params_symbol,
        fields(
            size=input_tensor.element_count,
            input_offset=-input_q.zero_point,
            output_offset=output_q.zero_point,
            multiplier=multiplier,
            shift=shift,
            activation_min=low,
            activation_max=high,
        ),
    )
    kernel = f"opbridge_requantize_{KERNEL_SUFFIXES[input_tensor.dtype]}_{KERNEL_SUFFIXES[output.dtype]}"
    call = KernelCall(kernel, params, (source, target))
    return NodeCode(includes=[S16_KERNELS_HEADER], call=call)
