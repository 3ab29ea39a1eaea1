# SPDX-License-Identifier: Apache-2.0
"""The folded int8 kernel forms (cc/kernels/opbridge_kernels_folded_s8.h, docs/kernels.md).

CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED with TFLite's fixed-point
requantization and symmetric filters call these forms. What a runtime
library computes on every call is computed here once:

- the folded bias: bias[c] + input_offset * (sum of channel c's weights),
  which turns each output into a plain int8 dot product;
- one multiplier and shift for the whole layer when every channel has the
  same ones (per_channel = 0), instead of one per channel.
"""

import numpy as np

from opbridge.backends.c.emit_context import WORD_ALIGNED, EmitContext, c_int_list, constants_placement
from opbridge.backends.c.kernel_call import CExpression, StructValue, fields
from opbridge.ir import Graph, Node

FOLDED_KERNELS_HEADER = "cc/kernels/opbridge_kernels_folded_s8.h"
# The forms' files (docs/kernels.md, "Files"): the portable and DSP C, the DSP assembly, the
# Helium file of each form, and the Helium planes that CONV_2D's and DEPTHWISE_CONV_2D's share.
FOLDED_KERNEL_FILES = (
    "opbridge_folded_s8.c",
    "opbridge_folded_s8_dsp.c",
    "opbridge_add_s8_table_helium.c",
    "opbridge_conv_2d_s8_folded_helium.c",
    "opbridge_depthwise_conv_2d_s8_folded_helium.c",
    "opbridge_fully_connected_s8_folded_helium.c",
    "opbridge_folded_planes_helium.c",
)
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def folded_bias(bias: np.ndarray | None, weight_sums: np.ndarray, input_offset: int) -> np.ndarray | None:
    """bias + input_offset * weight_sums per output channel; None if a value leaves int32
    (the caller keeps the plain kernel, whose accumulator starts from 0)."""
    folded = np.asarray(weight_sums, dtype=np.int64) * int(input_offset)
    if bias is not None:
        folded = folded + np.asarray(bias, dtype=np.int64).reshape(folded.shape)
    if folded.size and (folded.min() < INT32_MIN or folded.max() > INT32_MAX):
        return None
    return folded


def fold_layer_bias(graph: Graph, node: Node, weight_sums: np.ndarray) -> np.ndarray | None:
    """The folded bias of a layer (input 0 int8 and quantized, input 2 an optional bias) from its
    weights' sums per output channel; None if the bias is computed at run time or a value leaves int32."""
    bias = None
    if len(node.inputs) > 2 and node.inputs[2] is not None:
        bias_tensor = graph.tensor(node.inputs[2])
        if bias_tensor.data is None:
            return None
        bias = np.asarray(bias_tensor.data, dtype=np.int64)
    input_q = graph.tensor(node.inputs[0]).quantization
    assert input_q is not None  # int8 operands are quantized (int8_operands)
    return folded_bias(bias, weight_sums, -input_q.zero_point)


def absorbed_bias(node: Node, folded: bool) -> list[int]:
    """The node's bias input if it has one and the layer takes a folded form, which replaces it
    (OperatorDefinition.absorbed_constants); else nothing."""
    if folded and len(node.inputs) > 2 and node.inputs[2] is not None:
        return [node.inputs[2]]
    return []


def one_stage(multipliers: np.ndarray, shifts: np.ndarray) -> bool:
    """Whether every output channel shares one multiplier and shift (the kernels' per_channel 0)."""
    multipliers, shifts = np.asarray(multipliers).ravel(), np.asarray(shifts).ravel()
    return bool((multipliers == multipliers[0]).all() and (shifts == shifts[0]).all())


def folded_requantization(
    ctx: EmitContext,
    node: Node,
    bias: np.ndarray,
    multipliers: np.ndarray,
    shifts: np.ndarray,
    output_offset: int,
    activation_min: int,
    activation_max: int,
) -> tuple[list[str], StructValue]:
    """Definitions and the opbridge_folded_requantization initializer of one layer."""
    multipliers = np.asarray(multipliers).ravel()
    shifts = np.asarray(shifts).ravel()
    shared = one_stage(multipliers, shifts)
    if shared:
        multipliers, shifts = multipliers[:1], shifts[:1]
    bias_definition, bias_symbol = ctx.int32_array(node, "folded_bias", bias)
    multipliers_definition, multipliers_symbol = ctx.int32_array(node, "multipliers", multipliers)
    shifts_definition, shifts_symbol = ctx.int32_array(node, "shifts", shifts)
    initializer = StructValue(
        "opbridge_folded_requantization",
        fields(
            folded_bias=CExpression(bias_symbol),
            multipliers=CExpression(multipliers_symbol),
            shifts=CExpression(shifts_symbol),
            per_channel=0 if shared else 1,
            output_offset=int(output_offset),
            activation_min=int(activation_min),
            activation_max=int(activation_max),
        ),
    )
    return [bias_definition, multipliers_definition, shifts_definition], initializer


def filter_in_layout_definition(
    ctx: EmitContext, node: Node, condition: str, comment: str, layout_type: str, layout_literals: str, layout_size: int
) -> str:
    """A node's own copy of its filter: in a variant's layout where the build defines `condition`
    (opbridge_kernel_variant.h: OPBRIDGE_DSP_WEIGHT_LAYOUT, OPBRIDGE_HELIUM_WEIGHT_LAYOUT), as it is
    (int8) elsewhere, under one symbol (ctx.local_symbol(node, "filter")). The node absorbs the
    original filter (OperatorDefinition.absorbed_constants), so each build holds one copy."""
    symbol = ctx.local_symbol(node, "filter")
    plain = np.asarray(ctx.graph.tensor(node.inputs[1]).data, dtype=np.int64).ravel()
    placement = constants_placement(ctx.prefix)
    return (
        f"#if {condition} /* {comment} */\n"
        f"{placement} static const {layout_type} {symbol}[{layout_size}] = {{{layout_literals}}};\n"
        "#else\n"
        f"{placement} {WORD_ALIGNED} static const int8_t {symbol}[{plain.size}] = {{{c_int_list(plain)}}};\n"
        "#endif"
    )
