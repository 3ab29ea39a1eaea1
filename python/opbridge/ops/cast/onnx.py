# SPDX-License-Identifier: Apache-2.0
"""CAST from ONNX: Cast (to the `to` type) and CastLike (to the second input's type); a cast to the
type the value has already is the identity (exporters write CastLike of constants' types)."""

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType
from opbridge.ir.onnx_dtypes import ONNX_DTYPES
from opbridge.ops.cast.attributes import CastAttributes
from opbridge.ops.definition import OnnxConverter


def _cast(conversion: OnnxConversion, node: OnnxNode, dtype: DType) -> None:
    x = conversion.value(node.inputs[0], node)
    if conversion.tensor(x).dtype is dtype:
        conversion.alias(node.outputs[0], x)
        return
    conversion.emit("CAST", [x], CastAttributes(out_data_type=dtype), name=node.name, outputs=node.outputs)


def convert_cast(conversion: OnnxConversion, node: OnnxNode) -> None:
    element_type = int(node.attribute("to", 0))
    dtype = ONNX_DTYPES.get(element_type)
    if dtype is None:
        raise node.unsupported(f"to={element_type} is not a type opbridge supports")
    _cast(conversion, node, dtype)


def convert_cast_like(conversion: OnnxConversion, node: OnnxNode) -> None:
    _cast(conversion, node, conversion.tensor(conversion.value(node.inputs[1], node)).dtype)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Cast", convert_cast),
    OnnxConverter("CastLike", convert_cast_like),
)
