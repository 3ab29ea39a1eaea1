# SPDX-License-Identifier: Apache-2.0
"""OnnxInt8Torch: y = x for x >= 0, else alpha * x (float32, or int8 on the input's quantization).

Made by `opbridge new-op` (docs/custom_ops.md). The math lives in three
places that must agree: `reference` below (NumPy, the golden model), the
schema's shape rule (`infer`), and kernel/onnx_int8_torch_kernel.c (and its
`onnx_int8_torch_kernel_output_shape`). `bazel test` of this package checks them
against each other.

It is also the PyTorch op TORCH_NAME (docs/pytorch.md): `define_torch_ops` makes it a
torch.library op from the schema and the reference (or adopts yours), and `quantize_pt2e`
with `OpbridgeQuantizer.for_context` quantizes it as its TorchOp says.
"""

import dataclasses
import pathlib

import numpy as np
from opbridge.aot.portable_kernel import KernelParam, PortableKernel, PortableKernelError, PortableKernelOperator
from opbridge.frontends.torch.library import register_torch_op
from opbridge.frontends.torch.spec import TorchOp
from opbridge.ir import DType, Graph, Node
from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition, ReferenceCall
from opbridge.ops.shared.macs import per_output_element
from opbridge.quantization.fixed_point import multiply_by_quantized_multiplier, quantize_multiplier
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import FormalParameter, OpSchema, TypeConstraint, same_as_input

KEY = "ONNX_INT8_TORCH"  # the operator's key (the ONNX node is DOMAIN::NAME)
TORCH_NAME = "onnx_int8_torch::onnx_int8_torch"  # torch.ops.onnx_int8_torch.onnx_int8_torch
# The module of yours that defines TORCH_NAME with torch.library, if one does ("mylib.ops"):
# imported first and its op adopted, so that the plugin and it load in either order. The op's
# arguments must be the schema's: x, then the Attributes fields with their names and defaults.
DEFINED_BY = None
NAME = "OnnxInt8Torch"
DOMAIN = "com.example.onnx_int8_torch"
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"


@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes and torch arguments of the same names)."""

    alpha: float = 0.25


SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="y = x for x >= 0, else alpha * x (float32, or int8 on the input's quantization)",
    inputs=(FormalParameter("x", "T", "the input"),),
    outputs=(FormalParameter("y", "T", "the result, of the input's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32, DType.INT8), "float32 (the float model) or int8 (PT2E)"),),
    infer=same_as_input(0),  # the shape rule: edit with the kernel's onnx_int8_torch_kernel_output_shape
    attributes_class=Attributes,
)


def kernel_params(kernel: PortableKernel, graph: Graph, node: Node) -> dict[str, float | int]:
    """The node's params: alpha (its attribute); for int8, the zero point of the input's quantization, which
    the output shares (PT2E gives both; an int8 tensor without quantization, as an ONNX model's, has zero
    point 0), and alpha as a fixed-point multiplier and shift. The hosts read them from the node's
    attributes (op_test.py writes them there: host_model)."""
    alpha = node.attributes.alpha
    source, destination = graph.node_inputs(node)[0], graph.node_outputs(node)[0]
    zero_point = 0
    if source is not None and source.dtype is DType.INT8:
        quantization = source.quantization
        zero_point = quantization.zero_points[0] if quantization is not None else 0
        if destination.quantization != quantization:
            raise PortableKernelError(
                f"{node.describe()}: {KEY}'s int8 output must have its input's scale and zero point",
                hint="quantize it SAME_AS_INPUT (its TorchOp does), or rescale in the kernel",
            )
    if not alpha >= 0.0:  # NaN too
        raise PortableKernelError(
            f"{node.describe()}: alpha is {alpha}; it must be a number >= 0", hint="give alpha a value >= 0"
        )
    multiplier, shift = quantize_multiplier(alpha)
    return {"alpha": alpha, "zero_point": zero_point, "alpha_multiplier": multiplier, "alpha_shift": shift}


KERNEL = PortableKernel(
    function="onnx_int8_torch_kernel",
    header=KERNEL_DIRECTORY / "onnx_int8_torch_kernel.h",
    sources=(KERNEL_DIRECTORY / "onnx_int8_torch_kernel.c",),
    params=(
        KernelParam("alpha", "float"),
        KernelParam("zero_point", "int32_t"),
        KernelParam("alpha_multiplier", "int32_t"),
        KernelParam("alpha_shift", "int32_t"),
    ),
    schema=SCHEMA,
    param_values_of=kernel_params,
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
    x = call.value(0)
    if x.dtype == np.float32:
        return [np.where(x >= 0, x, np.float32(call.attributes.alpha) * x).astype(np.float32)]
    params = KERNEL.param_values(call.graph, call.node)
    value = x.astype(np.int32) - params["zero_point"]
    negative = multiply_by_quantized_multiplier(value, params["alpha_multiplier"], params["alpha_shift"])
    return [np.clip(np.where(value >= 0, value, negative) + params["zero_point"], -128, 127).astype(np.int8)]


class OnnxInt8TorchOperator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, ONNX schema, C emitter, PyTorch op."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "OnnxInt8Torch (opbridge new-op)"))
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
    context.aot_operator_classes.register(KEY, OnnxInt8TorchOperator)
    register_torch_op(context, TorchOp(KEY, TORCH_NAME, quantization=SAME_AS_INPUT, defined_by=DEFINED_BY))
