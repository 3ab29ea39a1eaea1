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

# How an operator's int8 output is quantized: one vocabulary with OperatorDefinition.quantization,
# re-exported here for the plugin API (TorchOp.quantization).
from opbridge.ops.definition import FLOAT, OWN, SAME_AS_INPUT, OutputQuantization, QuantizationKind, fixed

__all__ = ["FLOAT", "OWN", "SAME_AS_INPUT", "OutputQuantization", "QuantizationKind", "TorchOp", "fixed"]


@dataclasses.dataclass(frozen=True)
class TorchOp:
    """An opbridge operator (`op_type`, a key of context.operators with a schema and a reference)
    as the torch.library op `qualname` ("namespace::name"). Its torch schema is generated from the
    opbridge schema: the schema's inputs as Tensors, then its attributes (with their defaults) in
    the attribute class's field order; one Tensor output per schema output. An op that torch
    already has (a torch.library op of your own) is adopted instead: its schema must be that one,
    argument names and defaults included, as a .pt2 file records them."""

    op_type: str
    qualname: str
    quantization: OutputQuantization = OWN
    # The module of yours that defines `qualname` with torch.library ("mylib.ops"), if one does:
    # define_torch_ops imports it first and adopts its op (schema checked, its kernels kept), so the
    # plugin and that module can be imported in either order. None: the op is adopted if it already
    # exists, else generated.
    defined_by: str | None = None

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
