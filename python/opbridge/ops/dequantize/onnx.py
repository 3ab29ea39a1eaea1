# SPDX-License-Identifier: Apache-2.0
"""DEQUANTIZE from ONNX: DequantizeLinear (of a constant: a float32 constant)."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.quantized_helpers import bind_quantization, dequantized_constant, per_tensor
from opbridge.ir import DType
from opbridge.ops.definition import OnnxConverter


def convert_dequantize_linear(conversion: OnnxConversion, node: OnnxNode) -> None:
    """DequantizeLinear: of a constant, a float32 constant; of an int8 activation, DEQUANTIZE."""
    if int(node.attribute("block_size", 0)) != 0:
        raise node.unsupported("blocked quantization (block_size)", hint="quantize per tensor or per axis")
    x = conversion.value(node.inputs[0], node)
    tensor = conversion.tensor(x)
    if tensor.data is not None:
        conversion.add_tensor(node.outputs[0], DType.FLOAT32, tensor.shape, dequantized_constant(conversion, node))
        return
    quantization = per_tensor(conversion, node, 1, 2, "input")
    bind_quantization(conversion, node, x, quantization)
    conversion.emit("DEQUANTIZE", [x], None, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("DequantizeLinear", convert_dequantize_linear),)
