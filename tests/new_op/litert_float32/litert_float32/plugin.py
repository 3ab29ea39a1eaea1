# SPDX-License-Identifier: Apache-2.0
"""LitertFloat32: y = max(x, 0), float32.

Made by `opbridge new-op` (docs/custom_ops.md). The math lives in three
places that must agree: `reference` below (NumPy, the golden model), the
schema's shape rule (`infer`), and kernel/litert_float32_kernel.c (and its
`litert_float32_kernel_output_shape`). `bazel test` of this package checks them
against each other.
"""

import pathlib

import numpy as np
from opbridge.aot.portable_kernel import PortableKernel, PortableKernelOperator
from opbridge.frontends.litert.nodes import LiteRTNode
from opbridge.ir import DType
from opbridge.ops.definition import FLOAT, NO_MEMORY, Layout, OperatorDefinition, ReferenceCall
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

CUSTOM_CODE = "LITERT_FLOAT32"  # the models' customCode
KEY = "LITERT_FLOAT32"  # the operator's key: custom_code_to_op_key(CUSTOM_CODE)
NAME = "LitertFloat32"
DOMAIN = "com.example.litert_float32"
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"

SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="y = max(x, 0), float32",
    inputs=(FormalParameter("x", "T", "the input"),),
    outputs=(FormalParameter("y", "T", "the result, of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float32"),),
    infer=same_as_input(0),  # the shape rule: edit with the kernel's litert_float32_kernel_output_shape
)

KERNEL = PortableKernel(
    function="litert_float32_kernel",
    header=KERNEL_DIRECTORY / "litert_float32_kernel.h",
    sources=(KERNEL_DIRECTORY / "litert_float32_kernel.c",),
    params=(),
    schema=SCHEMA,
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
    return [np.maximum(call.value(0), np.float32(0))]


def parse(node: LiteRTNode) -> None:
    """The node's attributes from its custom options: this op takes none, so a payload is a model error."""
    if node.custom_options:
        raise ValueError(f"{CUSTOM_CODE} takes no options, got {len(node.custom_options)} bytes")


class LitertFloat32Operator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, parser, C emitter."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "LitertFloat32 (opbridge new-op)"))
    context.operators.add(
        OperatorDefinition(
            op_type=KEY,
            reference=reference,
            schema=SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): no MACs; element by element
            # (transposes around it cancel); no int8 output;
            # no arena memory beyond its tensors.
            macs=None,
            layout=Layout.ELEMENTWISE,
            quantization=FLOAT,
            memory=NO_MEMORY,
        )
    )
    context.litert_parsers.register(KEY, parse)
    context.aot_operator_classes.register(KEY, LitertFloat32Operator)
