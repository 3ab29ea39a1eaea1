# SPDX-License-Identifier: Apache-2.0
"""ChannelShuffle: ShuffleNet's channel shuffle, y = x viewed as [N, groups, C / groups, ...],
the two group axes swapped, viewed back as [N, C, ...] (float32 and int8).

Made by `opbridge new-op` (docs/custom_ops.md), then given its math, a second dtype
and a PyTorch face (docs/pytorch.md). One definition serves every stage:

- PyTorch: `torch.ops.kws_ops.channel_shuffle(x, groups)`, generated from the
  schema and the reference by `define_torch_ops` (its fake kernel is `infer`);
- PT2E: it moves values without computing new ones, so its int8 output keeps the
  input's scale and zero point (SAME_AS_INPUT) and opbridge's quantizer keeps it
  in int8, with no dequantize and quantize around it;
- ONNX: the node com.example.kws_ops.ChannelShuffle (also what torch.onnx.export
  writes through opbridge's custom translation table);
- the microcontroller: kernel/channel_shuffle_kernel.c, which `bazel test` checks
  against `reference` on the host, in onnxruntime and on four platforms.
"""

import dataclasses
import pathlib

import numpy as np
from opbridge.aot.portable_kernel import KernelParam, PortableKernel, PortableKernelOperator
from opbridge.frontends.torch.library import register_torch_op
from opbridge.frontends.torch.spec import TorchOp
from opbridge.ir import DType
from opbridge.ops.definition import NO_MEMORY, SAME_AS_INPUT, Layout, OperatorDefinition, ReferenceCall
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import FormalParameter, InferenceContext, OpSchema, TensorType, TypeConstraint

KEY = "CHANNEL_SHUFFLE"  # the operator's key (the ONNX node is DOMAIN::NAME)
NAME = "ChannelShuffle"
DOMAIN = "com.example.kws_ops"
TORCH_NAME = "kws_ops::channel_shuffle"  # torch.ops.kws_ops.channel_shuffle
KERNEL_DIRECTORY = pathlib.Path(__file__).parent / "kernel"


@dataclasses.dataclass(frozen=True)
class Attributes:
    """The node's attributes (ONNX attributes and torch arguments of the same names)."""

    groups: int = 2  # divides the channel count (axis 1)


def infer(ctx: InferenceContext) -> list[TensorType]:
    """y has x's dtype and shape; x needs a channel axis that `groups` divides."""
    x = ctx.input(0)
    groups = ctx.attributes.groups
    if len(x.shape) < 2:
        raise ctx.fail(f"input of rank {len(x.shape)} has no channel axis (axis 1)", hint="pass an [N, C, ...] tensor")
    if groups < 1 or (x.shape[1] >= 0 and x.shape[1] % groups):
        raise ctx.fail(f"groups={groups} does not divide the {x.shape[1]} channels", hint="choose a divisor of C")
    return [TensorType(x.dtype, x.shape)]


SCHEMA = OpSchema(
    domain=DOMAIN,
    name=NAME,
    since_version=1,
    doc="ShuffleNet's channel shuffle over axis 1",
    inputs=(FormalParameter("x", "T", "the input, [N, C, ...]"),),
    outputs=(FormalParameter("y", "T", "the channels of x, shuffled; x's dtype and shape"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32, DType.INT8), "float32 or int8"),),
    infer=infer,
    attributes_class=Attributes,
)

KERNEL = PortableKernel(
    function="channel_shuffle_kernel",
    header=KERNEL_DIRECTORY / "channel_shuffle_kernel.h",
    sources=(KERNEL_DIRECTORY / "channel_shuffle_kernel.c",),
    params=(KernelParam("groups", "int32_t"),),
    schema=SCHEMA,
)


def reference(call: ReferenceCall) -> list[np.ndarray]:
    """The golden model: bit-exact with the C kernel on every platform (op_test.py, the golden tests)."""
    x = call.value(0)
    groups = call.attributes.groups
    batch, channels = x.shape[0], x.shape[1]
    grouped = x.reshape(batch, groups, channels // groups, -1)
    return [np.ascontiguousarray(grouped.transpose(0, 2, 1, 3)).reshape(x.shape)]


class ChannelShuffleOperator(PortableKernelOperator):
    """Emits a call of the kernel into the C module."""

    TYPE = KEY
    KERNEL = KERNEL


def customize_registry(context: RegistryContext) -> None:
    """Registers the operator: schema and reference, ONNX schema, C emitter, and its PyTorch op."""
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1, "ChannelShuffle (opbridge new-op)"))
    context.operators.add(
        OperatorDefinition(
            op_type=KEY,
            reference=reference,
            schema=SCHEMA,
            # Its facts (docs/adding_an_operator.md, "Operator facts"): it moves values (no MACs) between
            # channels (layout-dependent), int8 on its input's parameters, no arena memory.
            macs=None,
            layout=Layout.LAYOUT_DEPENDENT,
            quantization=SAME_AS_INPUT,
            memory=NO_MEMORY,
        )
    )
    context.aot_operator_classes.register(KEY, ChannelShuffleOperator)
    register_torch_op(context, TorchOp(KEY, TORCH_NAME, quantization=SAME_AS_INPUT))
