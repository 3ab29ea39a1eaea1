# SPDX-License-Identifier: Apache-2.0
"""QUANTIZE from ONNX: QuantizeLinear (float32 -> int8, halves to even)."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.quantized_helpers import UINT8_HINT, per_tensor
from opbridge.ir import DType
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.quantize.attributes import QuantizeAttributes


def convert_quantize_linear(conversion: OnnxConversion, node: OnnxNode) -> None:
    """QuantizeLinear(x float32, y_scale, y_zero_point int8) -> QUANTIZE (halves to even)."""
    if int(node.attribute("block_size", 0)) != 0:
        raise node.unsupported("blocked quantization (block_size)", hint="quantize per tensor")
    output_dtype = int(node.attribute("output_dtype", 0))
    if output_dtype not in (0, 3):  # 3: TensorProto.INT8
        raise node.unsupported(f"output_dtype={output_dtype}; opbridge quantizes to int8", hint=UINT8_HINT)
    if (len(node.inputs) < 3 or not node.inputs[2]) and output_dtype != 3:
        raise node.unsupported("no zero point: ONNX then quantizes to uint8", hint=UINT8_HINT)
    x = conversion.value(node.inputs[0], node)
    if conversion.tensor(x).dtype is not DType.FLOAT32:
        raise node.unsupported(f"input {conversion.tensor(x).describe()} is not float32")
    quantization = per_tensor(conversion, node, 1, 2, "output")
    attributes = QuantizeAttributes(requantization=Requantization.ONNX)
    conversion.emit("QUANTIZE", [x], attributes, name=node.name, outputs=node.outputs, quantization=[quantization])


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("QuantizeLinear", convert_quantize_linear),)
