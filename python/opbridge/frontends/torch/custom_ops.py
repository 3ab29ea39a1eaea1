# SPDX-License-Identifier: Apache-2.0
"""The converter of a plugin's TorchOp: its torch.export nodes become nodes of its opbridge operator.

The torch op's schema is generated from the opbridge schema (library.torch_schema_string): the
schema's inputs, then its attributes in the attribute class's order. So the node's positional
arguments (defaults filled in by the reader) map back one to one, with no per-op code."""

from typing import Any

from opbridge.frontends.torch.spec import TorchOp
from opbridge.frontends.torch.translation import TorchNode, TorchTranslation, Value
from opbridge.ir.attributes import from_plain
from opbridge.ops.definition import TorchConverter
from opbridge.schemas.schema import OpSchema, ParameterOption


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, list | tuple) else value


def torch_op_converter(torch_op: TorchOp, schema: OpSchema) -> TorchConverter:
    """A TorchConverter writing one `torch_op.op_type` node per call of the torch op."""
    specs = schema.attributes

    def convert(translation: TorchTranslation, node: TorchNode) -> None:
        inputs: list[str] = []
        for position, parameter in enumerate(schema.inputs):
            value = node.args[position] if position < len(node.args) else None
            if parameter.option is ParameterOption.VARIADIC:
                inputs.extend(translation.name(v, parameter.name) for v in value or ())
            elif value is None:
                inputs.append("")
            else:
                inputs.append(translation.name(value, parameter.name))
        values = {}
        for offset, spec in enumerate(specs):
            position = len(schema.inputs) + offset
            raw = node.args[position] if position < len(node.args) else spec.default
            if isinstance(raw, Value):
                raise node.unsupported(f"attribute {spec.name!r} is a tensor", hint="pass a constant Python value")
            values[spec.name] = from_plain(spec, _plain(raw), node.describe())
        attributes = None if schema.attributes_class is None else schema.attributes_class(**values)
        translation.operator(torch_op.op_type, inputs, attributes)

    convert.__qualname__ = f"convert_{torch_op.name}"
    return TorchConverter(torch_op.target, convert)
