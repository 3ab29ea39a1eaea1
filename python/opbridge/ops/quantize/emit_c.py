# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE: C emitter."""

from opbridge.backends.c.emit_context import KERNELS_HEADER, EmitContext, NodeCode
from opbridge.backends.c.kernel_call import KernelCall, ParamStruct, fields
from opbridge.ir import DType, Node
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.quantize.reference import output_quantization, requantization_of, requantize_parameters
from opbridge.ops.quantize.schema import QUANTIZE_INPUT_DTYPES, QUANTIZE_OUTPUT_DTYPES
from opbridge.ops.shared.emit_elementwise import KERNEL_SUFFIXES, emit_requantize
from opbridge.ops.shared.quantized import require_dtype

# float32 -> int16.
S16_KERNELS_HEADER = "cc/kernels/opbridge_kernels_s16.h"
# Every integer requantization but int8 -> int8 (emit_requantize's, in KERNELS_HEADER).
QUANTIZE_HEADER = "cc/kernels/opbridge_quantize.h"
# The kernels' names for each element type: opbridge_requantize_<input>_<output>.
SUFFIXES = {**KERNEL_SUFFIXES, DType.UINT8: "u8"}


def emit_quantize(ctx: EmitContext, node: Node) -> NodeCode:
    input_tensor, output = ctx.graph.tensor(node.inputs[0]), ctx.graph.tensor(node.outputs[0])
    require_dtype(node, input_tensor, "input", QUANTIZE_INPUT_DTYPES)
    require_dtype(node, output, "output", QUANTIZE_OUTPUT_DTYPES)
    source, target = ctx.pointer(node.inputs[0]), ctx.pointer(node.outputs[0])
    if input_tensor.dtype is DType.FLOAT32:
        output_q = output_quantization(node, output)
        half_to_even = int(requantization_of(node) is Requantization.ONNX)
        kernel = f"opbridge_quantize_f32_{SUFFIXES[output.dtype]}"
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
    rescale = requantize_parameters(node, input_tensor, output)
    if input_tensor.dtype is DType.INT8 and output.dtype is DType.INT8:
        return emit_requantize(
            ctx,
            node,
            rescale.input_zero_point,
            rescale.multiplier,
            rescale.shift,
            rescale.output_zero_point,
            rescale.low,
            rescale.high,
        )
    params = ParamStruct(
        "opbridge_requantize_s8_params",
        ctx.local_symbol(node, "params"),
        fields(
            size=input_tensor.element_count,
            input_offset=-rescale.input_zero_point,
            output_offset=rescale.output_zero_point,
            multiplier=rescale.multiplier,
            shift=rescale.shift,
            activation_min=rescale.low,
            activation_max=rescale.high,
        ),
    )
    kernel = f"opbridge_requantize_{SUFFIXES[input_tensor.dtype]}_{SUFFIXES[output.dtype]}"
    return NodeCode(includes=[QUANTIZE_HEADER], call=KernelCall(kernel, params, (source, target)))
