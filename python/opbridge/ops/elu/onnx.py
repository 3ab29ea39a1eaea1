# SPDX-License-Identifier: Apache-2.0
"""ELU from ONNX: Elu (alpha default 1.0), and Selu as ELU(alpha) then a MUL by the float32 gamma.

onnxruntime computes Elu as alpha * (exp(x) - 1) and Selu as (gamma * alpha) * (exp(x) - 1) below 0,
whose subtraction loses the low bits near 0; ELU's expm1 keeps them, so the two agree within float32
rounding of 1 * alpha (* gamma), not bit for bit. The MUL is ADD's float32 path, clamped to +-FLT_MAX
as TFLite's MUL without an activation is: a Selu of +inf (or of x > FLT_MAX / gamma) gives FLT_MAX where
onnxruntime gives inf.
"""

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.onnx.converter_helpers import reshape, reshape_to
from opbridge.ir import DType
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.definition import OnnxConverter
from opbridge.ops.elu.attributes import EluAttributes

# ONNX Selu's defaults (float32 values of the SELU paper's constants).
SELU_ALPHA = 1.67326319217681884765625
SELU_GAMMA = 1.05070102214813232421875
# The element-wise binary kernels take rank 4 at most.
MAX_BROADCAST_RANK = 4


def convert_elu(conversion: OnnxConversion, node: OnnxNode) -> None:
    attributes = EluAttributes(alpha=float(np.float32(node.attribute("alpha", 1.0))))
    x = conversion.value(node.inputs[0], node)
    conversion.emit("ELU", [x], attributes, name=node.name, outputs=node.outputs)


def convert_selu(conversion: OnnxConversion, node: OnnxNode) -> None:
    """gamma * ELU(x, alpha): ELU, then MUL by a scalar constant (no MUL when gamma is 1)."""
    alpha = float(np.float32(node.attribute("alpha", SELU_ALPHA)))
    gamma = np.float32(node.attribute("gamma", SELU_GAMMA))
    x = conversion.value(node.inputs[0], node)
    if gamma == np.float32(1.0):
        conversion.emit("ELU", [x], EluAttributes(alpha=alpha), name=node.name, outputs=node.outputs)
        return
    (elu,) = conversion.emit("ELU", [x], EluAttributes(alpha=alpha), name=f"{node.name}/elu")
    scale = conversion.constant(np.array(gamma), DType.FLOAT32, f"{node.name}/gamma")
    shape = conversion.tensor(x).shape
    if len(shape) <= MAX_BROADCAST_RANK:
        conversion.emit("MUL", [elu, scale], AddAttributes(), name=node.name, outputs=node.outputs)
        return
    flat = reshape(conversion, elu, (int(np.prod(shape)),), f"{node.name}/flatten")
    (scaled,) = conversion.emit("MUL", [flat, scale], AddAttributes(), name=f"{node.name}/scale")
    reshape_to(conversion, node, scaled, tuple(shape))


ONNX_CONVERTERS: tuple[OnnxConverter, ...] = (
    OnnxConverter("Elu", convert_elu),
    OnnxConverter("Selu", convert_selu),
)
