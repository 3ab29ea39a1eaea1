# SPDX-License-Identifier: Apache-2.0
"""How an opbridge operator appears in PyTorch, declared without importing torch.

A plugin that wants its operator in PyTorch models registers a `TorchOp` in its
`customize_registry` (`register_torch_op(context, TorchOp(...))`). From that one
declaration opbridge

- generates the `torch.library` op `qualname` (schema, fake kernel from the
  schema's shape rule, CPU kernel from the NumPy reference):
  `opbridge.frontends.torch.library.define_torch_ops`;
- converts its nodes in `torch.export` graphs onto the operator
  (`context.torch_converters`, key `"<namespace>.<name>.default"`);
- quantizes it with opbridge's PT2E quantizer as `quantization` says
  (`opbridge.frontends.torch.quantizer`);
- exports it to ONNX in the operator's own domain
  (`opbridge.frontends.torch.onnx_export.custom_translation_table`).

Torch op keys are `str(OpOverload)`: "aten.conv2d.default", "my_ns.soft_clip.default".
"""

import dataclasses
import enum


class QuantizationKind(enum.Enum):
    """How the int8 form of an operator's output is quantized (PT2E annotation)."""

    # The output has the input's scale and zero point (the op moves or selects values, or
    # compares raw int8 values: channel shuffle, max, clamp ...).
    SAME_AS_INPUT = "same_as_input"
    # The output has fixed parameters, whatever the input (softmax, sigmoid: scale 1/256, zero point -128).
    FIXED = "fixed"
    # The output is observed on calibration data and gets parameters of its own (add, conv ...).
    OWN = "own"
    # The op has no int8 kernel: it runs in float32 between a dequantize and a quantize.
    FLOAT = "float"


@dataclasses.dataclass(frozen=True)
class OutputQuantization:
    """`kind`, and for FIXED the scale and zero point (int8)."""

    kind: QuantizationKind
    scale: float | None = None
    zero_point: int | None = None

    def __post_init__(self) -> None:
        fixed = self.kind is QuantizationKind.FIXED
        if fixed != (self.scale is not None and self.zero_point is not None):
            raise ValueError("OutputQuantization: FIXED takes a scale and a zero point, the other kinds neither")
        if fixed and (not self.scale > 0 or not -128 <= int(self.zero_point) <= 127):  # type: ignore[operator,arg-type]
            raise ValueError(f"OutputQuantization: scale {self.scale} must be > 0, zero point in [-128, 127]")


SAME_AS_INPUT = OutputQuantization(QuantizationKind.SAME_AS_INPUT)
OWN = OutputQuantization(QuantizationKind.OWN)
FLOAT = OutputQuantization(QuantizationKind.FLOAT)


def fixed(scale: float, zero_point: int) -> OutputQuantization:
    return OutputQuantization(QuantizationKind.FIXED, scale, zero_point)


@dataclasses.dataclass(frozen=True)
class TorchOp:
    """An opbridge operator (`op_type`, a key of context.operators with a schema and a reference)
    as the torch.library op `qualname` ("namespace::name"). Its torch schema is generated from the
    opbridge schema: the schema's inputs as Tensors, then its attributes (with their defaults) in
    the attribute class's field order; one Tensor output per schema output."""

    op_type: str
    qualname: str
    quantization: OutputQuantization = OWN

    @property
    def namespace(self) -> str:
        return self.qualname.split("::", 1)[0]

    @property
    def name(self) -> str:
        return self.qualname.split("::", 1)[1]

    @property
    def target(self) -> str:
        """The key of its converter in context.torch_converters (str of the default OpOverload)."""
        return f"{self.namespace}.{self.name}.default"
