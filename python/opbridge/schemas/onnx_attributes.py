# SPDX-License-Identifier: Apache-2.0
"""opbridge attribute kinds and values in ONNX's terms (AttributeProto types), both ways."""

from typing import Any

from opbridge.ir.attribute_specs import AttributeSpec, AttributeType
from opbridge.ir.attributes import from_plain

ONNX_TYPE_STRINGS = {
    "float32": "tensor(float)",
    "float64": "tensor(double)",
    "float16": "tensor(float16)",
    "bfloat16": "tensor(bfloat16)",
    "int8": "tensor(int8)",
    "uint8": "tensor(uint8)",
    "int16": "tensor(int16)",
    "uint16": "tensor(uint16)",
    "int32": "tensor(int32)",
    "uint32": "tensor(uint32)",
    "int64": "tensor(int64)",
    "uint64": "tensor(uint64)",
    "bool": "tensor(bool)",
}


def onnx_attribute_type(spec: AttributeSpec) -> int:
    """The AttributeProto.AttributeType of an attribute."""
    import onnx

    kinds = onnx.AttributeProto
    return {
        AttributeType.INT: kinds.INT,
        AttributeType.BOOL: kinds.INT,
        AttributeType.FLOAT: kinds.FLOAT,
        AttributeType.STRING: kinds.STRING,
        AttributeType.ENUM: kinds.STRING,
        AttributeType.INTS: kinds.INTS,
        AttributeType.FLOATS: kinds.FLOATS,
        AttributeType.STRINGS: kinds.STRINGS,
    }[spec.type]


def onnx_attribute_proto(spec: AttributeSpec) -> Any:
    import onnx

    kinds = onnx.defs.OpSchema.AttrType
    kind = {
        AttributeType.INT: kinds.INT,
        AttributeType.BOOL: kinds.INT,
        AttributeType.FLOAT: kinds.FLOAT,
        AttributeType.STRING: kinds.STRING,
        AttributeType.ENUM: kinds.STRING,
        AttributeType.INTS: kinds.INTS,
        AttributeType.FLOATS: kinds.FLOATS,
        AttributeType.STRINGS: kinds.STRINGS,
    }[spec.type]
    if spec.required:
        return onnx.defs.OpSchema.Attribute(spec.name, kind, spec.doc, required=True)
    default = onnx_attribute_value(spec, spec.default)
    return onnx.defs.OpSchema.Attribute(spec.name, onnx.helper.make_attribute(spec.name, default), spec.doc)


def onnx_attribute_value(spec: AttributeSpec, value: Any) -> Any:
    """An attribute value as ONNX stores it (bools as 0/1, enums by name)."""
    if spec.type is AttributeType.BOOL:
        return int(value)
    if spec.type is AttributeType.ENUM:
        return value.name
    if isinstance(value, tuple):
        return list(value)
    return value


def attribute_from_onnx(spec: AttributeSpec, value: Any, where: str) -> Any:
    """The attribute value of an ONNX attribute value (onnx.helper.get_attribute_value)."""

    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    elif isinstance(value, list):
        value = [v.decode("utf-8", errors="replace") if isinstance(v, bytes) else v for v in value]
    if spec.type is AttributeType.BOOL and isinstance(value, int) and value in (0, 1):
        value = bool(value)
    return from_plain(spec, value, where)
