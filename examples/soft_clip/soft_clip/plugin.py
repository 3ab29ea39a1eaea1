# SPDX-License-Identifier: Apache-2.0
"""SoftClip: y = x / (1 + |x| / limit), float32: a smooth clip of x into (-limit, limit).

Made by `opbridge new-op` (docs/custom_ops.md). The math lives in three
places that must agree: `reference` below (NumPy, the golden model), the
schema's shape rule (`infer`), and kernel/soft_clip_kernel.c (and its
`soft_clip_kernel_output_shape`). `bazel test` of this package checks them
against each other.
"""

import dataclasses
import pathlib

import numpy as np
from opbridge.aot.portable_kernel import KernelParam, PortableKernel, PortableKernelOperator
from opbridge.ir import DType
from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition, ReferenceCall
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

KEY = "SOFT_CLIP"  # the operator's key (the ONNX node is DOMAIN::NAME)
NAME = "SoftClip"
DOMAIN = "com.example.soft_clip"
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"


@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes of the same names)."""

    limit: float = 1.0  # the bound |y| approaches; > 0


def infer(ctx: InferenceContext) -> list[TensorType]:
    """The shape rule: y has x's dtype and shape; a limit <= 0 is refused, naming the node."""
    if not ctx.attributes.limit > 0.0:
        raise ctx.fail(f"limit {ctx.attributes.limit} is not positive", hint="give SoftClip a limit > 0")
    x = ctx.input(0)
    return [TensorType(x.dtype, x.shape)]


SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="y = x / (1 + |x| / limit)",
    inputs=(FormalParameter("x", "T", "the input"),),
    outputs=(FormalParameter("y", "T", "the result, of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=infer,
    attributes_class=Attributes,
)

KERNEL = PortableKernel(
    function="soft_clip_kernel",
    header=KERNEL_DIRECTORY / "soft_clip_kernel.h",
    sources=(KERNEL_DIRECTORY / "soft_clip_kernel.c",),
    params=(KernelParam("limit", "float"),),
    schema=SCHEMA,
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
    # float32 throughout, one operation at a time, as the C kernel computes it.
    x = call.value(0)
    return [x / (np.float32(1) + np.abs(x) / np.float32(call.attributes.limit))]


class SoftClipOperator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, ONNX schema, C emitter."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "SoftClip (opbridge new-op)"))
    context.operators.add(
        OperatorDefinition(
            op_type=KEY,
            reference=reference,
            schema=SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): divisions only, no MACs; element by
            # element (the transposes an ONNX model puts around it cancel); float32 only; no arena memory.
            macs=None,
            layout=Layout.ELEMENTWISE,
            quantization=FLOAT,
            memory=NO_MEMORY,
        )
    )
    context.aot_operator_classes.register(KEY, SoftClipOperator)
