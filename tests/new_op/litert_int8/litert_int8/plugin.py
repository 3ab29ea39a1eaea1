# SPDX-License-Identifier: Apache-2.0
"""LitertInt8: y = max(x, 0), int8 in, int8 out, each per-tensor quantized.

Made by `opbridge new-op` (docs/custom_ops.md). The math lives in three
places that must agree: `reference` below (NumPy, the golden model), the
schema's shape rule (`infer`), and kernel/litert_int8_kernel.c (and its
`litert_int8_kernel_output_shape`). `bazel test` of this package checks them
against each other.
"""

import pathlib

import numpy as np
from opbridge.aot.portable_kernel import KernelParam, PortableKernel, PortableKernelError, PortableKernelOperator
from opbridge.frontends.litert.nodes import LiteRTNode
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import NO_MEMORY, OWN, Layout, OperatorDefinition, ReferenceCall
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

CUSTOM_CODE = "LITERT_INT8"  # the models' customCode
KEY = "LITERT_INT8"  # the operator's key: custom_code_to_op_key(CUSTOM_CODE)
NAME = "LitertInt8"
DOMAIN = "com.example.litert_int8"
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"

SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="y = max(x, 0), int8 in, int8 out, each per-tensor quantized",
    inputs=(FormalParameter("x", "T", "the input"),),
    outputs=(FormalParameter("y", "T", "the result, of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.INT8,), "int8"),),
    infer=same_as_input(0),  # the shape rule: edit with the kernel's litert_int8_kernel_output_shape
)


def kernel_params(kernel: PortableKernel, graph: Graph, node: Node) -> dict[str, int]:
    """The node's params: zero points, and the input-to-output scale as a fixed-point multiplier."""
    source, destination = graph.node_inputs(node)[0], graph.node_outputs(node)[0]
    if source is None or source.quantization is None or destination.quantization is None:
        raise PortableKernelError(
            f"{node.describe()}: {KEY} needs per-tensor quantized int8 tensors",
            hint="quantize the model's input and output of this op (int8, one scale each)",
        )
    multiplier, shift = quantize_multiplier(source.quantization.scales[0] / destination.quantization.scales[0])
    return {
        "input_zero_point": source.quantization.zero_points[0],
        "output_zero_point": destination.quantization.zero_points[0],
        "multiplier": multiplier,
        "shift": shift,
    }


KERNEL = PortableKernel(
    function="litert_int8_kernel",
    header=KERNEL_DIRECTORY / "litert_int8_kernel.h",
    sources=(KERNEL_DIRECTORY / "litert_int8_kernel.c",),
    params=(
        KernelParam("input_zero_point", "int32_t"),
        KernelParam("output_zero_point", "int32_t"),
        KernelParam("multiplier", "int32_t"),
        KernelParam("shift", "int32_t"),
    ),
    schema=SCHEMA,
    param_values_of=kernel_params,
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
    params = KERNEL.param_values(call.graph, call.node)
    x = call.value(0).astype(np.int32) - params["input_zero_point"]
    y = multiply_by_quantized_multiplier(np.maximum(x, 0), params["multiplier"], params["shift"])
    return [np.clip(y + params["output_zero_point"], -128, 127).astype(np.int8)]


def parse(node: LiteRTNode) -> None:
    """The node's attributes from its custom options: this op takes none, so a payload is a model error."""
    if node.custom_options:
        raise ValueError(f"{CUSTOM_CODE} takes no options, got {len(node.custom_options)} bytes")


class LitertInt8Operator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, parser, C emitter."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "LitertInt8 (opbridge new-op)"))
    context.operators.add(
        OperatorDefinition(
            op_type=KEY,
            reference=reference,
            schema=SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): no MACs; element by element
            # (transposes around it cancel); int8 output with parameters of its own (the kernel rescales);
            # no arena memory beyond its tensors.
            macs=None,
            layout=Layout.ELEMENTWISE,
            quantization=OWN,
            memory=NO_MEMORY,
        )
    )
    context.litert_parsers.register(KEY, parse)
    context.aot_operator_classes.register(KEY, LitertInt8Operator)
