# SPDX-License-Identifier: Apache-2.0
"""OnnxFloat32Torch: y = x for x >= 0, else alpha * x (float32).

Made by `opbridge new-op` (docs/custom_ops.md). The math lives in three
places that must agree: `reference` below (NumPy, the golden model), the
schema's shape rule (`infer`), and kernel/onnx_float32_torch_kernel.c (and its
`onnx_float32_torch_kernel_output_shape`). `bazel test` of this package checks them
against each other.

It is also the PyTorch op TORCH_NAME (docs/pytorch.md): `define_torch_ops` makes it a
torch.library op from the schema and the reference (or adopts yours), and `quantize_pt2e`
with `OpbridgeQuantizer.for_context` quantizes it as its TorchOp says.
"""

import dataclasses
import pathlib

import numpy as np
from opbridge.aot.portable_kernel import KernelParam, PortableKernel, PortableKernelOperator
from opbridge.frontends.torch.library import register_torch_op
from opbridge.frontends.torch.spec import TorchOp
from opbridge.ir import DType
from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition, ReferenceCall
from opbridge.ops.shared.macs import per_output_element
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

KEY = "ONNX_FLOAT32_TORCH"  # the operator's key (the ONNX node is DOMAIN::NAME)
TORCH_NAME = "onnx_float32_torch::onnx_float32_torch"  # torch.ops.onnx_float32_torch.onnx_float32_torch
# The module of yours that defines TORCH_NAME with torch.library, if one does ("mylib.ops"):
# imported first and its op adopted, so that the plugin and it load in either order. The op's
# arguments must be the schema's: x, then the Attributes fields with their names and defaults.
DEFINED_BY = None
NAME = "OnnxFloat32Torch"
DOMAIN = "com.example.onnx_float32_torch"
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"


@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes of the same names)."""

    alpha: float = 0.01


SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="y = x for x >= 0, else alpha * x (float32)",
    inputs=(FormalParameter("x", "T", "the input"),),
    outputs=(FormalParameter("y", "T", "the result, of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=same_as_input(0),  # the shape rule: edit with the kernel's onnx_float32_torch_kernel_output_shape
    attributes_class=Attributes,
)

KERNEL = PortableKernel(
    function="onnx_float32_torch_kernel",
    header=KERNEL_DIRECTORY / "onnx_float32_torch_kernel.h",
    sources=(KERNEL_DIRECTORY / "onnx_float32_torch_kernel.c",),
    params=(KernelParam("alpha", "float"),),
    schema=SCHEMA,
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
    x = call.value(0)
    return [np.where(x >= 0, x, np.float32(call.attributes.alpha) * x).astype(np.float32)]


class OnnxFloat32TorchOperator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, ONNX schema, C emitter, PyTorch op."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "OnnxFloat32Torch (opbridge new-op)"))
    context.operators.add(
        OperatorDefinition(
            op_type=KEY,
            reference=reference,
            schema=SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): one MAC per element; element by element
            # (transposes around it cancel); no int8 output;
            # no arena memory beyond its tensors.
            macs=per_output_element(1),
            layout=Layout.ELEMENTWISE,
            quantization=FLOAT,
            memory=NO_MEMORY,
        )
    )
    context.aot_operator_classes.register(KEY, OnnxFloat32TorchOperator)
    register_torch_op(context, TorchOp(KEY, TORCH_NAME, quantization=FLOAT, defined_by=DEFINED_BY))
