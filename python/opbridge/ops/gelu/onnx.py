# SPDX-License-Identifier: Apache-2.0
"""GELU from ONNX: Gelu (opset 20 and later), approximate "none" (the erfc form) or "tanh".

onnxruntime computes the exact form with its own erf, so the two agree within float32 rounding, not bit
for bit (op_test.py states the tolerance).
"""

from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.gelu.attributes import GeluAttributes

# ONNX's approximate attribute -> GeluAttributes.approximate.
APPROXIMATIONS = {"none": False, "tanh": True}


def convert_gelu(conversion: OnnxConversion, node: OnnxNode) -> None:
    approximation = node.attribute("approximate", "none")
    if isinstance(approximation, bytes):
        approximation = approximation.decode()
    if approximation not in APPROXIMATIONS:
        raise UnsupportedOperatorError(
            f"{node.describe()}: approximate={approximation!r}; Gelu takes 'none' or 'tanh'",
            hint="export the model with approximate='none' or 'tanh'",
        )
    x = conversion.value(node.inputs[0], node)
    attributes = GeluAttributes(approximate=APPROXIMATIONS[approximation])
    conversion.emit("GELU", [x], attributes, name=node.name, outputs=node.outputs)


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (OnnxConverter("Gelu", convert_gelu, min_opset=20),)
