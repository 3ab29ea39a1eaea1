# SPDX-License-Identifier: Apache-2.0
"""OnnxInt8: y = x for x >= 0, else x * alpha (int8; alpha as a fixed-point multiplier and shift).

Made by `opbridge new-op` (docs/custom_ops.md). The math lives in three
places that must agree: `reference` below (NumPy, the golden model), the
schema's shape rule (`infer`), and kernel/onnx_int8_kernel.c (and its
`onnx_int8_kernel_output_shape`). `bazel test` of this package checks them
against each other.
"""

import dataclasses
import pathlib

import numpy as np
from opbridge.aot.portable_kernel import KernelParam, PortableKernel, PortableKernelOperator
from opbridge.ir import DType
from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition, ReferenceCall
from opbridge.ops.shared.macs import per_output_element
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

KEY = "ONNX_INT8"  # the operator's key (the ONNX node is DOMAIN::NAME)
NAME = "OnnxInt8"
DOMAIN = "com.example.onnx_int8"
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"


@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes of the same names): alpha = alpha_multiplier * 2^alpha_shift / 2^31."""

    alpha_multiplier: int = 1 << 30  # 0.5
    alpha_shift: int = -1  # alpha 0.25


SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="y = x for x >= 0, else x * alpha (int8; alpha as a fixed-point multiplier and shift)",
    inputs=(FormalParameter("x", "T", "the input"),),
    outputs=(FormalParameter("y", "T", "the result, of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8,), "int8"),),
    infer=same_as_input(0),  # the shape rule: edit with the kernel's onnx_int8_kernel_output_shape
    attributes_class=Attributes,
)

KERNEL = PortableKernel(
    function="onnx_int8_kernel",
    header=KERNEL_DIRECTORY / "onnx_int8_kernel.h",
    sources=(KERNEL_DIRECTORY / "onnx_int8_kernel.c",),
    params=(KernelParam("alpha_multiplier", "int32_t"), KernelParam("alpha_shift", "int32_t")),
    schema=SCHEMA,
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
    x = call.value(0).astype(np.int32)
    attributes = call.attributes
    negative = multiply_by_quantized_multiplier(x, attributes.alpha_multiplier, attributes.alpha_shift)
    return [np.clip(np.where(x >= 0, x, negative), -128, 127).astype(np.int8)]


class OnnxInt8Operator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, ONNX schema, C emitter."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "OnnxInt8 (opbridge new-op)"))
    context.operators.add(
        OperatorDefinition(
            op_type=KEY,
            reference=reference,
            schema=SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): one MAC per element; element by element
            # (transposes around it cancel); int8 output on the input's parameters (the kernel scales raw values);
            # no arena memory beyond its tensors.
            macs=per_output_element(1),
            layout=Layout.ELEMENTWISE,
            quantization=SAME_AS_INPUT,
            memory=NO_MEMORY,
        )
    )
    context.aot_operator_classes.register(KEY, OnnxInt8Operator)
