# SPDX-License-Identifier: Apache-2.0
"""Hypothesis-drawn graphs for the differential tests of the folded int8 kernel forms.

`form_graph(form)` builds, for one folded form (FORMS: conv_2d_folded,
depthwise_conv_2d_folded, fully_connected_folded, and ADD's and SUB's table
form add_table, sub_table), a graph of independent
single-operator nodes drawn with hypothesis strategies, every one of which
the emitter lowers to the folded form (opbridge_*_s8_folded; generate.py
checks the emitted C). generate.py emits each graph as a C module with its
golden test (expected outputs from the NumPy reference, bit-exact with
TFLite Micro), and toolchains/kernel_golden_test.bzl runs it on every
platform: the Cortex-M55 build takes the Helium variant, the others the
portable C99 one (cc/kernels/opbridge_kernel_variant.h).

Hypothesis runs derandomized, without a database and only in its generate
phase, so a graph changes only when this file (or hypothesis) does and Bazel
caches the generated tests. What hypothesis draws at random is steered by the
node's index where a code path must be covered on purpose: the index picks
the quantization regime (QUANT_REGIMES: ordinary scales, left shifts,
multipliers at and just below powers of two, tiny scales), per-tensor or
per-channel filter scales, and for CONV_2D the windowing path (a window
copied into scratch or read in place). `node_features` names the code paths
a node exercises; form_cases_test.py checks that each graph covers FEATURES.
"""

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, assume, given, seed, settings
from hypothesis import strategies as st
from kernel_cases import OneOperatorGraph
from opbridge.ir import DType, Graph, Node, Quantization
from opbridge.ir.attribute_types import Activation, Padding, Requantization, window
from opbridge.ops.add.reference import add_parameters
from opbridge.ops.conv_2d.emit_c import (
    CONV_BLOCKS_MAX_WINDOW,
    CONV_PAIRS_BAND_BYTES,
    PLANE_CONSTANT_STEPS,
    conv_2d_scratch_bytes,
    folded_convolution_bias,
    folded_kernel,
)
from opbridge.ops.fully_connected.emit_c import DSP_LAYOUT_MAX_DEPTH, FOLDED_MIN_MACS, dsp_layout_filter
from opbridge.ops.fully_connected.reference import fully_connected_multipliers
from opbridge.ops.shared.quantized import activation_range, per_channel_multipliers
from opbridge.ops.sub.reference import sub_parameters
from opbridge_testing.kernel_case_builders import InvalidDrawError, NodeSpec, TensorSpec, attributes
from opbridge_testing.strategies import ACTIVATIONS, PADDINGS, ZERO_POINTS, int8_array, scales

INT32_MAX = 2**31 - 1
# The quantization regime of node i is QUANT_REGIMES[i % 4]; its filter scales are per channel
# when (i // 4) % 2 == 0; a CONV_2D node copies its windows into scratch when (i // 8) % 2 == 0.
QUANT_REGIMES = ("ordinary", "left_shift", "power_of_two", "tiny")
# Bounds that keep each golden program small and fast under QEMU.
MAX_INPUT_ELEMENTS = 1600
MAX_MACS = 60_000
# Examples per hypothesis run; a node is the run's last (its first is hypothesis's simplest).
EXAMPLES_PER_NODE = 2

DrawFn = Callable[[st.SearchStrategy[Any]], Any]


@dataclasses.dataclass(frozen=True)
class Form:
    """A folded kernel form: its operator, the C kernel its nodes must call, and how to draw one node."""

    name: str
    op_type: str
    kernel: str
    nodes: int
    draw: Callable[[DrawFn, int], NodeSpec]


# -- quantization ------------------------------------------------------------------------

# Zero points: the extremes and 0 often, anything in [-128, 127] otherwise.
EDGY_ZERO_POINTS = st.one_of(st.sampled_from([-128, 127, 0, -1]), ZERO_POINTS)
# Mantissas of effective scales at and next to a power of two (float32-exact): 1 - 2^-24 gives the
# largest multiplier below 2^31; with an input scale of mantissa 1 + 2^-23, 1 - 2^-23 makes the
# double product 1 - 2^-46, whose multiplier rounds up to 2^31 (and becomes 2^30, shift + 1).
POWER_OF_TWO_MANTISSAS = (1.0, 1.0 - 2.0**-24, 1.0 + 2.0**-23, 1.0 - 2.0**-23)


def regime_of(index: int) -> str:
    return QUANT_REGIMES[index % len(QUANT_REGIMES)]


def per_channel_of(index: int) -> bool:
    return (index // len(QUANT_REGIMES)) % 2 == 0


def log_uniform(draw: DrawFn, low: float, high: float) -> float:
    """A double, log-uniform between low and high."""
    return math.exp(draw(st.floats(math.log(low), math.log(high))))


def draw_quantization(
    draw: DrawFn, regime: str, channels: int, per_channel: bool, axis: int
) -> tuple[Quantization, Quantization, Quantization]:
    """Input, filter (symmetric) and output quantizations whose effective scales
    input * filter[c] / output follow `regime`."""
    count = channels if per_channel and channels > 1 else 1
    input_zero_point, output_zero_point = draw(EDGY_ZERO_POINTS), draw(EDGY_ZERO_POINTS)
    if regime == "power_of_two":
        # Power-of-two output scale and input scale (times 1 or 1 + 2^-23): the products are exact.
        input_exponent, output_exponent = draw(st.integers(5, 9)), draw(st.integers(3, 10))
        input_mantissa = draw(st.sampled_from([1.0, 1.0 + 2.0**-23]))
        input_scale = input_mantissa * 2.0**-input_exponent
        output_scale = 2.0**-output_exponent
        filter_scales = []
        for _ in range(count):
            mantissa = draw(st.sampled_from(POWER_OF_TWO_MANTISSAS))
            power = draw(st.integers(-3, 2))
            filter_scales.append(mantissa * 2.0 ** (power - output_exponent + input_exponent))
    else:
        input_scale = draw(scales(1e-3, 0.5))
        output_scale = draw(scales(1e-2, 2.0))
        if regime == "ordinary":
            filter_scales = [draw(scales(1e-3, 0.05)) for _ in range(count)]
        else:
            effective = []
            for channel in range(count):
                if regime == "left_shift":
                    # Channel 0 above 1 (left shift), the others above or below.
                    above = channel == 0 or draw(st.booleans())
                    effective.append(log_uniform(draw, 1.01, 60.0) if above else log_uniform(draw, 0.05, 0.99))
                else:  # tiny: shifts near -20, and below 2^-32 (multiplier 0)
                    effective.append(log_uniform(draw, 5e-11, 2e-5))
            filter_scales = [float(np.float32(e * output_scale / input_scale)) for e in effective]
    for scale in (input_scale, output_scale, *filter_scales):
        assert float(np.float32(scale)) == scale and scale > 0, scale
    filter_axis = axis if count > 1 else None
    return (
        Quantization((input_scale,), (input_zero_point,)),
        Quantization(tuple(filter_scales), (0,) * count, filter_axis),
        Quantization((output_scale,), (output_zero_point,)),
    )


def draw_effective_scales(
    draw: DrawFn, bounds: tuple[float, float], count: int, axis: int, input_q: Quantization, output_q: Quantization
) -> Quantization:
    """A symmetric filter quantization of `count` scales (per channel along `axis` if more than one)
    whose effective scales input * filter / output are log-uniform within `bounds`."""
    low, high = bounds
    filter_scales = tuple(
        float(np.float32(log_uniform(draw, low, high) * output_q.scale / input_q.scale)) for _ in range(count)
    )
    return Quantization(filter_scales, (0,) * count, axis if count > 1 else None)


def draw_weights(draw: DrawFn, shape: tuple[int, ...]) -> np.ndarray:
    """int8 weights in [-127, 127]: uniform, or (sometimes) all of magnitude 127 (largest sums)."""
    weights = int8_array(draw, shape)
    if draw(st.integers(0, 4)) == 0:
        weights = np.where(weights < 0, -127, 127).astype(np.int8)
    return weights


def draw_bias(
    draw: DrawFn,
    input_q: Quantization,
    filter_q: Quantization,
    channels: int,
    taps: int,
    extreme: bool = True,
    only_extreme: bool = False,
) -> TensorSpec | None:
    """No bias, an ordinary one, or (when `extreme`, always when `only_extreme`) one near the int32 limits: |bias| +
    |accumulator| stays within int32 for `taps` products per output (so TFLite Micro's accumulator
    and the folded bias do). An extreme bias saturates every output: a node whose dot products a
    test must see draws without it."""
    kinds = ["none", "ordinary", "ordinary", "extreme"] if extreme else ["none", "ordinary"]
    kind = "extreme" if only_extreme else draw(st.sampled_from(kinds))
    if kind == "none":
        return None
    if kind == "ordinary":
        seed = draw(st.integers(0, 2**32 - 1))
        data = np.random.default_rng(seed).integers(-20000, 20000, size=(channels,)).astype(np.int32)
    else:
        limit = INT32_MAX - taps * 255 * 127
        signs = draw(st.lists(st.sampled_from([-1, 1]), min_size=channels, max_size=channels))
        backoffs = draw(st.lists(st.integers(0, 1000), min_size=channels, max_size=channels))
        data = np.array([sign * (limit - backoff) for sign, backoff in zip(signs, backoffs, strict=True)], np.int32)
    bias_scales = tuple(input_q.scale * scale for scale in filter_q.scales)
    axis = 0 if len(bias_scales) > 1 else None
    return TensorSpec("bias", DType.INT32, (channels,), Quantization(bias_scales, (0,) * len(bias_scales), axis), data)


# -- geometry ----------------------------------------------------------------------------

# Filter sizes by node index (index % 5): 1x1, 3x3, large (the keyword-spotting 10x4, and 4x10),
# then anything up to 5x5.
FILTER_SIZES = (
    st.just((1, 1)),
    st.just((3, 3)),
    st.sampled_from([(10, 4), (10, 4), (4, 10)]),
    st.tuples(st.integers(1, 5), st.integers(1, 5)),
    st.tuples(st.integers(1, 5), st.integers(1, 5)),
)
CHANNELS_1_TO_40 = st.one_of(st.sampled_from([1, 2, 3, 4, 5, 8, 15, 16, 17, 33, 40]), st.integers(1, 40))
OUT_CHANNELS = st.one_of(st.sampled_from([1, 3, 4, 5, 7, 15, 16, 17, 20]), st.integers(1, 20))


@dataclasses.dataclass(frozen=True)
class Geometry:
    batches: int
    height: int
    width: int
    filter_height: int
    filter_width: int
    fields: dict[str, Any]


def draw_geometry(draw: DrawFn, index: int, filter_sizes: st.SearchStrategy[tuple[int, int]] | None = None) -> Geometry:
    """Filter (from FILTER_SIZES by index unless `filter_sizes` is given), strides, dilations,
    padding and an input size with a non-empty output."""
    filter_height, filter_width = draw(
        FILTER_SIZES[index % len(FILTER_SIZES)] if filter_sizes is None else filter_sizes
    )
    dilation_height = 1 if filter_height > 5 else draw(st.integers(1, 2))
    dilation_width = 1 if filter_width > 5 else draw(st.integers(1, 2))
    padding = draw(PADDINGS)
    fields = {
        "padding": padding,
        "stride_height": draw(st.integers(1, 3)),
        "stride_width": draw(st.integers(1, 3)),
        "dilation_height": dilation_height,
        "dilation_width": dilation_width,
        "activation": draw(ACTIVATIONS),
    }
    sizes = []
    for size, dilation in ((filter_height, dilation_height), (filter_width, dilation_width)):
        effective = (size - 1) * dilation + 1
        low = effective if padding is Padding.VALID else 1
        sizes.append(draw(st.integers(low, max(low, 10))))
    batches = draw(st.sampled_from([1, 1, 1, 2]))
    return Geometry(batches, sizes[0], sizes[1], filter_height, filter_width, fields)


def output_positions(geometry: Geometry) -> int:
    f = geometry.fields
    rows = window(f["padding"], geometry.height, geometry.filter_height, f["stride_height"], f["dilation_height"])
    cols = window(f["padding"], geometry.width, geometry.filter_width, f["stride_width"], f["dilation_width"])
    return geometry.batches * rows.output_size * cols.output_size


def require_small(geometry: Geometry, in_channels: int, macs_per_position: int) -> None:
    """Rejects (hypothesis assume) nodes too big for a quick QEMU run."""
    assume(geometry.batches * geometry.height * geometry.width * in_channels <= MAX_INPUT_ELEMENTS)
    assume(output_positions(geometry) * macs_per_position <= MAX_MACS)


# -- one node per form -----------------------------------------------------------------------


# CONV_2D nodes with no activation (the whole int8 range: the Helium variant's short output stage
# when every unit shifts right): patches and 1x1 convolutions of 16 and 32 channels.
FULL_RANGE_CONV_NODES = (0, 4, 7, 15, 16, 20, 23, 24)
# Their patches' filter sizes and input channels: windows of 1 to 4 blocks, whole or not
# (the short stage has a variant for each number of blocks).
FULL_RANGE_PATCHES = {
    23: ((1, 3), 2),
    20: ((3, 3), 3),
    0: ((3, 3), 4),
    4: ((4, 4), 3),
    16: ((4, 3), 5),
    7: ((1, 1), 8),  # a 1x1 over 8 channels: rows of positions in one call
}


# First layers that take opbridge_conv_2d_s8_folded_patch_rows (Helium: runs of windows copied to
# the stack), by node: filter, input channels, output channels, stride, padding, input height and
# width, and whether the activation clamps (else the whole int8 range, no activation). Output rows
# longer than one run of windows (OPBRIDGE_WINDOW_RUN_BYTES / 16 or 32 bytes), windows that
# overhang the input (SAME), one and two blocks, dilated along y; per-channel scales or not as the
# index says, effective scales below 1 (the entry point takes no left shift).
PATCH_ROWS_NODES = {
    34: ((3, 3), 3, 16, 2, Padding.SAME, 7, 39, False),  # MobileNet's 3x3x3, stride 2 (a column of padding on the left)
    35: ((3, 3), 1, 12, 1, Padding.SAME, 5, 36, True),  # dilated along y (below)
    36: ((5, 5), 1, 8, 1, Padding.VALID, 12, 20, True),  # dilated along y (below)
}


# Layers that take opbridge_conv_2d_s8_folded_pairs (Helium: each output row two positions at a
# time, in place or from a band of its input rows copied to the stack), by node: filter, input
# channels, output channels, stride, padding, input height and width, batches and whether the
# activation clamps (the quantization regime is the index's). Runs of odd and even length, the
# three windows of the assembly (3x3 over 16 channels written out, rows of 3 blocks a loop turn,
# rows of 1: 2x2 over 16) each with and without a left shift, windows of 576 bytes (3x3x64), two
# batches, rows wider than the band (node 47: in runs of band chunks, and a row inside the input
# split into its border windows banded and its interior read in place).
# Node 44's 6 output channels take opbridge_conv_2d_s8_folded_blocks instead, whose interior runs
# take the same pairs assembly for the whole groups (the weight rows interleaved on the stack).
PAIRS_NODES = {
    40: ((3, 3), 16, 8, 1, Padding.SAME, 4, 7, 1, True),  # banded rows of 7: three pairs and one
    41: ((3, 3), 16, 8, 1, Padding.VALID, 3, 8, 1, True),  # in place; channel 0 shifts left
    42: ((2, 2), 16, 8, 2, Padding.VALID, 5, 11, 1, False),  # 2 blocks a row: turns of 1
    43: ((3, 3), 16, 4, 1, Padding.SAME, 3, 5, 1, True),
    44: ((3, 3), 32, 6, 1, Padding.VALID, 3, 7, 2, False),  # _blocks: 6 blocks a row, two turns of 3
    45: ((3, 3), 16, 4, 1, Padding.VALID, 3, 6, 1, True),  # 3x3 written out, shifting left
    46: ((3, 3), 64, 4, 1, Padding.SAME, 4, 6, 1, True),  # 576-byte windows
    47: ((3, 3), 32, 4, 1, Padding.SAME, 3, 21, 1, False),  # rows of 21 columns, 19 a band
    56: ((3, 3), 32, 4, 1, Padding.VALID, 3, 6, 1, True),  # turns of 3 blocks, shifting left
    57: ((2, 2), 16, 4, 1, Padding.VALID, 3, 6, 1, False),  # turns of 1 block, shifting left
    # Windows of one row that are not whole blocks: padded to whole blocks on the stack.
    58: ((1, 1), 40, 4, 1, Padding.VALID, 7, 7, 1, False),  # 49 positions: a band of 42, then 7
    59: ((1, 1), 24, 8, 1, Padding.VALID, 3, 5, 1, True),
    60: ((1, 1), 72, 8, 1, Padding.SAME, 2, 5, 2, True),  # 5 blocks a position, two batches in one run
    61: ((1, 1), 24, 4, 2, Padding.SAME, 5, 7, 1, False),  # stride 2, shifting left
    # Conv1D's windows of one row: 1x5 over 40 (208 bytes padded: 9 a band) at stride 2 with SAME
    # padding (windows overhang both ends), and 1x3 over 24 over two rows and two batches.
    62: ((1, 5), 40, 4, 2, Padding.SAME, 1, 20, 1, False),
    72: ((1, 3), 24, 8, 1, Padding.SAME, 2, 12, 2, True),
    # 1x1 over more than 64 channels in whole blocks (the narrow pointwise form takes up to 64):
    # at stride 1 every position of the image in one run, at stride 2 a run a row.
    74: ((1, 1), 96, 4, 2, Padding.SAME, 3, 5, 1, False),
    76: ((1, 1), 80, 8, 1, Padding.VALID, 3, 5, 1, True),
}
# Nodes that shift left by a little (effective scales of 1.05 to 3 in the channel of the largest
# filter scale) over sparse weights of magnitude 1, so that their sums stay within the int8 range
# after the shift and a left shift left out shows: one for each window of the pairs assembly.
PAIRS_SMALL_LEFT_SHIFT_NODES = (45, 56, 57, 61)
# Nodes 47 and 58 are larger than require_small allows (2,016 and 1,960 input elements): a row must
# be wider than the band, and the positions more than a band holds.
PAIRS_WIDE_NODES = (47, 58)


# The DSP variant's pairs of positions with a clamping output stage (an activation narrower than
# int8, ordinary biases): node 12 with windows above 288 bytes, the last node with more units than
# one turn of stage constants takes (cc/kernels/opbridge_folded_s8.c).
DSP_PAIRS_UNITS_IN_TURNS_NODE = 32
DSP_BORDER_COPY_NODE = 28
DSP_PAIRS_CLAMPED_NODES = (12, DSP_PAIRS_UNITS_IN_TURNS_NODE)


def draw_conv_2d(draw: DrawFn, index: int) -> NodeSpec:
    """CONV_2D; windows copied into scratch (row of the window < 16 bytes) when (index // 8) % 2 == 0,
    else read in place. In place, 1x1 filters (index % 5 == 0, and index % 8 == 0 besides) take
    whole blocks of 16 channels: up to 64 (the Helium variant holds those in registers), or 80 on
    node 30."""
    if index in PATCH_ROWS_NODES:
        return draw_patch_rows_conv_2d(draw, index)
    if index in PAIRS_NODES:
        return draw_pairs_conv_2d(draw, index)
    if index in BY_CHANNEL_NODES:
        return draw_by_channel_conv_2d(draw, index)
    if index in PLANES_NODES:
        return draw_planes_conv_2d(draw, index)
    in_place = (index // 8) % 2 == 1
    filter_sizes = st.just((1, 1)) if in_place and index % 8 == 0 else None
    if index % 32 == 12:  # the DSP variant's pairs with an odd number of words: odd taps (below)
        filter_sizes = st.just((3, 3))
    if index in FULL_RANGE_PATCHES:
        filter_sizes = st.just(FULL_RANGE_PATCHES[index][0])
    if index == DSP_PAIRS_UNITS_IN_TURNS_NODE:
        filter_sizes = st.just((3, 3))
    # Node 9 mod 16: 16 or 32 input channels, three taps a row with SAME padding and stride 1
    # (windows overhang both sides), not dilated along x (the Helium variant copies its border
    # windows' rows 16 bytes at a time).
    whole_block_borders = in_place and index % 16 == 9
    if whole_block_borders:
        filter_sizes = st.sampled_from([(3, 3), (2, 3)])
    geometry = draw_geometry(draw, index, filter_sizes)
    if whole_block_borders:
        geometry = dataclasses.replace(
            geometry, fields={**geometry.fields, "padding": Padding.SAME, "stride_width": 1, "dilation_width": 1}
        )
    dilation_width = geometry.fields["dilation_width"]
    row_taps = geometry.filter_width if dilation_width == 1 else 1
    if index in FULL_RANGE_PATCHES:
        in_channels = FULL_RANGE_PATCHES[index][1]
        fields = {**geometry.fields, "dilation_width": 1}
        if FULL_RANGE_PATCHES[index][0] == (1, 1):  # positions two apart along both axes
            fields |= {"stride_height": 2, "stride_width": 2}
        geometry = dataclasses.replace(geometry, fields=fields)
    elif not in_place:  # scratch patch: row_taps * in_channels < 16
        in_channels = draw(st.integers(1, max(1, 15 // row_taps)))
    elif geometry.filter_height == geometry.filter_width == 1:
        in_channels = 80 if index % 16 == 14 else draw(st.sampled_from([16, 32, 48, 64]))
        in_channels = 16 if index == 24 else in_channels  # one block, no activation (below)
        geometry = dataclasses.replace(
            geometry, batches=1, height=min(geometry.height, 4), width=min(geometry.width, 4)
        )
    elif whole_block_borders:
        in_channels = draw(st.sampled_from([16, 32]))
    else:  # in place: row_taps * in_channels >= 16 (16 and 32: rows of whole vectors)
        low = -(-16 // row_taps)
        edges = sorted(c for c in {low, 16, 17, 32, 33, 40} if c >= low)
        in_channels = draw(st.one_of(st.sampled_from(edges), st.integers(low, 40)))
    out_channels = draw(OUT_CHANNELS)
    if index in FULL_RANGE_PATCHES:
        out_channels = max(out_channels, 4)  # a group of four units at least
        if FULL_RANGE_PATCHES[index][0] == (1, 1):
            out_channels = -(-out_channels // 4) * 4  # whole groups: rows of positions per call
        elif out_channels % 4 == 0:  # not whole groups only: the patch form, not its rows
            out_channels += 2
    if index == DSP_PAIRS_UNITS_IN_TURNS_NODE:  # copied windows of 36 bytes, more units than one turn takes
        filter_sizes_drawn = (geometry.filter_height, geometry.filter_width)
        assert filter_sizes_drawn == (3, 3)
        in_channels = 4
        out_channels = draw(st.sampled_from([66, 72, 80]))
    if in_place and index % 16 == 12:
        # The DSP variant's pairs of positions: input channels a multiple of 4 (an odd number of
        # them on node 12 mod 32: an odd number of words with odd filters), an even number of
        # output channels, and the full int8 range (saturating output stage) on node 28 mod 32.
        in_channels = -(-in_channels // 4) * 4
        if index == 12:  # windows above 288 bytes, widened tap by tap: 3x3x36
            in_channels = 36
        elif index % 32 == 12:
            in_channels = 4 * (2 * (min(in_channels, 28) // 8) + 1)
            while in_channels * row_taps < 16:
                in_channels += 8
        out_channels += out_channels % 2
        if index % 32 == 28:
            geometry = dataclasses.replace(geometry, fields={**geometry.fields, "activation": Activation.NONE})
    if index == DSP_BORDER_COPY_NODE:
        # Windows that overhang the input (SAME) for units the pairs do not take (an odd number):
        # the DSP variant copies them to the stack for its four-unit assembly.
        geometry = dataclasses.replace(geometry, fields={**geometry.fields, "padding": Padding.SAME})
        out_channels = max(out_channels, 5) | 1
    if index in FULL_RANGE_CONV_NODES:
        geometry = dataclasses.replace(geometry, fields={**geometry.fields, "activation": Activation.NONE})
    if index in DSP_PAIRS_CLAMPED_NODES:
        geometry = dataclasses.replace(
            geometry, fields={**geometry.fields, "activation": Activation.RELU_N1_TO_1, "dilation_width": 1}
        )
    taps = geometry.filter_height * geometry.filter_width * in_channels
    require_small(geometry, in_channels, taps * out_channels)
    # The full-range patches shift right in every channel (the "ordinary" regime).
    regime = "ordinary" if index in FULL_RANGE_PATCHES else regime_of(index)
    input_q, filter_q, output_q = draw_quantization(draw, regime, out_channels, per_channel_of(index), 0)
    if index in FULL_RANGE_PATCHES and FULL_RANGE_PATCHES[index][0] == (1, 1):
        # Eight products per output: an output scale that spreads them over the int8 range (and
        # past it, saturating some), where the drawn one may map them all to the zero point.
        scale = float(np.float32(input_q.scale * max(filter_q.scales) / 0.004))
        output_q = Quantization((scale,), output_q.zero_points)
    filter_shape = (out_channels, geometry.filter_height, geometry.filter_width, in_channels)
    inputs = [
        TensorSpec("input", DType.INT8, (geometry.batches, geometry.height, geometry.width, in_channels), input_q),
        TensorSpec("filter", DType.INT8, filter_shape, filter_q, draw_weights(draw, filter_shape)),
        draw_bias(
            draw,
            input_q,
            filter_q,
            out_channels,
            taps,
            extreme=index not in FULL_RANGE_CONV_NODES and index not in DSP_PAIRS_CLAMPED_NODES,
        ),
    ]
    node_attributes = attributes("CONV_2D", requantization=Requantization.TFLITE, **geometry.fields)
    return NodeSpec(inputs, node_attributes, output_q)


# 1x1 layers that take opbridge_conv_2d_s8_folded_pointwise_by_channel (Helium: one output channel
# at a time over every position), by node: input and output channels, input height and width,
# batches. Two positions a load (up to 8 channels; 16 bytes apart or another step), windows of one
# to three vectors, runs that end on whole groups in place or copy their last positions (and
# a partial group) to the stack, two batches as one run.
BY_CHANNEL_NODES = {
    77: (40, 7, 8, 8, 1),
    78: (24, 5, 8, 10, 1),
    79: (32, 4, 8, 8, 1),
    80: (8, 13, 10, 12, 1),
    81: (3, 5, 10, 10, 2),
    82: (5, 9, 1, 67, 1),
    83: (12, 6, 8, 9, 1),
    84: (9, 3, 1, 70, 1),
    88: (48, 6, 8, 8, 1),
    90: (16, 5, 8, 9, 1),
    91: (16, 44, 8, 9, 1),
    92: (40, 3, 8, 8, 1),
    95: (16, 20, 6, 9, 2),
    99: (8, 12, 4, 6, 1),
    103: (8, 68, 3, 4, 1),
}
# (Nodes 77-79, 88, 90-92 and 95 have 16 channels or more, 80-84, 99 and 103 fewer: the windowing
# path the other cores take, in place or the patch form, follows the index as for the other nodes.)
# In the ordinary and power-of-two regimes the output scale spreads the sums over int8 (no
# activation), so that a window read at the wrong step shows.
# By-channel nodes whose spread outputs are clamped (RELU6), their scales drawn as in the ordinary
# regime: the DSP variant's 1x1 over 8 and 16 channels (opbridge_dsp_pointwise) has a clamping
# stage of its own for each.
BY_CHANNEL_CLAMPED_NODES = (91, 95, 103)
# A by-channel node over 8 channels whose right shifts (25 to 30) and output zero point (-128) would
# wrap that path's rounding term (R + (offset << r)): it must decline them.
BY_CHANNEL_LARGE_SHIFT_NODES = (99,)


# Layers that take opbridge_conv_2d_s8_folded_planes (Helium: each output row's windows made
# contiguous in a plane), by node: filter, input and output channels, strides (y, x), padding, input
# height and width, batches. Windows of one vector at the constant steps of 3x3 grey first layers
# (strides 2 and 1) and at another, rows copied by one offset vector (1 channel) or by a period of
# five (5 channels), rows above and below the input, two batches. (Nodes 85-87: the patch form on
# the other cores, as the index has it for the other nodes.)
PLANES_NODES = {
    85: ((3, 3), 1, 8, (2, 2), Padding.SAME, 11, 40, 1),
    86: ((3, 3), 1, 5, (1, 1), Padding.VALID, 5, 20, 1),
    87: ((3, 1), 5, 6, (2, 3), Padding.SAME, 7, 50, 2),
}


def draw_planes_conv_2d(draw: DrawFn, index: int) -> NodeSpec:
    """A layer of PLANES_NODES."""
    filter_size, in_channels, out_channels, (stride_height, stride_width), padding, height, width, batches = (
        PLANES_NODES[index]
    )
    fields = undilated_fields(padding, stride_height, stride_width, draw(ACTIVATIONS))
    input_q, filter_q, output_q = draw_quantization(draw, regime_of(index), out_channels, per_channel_of(index), 0)
    inputs = conv_layer_inputs(
        draw, (batches, height, width, in_channels), input_q, filter_size, out_channels, filter_q
    )
    return NodeSpec(inputs, attributes("CONV_2D", requantization=Requantization.TFLITE, **fields), output_q)


def conv_layer_inputs(
    draw: DrawFn,
    input_shape: tuple[int, int, int, int],
    input_q: Quantization,
    filter_size: tuple[int, int],
    out_channels: int,
    filter_q: Quantization,
) -> list[TensorSpec | None]:
    """A CONV_2D's input, drawn filter and ordinary bias (or none)."""
    filter_shape = (out_channels, *filter_size, input_shape[3])
    return [
        TensorSpec("input", DType.INT8, input_shape, input_q),
        TensorSpec("filter", DType.INT8, filter_shape, filter_q, draw_weights(draw, filter_shape)),
        draw_bias(
            draw, input_q, filter_q, out_channels, filter_size[0] * filter_size[1] * input_shape[3], extreme=False
        ),
    ]


def draw_by_channel_conv_2d(draw: DrawFn, index: int) -> NodeSpec:
    """A 1x1 layer of BY_CHANNEL_NODES."""
    in_channels, out_channels, height, width, batches = BY_CHANNEL_NODES[index]
    regime = "ordinary" if index in BY_CHANNEL_CLAMPED_NODES else regime_of(index)
    spread = regime in ("ordinary", "power_of_two")
    # no activation where spread (a clamp would squeeze the spread outputs into a few values), but
    # RELU6 on the clamped nodes
    if index in BY_CHANNEL_CLAMPED_NODES:
        activation = Activation.RELU6
    else:
        activation = Activation.NONE if spread else draw(ACTIVATIONS)
    fields = undilated_fields(draw(PADDINGS), 1, 1, activation)
    input_q, filter_q, output_q = draw_quantization(draw, regime, out_channels, per_channel_of(index), 0)
    if spread:
        output_q = Quantization(
            (float(np.float32(input_q.scale * max(filter_q.scales) / 0.003)),), output_q.zero_points
        )
    if index in BY_CHANNEL_LARGE_SHIFT_NODES:
        output_q = Quantization(output_q.scales, (-128,))
        effective = [log_uniform(draw, 2.0**-30, 2.0**-25) for _ in filter_q.scales]
        filter_scales = tuple(float(np.float32(e * output_q.scale / input_q.scale)) for e in effective)
        filter_q = Quantization(filter_scales, filter_q.zero_points, filter_q.axis)
    inputs = conv_layer_inputs(draw, (batches, height, width, in_channels), input_q, (1, 1), out_channels, filter_q)
    return NodeSpec(inputs, attributes("CONV_2D", requantization=Requantization.TFLITE, **fields), output_q)


def undilated_fields(padding: Padding, stride_height: int, stride_width: int, activation: Activation) -> dict[str, Any]:
    """A convolution's window fields, not dilated."""
    return {
        "padding": padding,
        "stride_height": stride_height,
        "stride_width": stride_width,
        "dilation_height": 1,
        "dilation_width": 1,
        "activation": activation,
    }


def draw_pairs_conv_2d(draw: DrawFn, index: int) -> NodeSpec:
    """A layer of PAIRS_NODES (Helium: interior runs two positions at a time)."""
    filter_size, in_channels, out_channels, stride, padding, height, width, batches, clamped = PAIRS_NODES[index]
    activation = (
        draw(st.sampled_from([Activation.RELU, Activation.RELU6, Activation.RELU_N1_TO_1]))
        if clamped
        else Activation.NONE
    )
    fields = undilated_fields(padding, stride, stride, activation)
    geometry = Geometry(batches, height, width, filter_size[0], filter_size[1], fields)
    taps = filter_size[0] * filter_size[1] * in_channels
    if index not in PAIRS_WIDE_NODES:
        require_small(geometry, in_channels, taps * out_channels)
    input_q, filter_q, output_q = draw_quantization(draw, regime_of(index), out_channels, per_channel_of(index), 0)
    filter_shape = (out_channels, *filter_size, in_channels)
    weights = draw_weights(draw, filter_shape)
    if index in PAIRS_SMALL_LEFT_SHIFT_NODES:
        weights = np.zeros(filter_shape, dtype=np.int8)
        for unit in range(out_channels):
            taps_of_unit = draw(st.lists(st.integers(0, taps - 1), min_size=1, max_size=2, unique=True))
            weights[unit].reshape(-1)[taps_of_unit] = draw(st.sampled_from([-1, 1]))
        effective = draw(st.floats(1.05, 3.0))
        output_q = Quantization(
            (float(np.float32(input_q.scale * max(filter_q.scales) / effective)),), output_q.zero_points
        )
    inputs = [
        TensorSpec("input", DType.INT8, (batches, height, width, in_channels), input_q),
        TensorSpec("filter", DType.INT8, filter_shape, filter_q, weights),
        draw_bias(draw, input_q, filter_q, out_channels, taps, extreme=index not in PAIRS_SMALL_LEFT_SHIFT_NODES),
    ]
    return NodeSpec(inputs, attributes("CONV_2D", requantization=Requantization.TFLITE, **fields), output_q)


def draw_patch_rows_conv_2d(draw: DrawFn, index: int) -> NodeSpec:
    """A first layer of PATCH_ROWS_NODES (opbridge_conv_2d_s8_folded_patch_rows)."""
    filter_size, in_channels, out_channels, stride, padding, height, width, clamped = PATCH_ROWS_NODES[index]
    # Node 35 (grey, one block) is dilated along y too: undilated, it would take the planes path.
    dilation_height = 2 if filter_size == (5, 5) or index == 35 else 1
    fields = {
        "padding": padding,
        "stride_height": stride,
        "stride_width": stride,
        "dilation_height": dilation_height,
        "dilation_width": 1,
        "activation": Activation.RELU_N1_TO_1 if clamped else Activation.NONE,
    }
    geometry = Geometry(1, height, width, filter_size[0], filter_size[1], fields)
    taps = filter_size[0] * filter_size[1] * in_channels
    require_small(geometry, in_channels, taps * out_channels)
    input_q, filter_q, output_q = draw_quantization(draw, "ordinary", out_channels, per_channel_of(index), 0)
    # An output scale that spreads the sums over the int8 range (some past it): every channel's
    # effective scale at most 1/250, a right shift (the entry point takes no left shift).
    output_scale = float(np.float32(input_q.scale * max(filter_q.scales) / 0.004))
    output_q = Quantization((output_scale,), output_q.zero_points)
    filter_shape = (out_channels, *filter_size, in_channels)
    inputs = [
        TensorSpec("input", DType.INT8, (1, height, width, in_channels), input_q),
        TensorSpec("filter", DType.INT8, filter_shape, filter_q, draw_weights(draw, filter_shape)),
        draw_bias(draw, input_q, filter_q, out_channels, taps, extreme=False),
    ]
    return NodeSpec(inputs, attributes("CONV_2D", requantization=Requantization.TFLITE, **fields), output_q)


# The DEPTHWISE_CONV_2D node (3x3, whole blocks of 16 channels) whose negative weights are -128.
MINIMUM_WEIGHTS_DEPTHWISE_NODE = 0


# The DEPTHWISE_CONV_2D node the DSP variant's assembly takes with a clamping stage and 9 taps, and
# one it declines for its bias (an accumulator that may reach 2^30: the C loop runs).
DSP_DEPTHWISE_CLAMPED_NODE = 24
DSP_DEPTHWISE_DECLINED_NODE = 4


# Depthwise layers of 8 channels that take opbridge_depthwise_conv_2d_s8_folded_8_channels (Helium:
# two positions a vector), by node: filter, padding, strides (y, x), dilation along x, input height
# and width, activation. A row in chunks whose lines are rolled and moved (full int8 range, taps in
# pairs), a 5x5 clamped, a window dilated along x (taps one by one, lines rolled, an odd width).
EIGHT_CHANNELS_NODES = {
    26: ((3, 3), Padding.SAME, (1, 1), 1, 4, 44, Activation.NONE),
    27: ((5, 5), Padding.VALID, (2, 1), 1, 12, 16, Activation.RELU_N1_TO_1),
    28: ((3, 3), Padding.SAME, (1, 1), 2, 2, 21, Activation.RELU6),
}


def draw_eight_channels_depthwise(draw: DrawFn, index: int) -> NodeSpec:
    """A depthwise layer of EIGHT_CHANNELS_NODES, its output scale spreading the sums over int8."""
    filter_size, padding, (stride_height, stride_width), dilation_width, height, width, activation = (
        EIGHT_CHANNELS_NODES[index]
    )
    fields = {
        "padding": padding,
        "stride_height": stride_height,
        "stride_width": stride_width,
        "dilation_height": 1,
        "dilation_width": dilation_width,
        "activation": activation,
    }
    input_q, filter_q, output_q = draw_quantization(draw, "ordinary", 8, per_channel_of(index), 3)
    output_q = Quantization((float(np.float32(input_q.scale * max(filter_q.scales) / 0.005)),), output_q.zero_points)
    filter_shape = (1, *filter_size, 8)
    inputs = [
        TensorSpec("input", DType.INT8, (1, height, width, 8), input_q),
        TensorSpec("filter", DType.INT8, filter_shape, filter_q, draw_weights(draw, filter_shape)),
        draw_bias(draw, input_q, filter_q, 8, filter_size[0] * filter_size[1], extreme=False),
    ]
    node_attributes = attributes(
        "DEPTHWISE_CONV_2D", depth_multiplier=1, requantization=Requantization.TFLITE, **fields
    )
    return NodeSpec(inputs, node_attributes, output_q)


# Depthwise layers that take opbridge_depthwise_conv_2d_s8_folded_planar (Helium: channel by channel over
# planes of window columns), by node: filter, padding, strides (y, x), input height, width and
# channels, batches. Windows of 1 to 4 vectors at constant and other steps, rows ending in whole
# groups of four positions or not, output rows that keep window rows and one that keeps none (a
# stride above the filter's height), a 1x5 window (one slot), two batches; the index's regime
# (left shifts, power-of-two and tiny scales) as for the other nodes.
PLANAR_NODES = {
    29: ((5, 5), Padding.SAME, (1, 1), 6, 20, 6, 1),
    30: ((7, 7), Padding.SAME, (2, 2), 14, 17, 5, 1),
    31: ((4, 4), Padding.VALID, (1, 1), 5, 20, 7, 1),
    32: ((4, 5), Padding.SAME, (1, 1), 5, 12, 7, 1),
    33: ((6, 7), Padding.SAME, (3, 1), 9, 10, 3, 1),
    34: ((3, 3), Padding.SAME, (4, 1), 9, 18, 4, 2),
    35: ((1, 5), Padding.SAME, (1, 1), 1, 40, 9, 1),
    36: ((7, 7), Padding.VALID, (1, 1), 8, 14, 4, 1),
    38: ((3, 3), Padding.SAME, (1, 1), 3, 20, 5, 1),
    40: ((1, 1), Padding.VALID, (1, 1), 2, 24, 6, 1),
    44: ((3, 3), Padding.SAME, (2, 2), 9, 36, 4, 1),
    48: ((5, 5), Padding.SAME, (2, 2), 10, 16, 8, 1),
}
# Depthwise layers (ordinary regime) for the DSP variant's planes (opbridge_dsp_depthwise_planar), as
# PLANAR_NODES: with nodes 26, 27, 36, 44 and 48 they take each stride and number of weight pairs a
# row; a 7x7 at stride 2 over two batches and an odd input width, a 3x4 whose stride along y (4)
# skips input rows, a 5x3 at stride 2 whose rows end in a group of positions partly computed before.
DSP_PLANAR_NODES = {
    52: ((7, 7), Padding.SAME, (2, 2), 11, 15, 4, 2),
    56: ((3, 4), Padding.VALID, (4, 1), 10, 24, 4, 1),
    60: ((5, 3), Padding.SAME, (2, 2), 12, 26, 4, 1),
}
# Planar nodes of the ordinary regime at constant steps (7x7 at stride 1, 3x3 and 5x5 at stride 2)
# with no activation: their outputs spread over int8, so that a window read at the wrong step shows.
PLANAR_UNCLAMPED_NODES = (36, 44, 48)
# Its nodes whose sums stay small (weights within [-4, 3] or [-2, 1], no bias) and whose outputs keep their negative
# values (no activation: a clamp at the zero point would hide how they round), by node: the range
# of their effective scales. Node 38's right shifts of 3 to 6 bits make one output in 8 to 64 a
# tie, where the rounding of negative halves away from zero shows; node 40's shifts of 0 and 1
# take no rounding fix.
PLANAR_SMALL_SUM_NODES = {38: (2.0**-6, 2.0**-3), 40: (0.5, 2.0)}


def draw_planar_depthwise(draw: DrawFn, index: int) -> NodeSpec:
    """A depthwise layer of PLANAR_NODES or DSP_PLANAR_NODES; in the ordinary regime its output
    scale spreads the sums over int8."""
    filter_size, padding, (stride_height, stride_width), height, width, channels, batches = (
        PLANAR_NODES | DSP_PLANAR_NODES
    )[index]
    unclamped = index in PLANAR_SMALL_SUM_NODES or index in PLANAR_UNCLAMPED_NODES
    fields = undilated_fields(padding, stride_height, stride_width, Activation.NONE if unclamped else draw(ACTIVATIONS))
    input_q, filter_q, output_q = draw_quantization(draw, regime_of(index), channels, per_channel_of(index), 3)
    if regime_of(index) == "ordinary":
        output_q = Quantization(
            (float(np.float32(input_q.scale * max(filter_q.scales) / 0.005)),), output_q.zero_points
        )
    filter_shape = (1, *filter_size, channels)
    weights = draw_weights(draw, filter_shape)
    if index in PLANAR_SMALL_SUM_NODES:
        low, high = PLANAR_SMALL_SUM_NODES[index]
        filter_q = draw_effective_scales(
            draw, (low, high), channels if per_channel_of(index) else 1, 3, input_q, output_q
        )
        weights = (weights // (32 if index == 38 else 64)).astype(np.int8)  # within [-4, 3] or [-2, 1]
    inputs = [
        TensorSpec("input", DType.INT8, (batches, height, width, channels), input_q),
        TensorSpec("filter", DType.INT8, filter_shape, filter_q, weights),
        # no bias on the small-sum nodes: an ordinary one (up to 20000) would saturate their outputs
        None
        if index in PLANAR_SMALL_SUM_NODES
        else draw_bias(draw, input_q, filter_q, channels, filter_size[0] * filter_size[1], extreme=False),
    ]
    node_attributes = attributes(
        "DEPTHWISE_CONV_2D", depth_multiplier=1, requantization=Requantization.TFLITE, **fields
    )
    return NodeSpec(inputs, node_attributes, output_q)


def draw_depthwise_conv_2d(draw: DrawFn, index: int) -> NodeSpec:
    """DEPTHWISE_CONV_2D: depth multiplier 1 on even nodes, 2-8 on odd ones (a separate path).

    Of the even nodes, every third has whole blocks of 16 channels (the Helium variant's window
    lines, with a left shift or, where the regime is "ordinary", without; 3x3 filters and others)
    and the next has them with rows wider than the line buffer holds (chunks of a row; a dilated
    10x4 window too large for it)."""
    if index in EIGHT_CHANNELS_NODES:
        return draw_eight_channels_depthwise(draw, index)
    if index in PLANAR_NODES or index in DSP_PLANAR_NODES:
        return draw_planar_depthwise(draw, index)
    group = (index // 2) % 3 if index % 2 == 0 else None
    filter_sizes = None
    if group == 0 and regime_of(index) == "ordinary":  # 3x3, then other sizes
        filter_sizes = (
            st.just((3, 3)) if index % 24 == 0 else st.tuples(st.integers(1, 5), st.sampled_from([1, 2, 4, 5]))
        )
    elif group == 1 and index % len(FILTER_SIZES) != 2:  # 3 rows: a row wider than the line buffer
        filter_sizes = st.tuples(st.just(3), st.integers(1, 3))
    elif index % 8 == 1:  # one input channel, windows of whole 16-byte blocks
        filter_sizes = st.sampled_from([(4, 4), (2, 8)])
    geometry = draw_geometry(draw, index, filter_sizes)
    multiplier = 1 if index % 2 == 0 else draw(st.sampled_from([4, 8] if index % 8 == 1 else [2, 3, 4, 8]))
    if multiplier > 1:  # one input channel on every other odd node (its own Helium path)
        in_channels = 1 if index % 4 == 1 else draw(st.integers(2, 5))
    elif group == 2:
        in_channels = draw(CHANNELS_1_TO_40)
    elif group == 0:  # not dilated along x
        in_channels = draw(st.sampled_from([16, 17, 32, 33, 40]))
        geometry = dataclasses.replace(geometry, fields={**geometry.fields, "dilation_width": 1})
    else:
        in_channels = draw(st.integers(16, 18))
        width = draw(st.integers(26, 31))
        geometry = dataclasses.replace(
            geometry,
            batches=1,
            height=MAX_INPUT_ELEMENTS // (in_channels * width),
            width=width,
            # dilated along x: rows this wide would take the planar path otherwise
            fields={**geometry.fields, "padding": Padding.SAME, "dilation_height": 1, "dilation_width": 2},
        )
    channels = in_channels * multiplier
    if index == 12:  # the DSP variant's depthwise assembly with the full int8 range
        geometry = dataclasses.replace(geometry, fields={**geometry.fields, "activation": Activation.NONE})
    if index == DSP_DEPTHWISE_DECLINED_NODE:  # channels it would take, but a bias near the int32 limits
        in_channels = channels = 16
    if index == DSP_DEPTHWISE_CLAMPED_NODE:  # and clamping, over an odd number of taps
        in_channels = channels = draw(st.sampled_from([16, 32, 40]))
        geometry = dataclasses.replace(
            geometry,
            filter_height=3,
            filter_width=3,
            fields={**geometry.fields, "activation": Activation.RELU_N1_TO_1},
        )
    taps = geometry.filter_height * geometry.filter_width
    require_small(geometry, channels, taps * channels)
    input_q, filter_q, output_q = draw_quantization(draw, regime_of(index), channels, per_channel_of(index), 3)
    filter_shape = (1, geometry.filter_height, geometry.filter_width, channels)
    input_shape = (geometry.batches, geometry.height, geometry.width, in_channels)
    weights = draw_weights(draw, filter_shape)
    if index == MINIMUM_WEIGHTS_DEPTHWISE_NODE:
        # Weights of -128 against inputs near -128 (the quiet golden inputs sit at the zero
        # point): two such products overflow int16, so the Helium variant must not pair taps.
        weights = np.where(weights < 0, -128, weights).astype(np.int8)
        input_q = Quantization(input_q.scales, (-128,))
    inputs = [
        TensorSpec("input", DType.INT8, input_shape, input_q),
        TensorSpec("filter", DType.INT8, filter_shape, filter_q, weights),
        draw_bias(
            draw,
            input_q,
            filter_q,
            channels,
            taps,
            extreme=index != DSP_DEPTHWISE_CLAMPED_NODE,
            only_extreme=index == DSP_DEPTHWISE_DECLINED_NODE,
        ),
    ]
    node_attributes = attributes(
        "DEPTHWISE_CONV_2D", depth_multiplier=multiplier, requantization=Requantization.TFLITE, **geometry.fields
    )
    return NodeSpec(inputs, node_attributes, output_q)


# Nodes whose rows are whole 16-byte blocks, and how many, for Helium's rows functions (four units a
# group, 64-byte chunks by VLDM, then 0-3 blocks): a shared stage (ordinary regime) at each tail after
# whole chunks; with left shifts (shared and per channel), rows of 1-3 blocks (no whole chunk);
# per channel at each tail.
ROWS_VLDM_BLOCKS = {4: 8, 12: 7, 20: 10, 28: 5, 5: 1, 13: 2, 21: 3, 1: 6, 9: 3, 17: 9, 25: 4}
# Of them, nodes whose sums stay small (weights within [-2, 1] or [-1, 0], no bias) and whose outputs
# keep their negative values (no activation, zero points 0), by node: the range of their effective scales. Node
# 26's right shift of 3 bits makes one output in 8 a tie (its 32 units, 64 outputs a case, give
# several negative ones), where the rounding of negative halves away from zero shows; node 30's
# shift of 0 takes no rounding fix.
ROWS_VLDM_SMALL_SUM_NODES = {26: (2.0**-4, 2.0**-3), 30: (0.5, 0.99)}
ROWS_VLDM_BLOCKS |= {26: 4, 30: 1}
# The per-channel node with more groups of four units than one span of the stack's constants.
ROWS_VLDM_SPANS_NODE = 1
ROWS_VLDM_SPAN_UNITS = 64  # OPBRIDGE_ROWS_SPAN_GROUPS (cc/kernels/opbridge_fully_connected_s8_folded_helium.c) x 4


# The FULLY_CONNECTED node that takes the DSP layout with per-channel stage constants in turns.
DSP_LAYOUT_TURNS_NODE = 32


def draw_fully_connected(draw: DrawFn, index: int) -> NodeSpec:
    depth = draw(st.one_of(st.sampled_from([1, 3, 15, 16, 17, 31, 32, 33, 64, 100]), st.integers(1, 100)))
    units = draw(OUT_CHANNELS)
    batches = draw(st.integers(1, 2))
    # Smaller layers keep the plain kernel (FOLDED_MIN_MACS): lengthen the rows by whole 16-byte blocks,
    # which keeps depth % 16 as drawn.
    shortfall = FOLDED_MIN_MACS - batches * units * depth
    depth += 16 * max(0, math.ceil(shortfall / (16 * batches * units)))
    if index == 0 and depth % 8 == 0:  # the DSP variant's odd number of words per row
        depth += 4
    if index in ROWS_VLDM_BLOCKS:  # Helium's rows functions
        depth = 16 * ROWS_VLDM_BLOCKS[index]
        units = max(units, 4, -(-FOLDED_MIN_MACS // (batches * depth)))
        if index == ROWS_VLDM_SPANS_NODE:
            units = ROWS_VLDM_SPAN_UNITS + draw(st.integers(4, 12))
        if index in ROWS_VLDM_SMALL_SUM_NODES:
            batches, units = 2, 32
    if index % 4 == 2 and index not in ROWS_VLDM_BLOCKS:  # rows shorter than 16 bytes (their own entry point)
        depth = (8, 5, 15, 1, 8, 3)[index // 4 % 6]  # 8: two rows a vector, as ad01's bottleneck
        units = max(units, -(-FOLDED_MIN_MACS // (batches * depth)))
    if index == DSP_LAYOUT_TURNS_NODE:  # an odd number of 8-byte steps, per-channel units in two turns
        depth, units = 40, draw(st.sampled_from([66, 72]))
    input_q, filter_q, output_q = draw_quantization(draw, regime_of(index), units, per_channel_of(index), 0)
    weights = draw_weights(draw, (units, depth))
    if index in ROWS_VLDM_SMALL_SUM_NODES:
        low, high = ROWS_VLDM_SMALL_SUM_NODES[index]
        filter_q = draw_effective_scales(draw, (low, high), units if per_channel_of(index) else 1, 0, input_q, output_q)
        # zero points 0: sums of either sign, and negative outputs not clamped at -128
        input_q = Quantization(input_q.scales, (0,))
        output_q = Quantization(output_q.scales, (0,))
        weights = (weights.astype(np.int16) // (64 if low < 0.5 else 128)).astype(np.int8)
    if index == DSP_LAYOUT_TURNS_NODE:
        # Uniform symmetric weights (as TFLite's converter writes them), and scales that put a
        # sum's 256ths on the output (per channel, each a little apart) under a RELU6 that clamps at
        # 72 (output scale 6/200, zero point -128): an error of one product shows, and both bounds do.
        weights = np.maximum(int8_array(draw, (units, depth)), -127).astype(np.int8)
        output_scale = float(np.float32(6 / 200))
        filter_scales = tuple(
            float(np.float32(output_scale / (256 * input_q.scale) * (1 + c / 1024))) for c in range(units)
        )
        filter_q = Quantization(filter_scales, (0,) * units, 0)
        output_q = Quantization((output_scale,), (-128,))
    inputs = [
        TensorSpec("input", DType.INT8, (batches, depth), input_q),
        TensorSpec("filter", DType.INT8, (units, depth), filter_q, weights),
        # no bias on the small-sum nodes: an ordinary one (up to 20000) would saturate their outputs
        None
        if index in ROWS_VLDM_SMALL_SUM_NODES
        else draw_bias(draw, input_q, filter_q, units, depth, extreme=index != DSP_LAYOUT_TURNS_NODE),
    ]
    activation = Activation.RELU6 if index == DSP_LAYOUT_TURNS_NODE else draw(ACTIVATIONS)
    if index in ROWS_VLDM_SMALL_SUM_NODES:
        activation = Activation.NONE
    node_attributes = attributes("FULLY_CONNECTED", activation=activation, requantization=Requantization.TFLITE)
    return NodeSpec(inputs, node_attributes, output_q)


# -- the 16x8 FULLY_CONNECTED (int16 activations, int8 weights) --------------------------------

# The quantization regime of node i of fully_connected_s16 is S16_REGIMES[i % 4]: effective scales
# below 1, above 1 (left shifts), of a mantissa just below 1 (multipliers at and above 0x7FFF0000,
# which TFLite's 64-bit rescale rounds to 0x7FFF), and tiny ones under int64 biases far beyond
# int32 (sums whose high word matters, rescaled by right shifts of more than 32 bits).
S16_REGIMES = ("ordinary", "left_shift", "mantissa_near_1", "wide_sums")
# Output scale mantissas that put the multiplier in [0x7FFF0000, 0x7FFF8000), at or above
# 0x7FFF8000, and just below 2^31 (with power-of-two input and filter scales).
S16_NEAR_1_OUTPUT_MANTISSAS = (1.0 + 2.0**-15, 1.0 + 2.0**-16, 1.0 + 2.0**-23)
# The node with input offsets (a zero point off 0: not TFLite's scheme, the kernels' C loop).
S16_OFFSETS_NODE = 6
# The node deeper than the DSP variant pairs a row for (OPBRIDGE_S16_DSP_PAIRED_DEPTH).
S16_DSP_PAIRED_DEPTH = 1024
S16_UNPAIRED_NODE = 9
# OPBRIDGE_S16_DSP_TURN_UNITS: the units whose sums' starts the DSP variant lays out at a time.
S16_DSP_TURN_UNITS = 64
# The node whose 64-bit rescale shifts right by exactly 32 (shift -17), with no activation.
S16_SHIFT_32_NODE = 12
# The node with more units than that (per-channel scales: their multipliers and shifts in turns).
S16_TURNS_NODE = 16


def draw_fully_connected_s16(draw: DrawFn, index: int) -> NodeSpec:
    """16x8 FULLY_CONNECTED (TFLite's int16 activations with int8 weights): depths with and without
    a tail of 1-7, units in fours and not, an int64 bias, none or an int32 one (index % 3), per-
    channel scales when (index // 4) % 2 == 0, the regime S16_REGIMES[index % 4]."""
    regime = S16_REGIMES[index % len(S16_REGIMES)]
    per_channel = (index // len(S16_REGIMES)) % 2 == 0
    depth = draw(st.one_of(st.sampled_from([1, 3, 7, 8, 9, 16, 17, 64, 100, 128, 257, 640]), st.integers(1, 700)))
    units = draw(st.one_of(st.sampled_from([1, 2, 3, 4, 5, 7, 8, 12, 13, 16]), st.integers(1, 20)))
    batches = draw(st.integers(1, 2))
    if index == S16_UNPAIRED_NODE:
        depth, units, batches = S16_DSP_PAIRED_DEPTH + draw(st.integers(1, 40)), draw(st.integers(2, 9)), 1
    if index == S16_TURNS_NODE:
        depth, units = draw(st.integers(40, 120)), S16_DSP_TURN_UNITS + draw(st.integers(1, 8))
    assume(batches * depth <= MAX_INPUT_ELEMENTS and batches * depth * units <= MAX_MACS)
    count = units if per_channel and units > 1 else 1
    bias_kind = "int64" if regime == "wide_sums" else ("int64", "none", "int32")[index % 3]
    if regime in ("mantissa_near_1", "wide_sums"):
        input_scale = 2.0 ** -draw(st.integers(10, 14))
        filter_scales = [2.0 ** -draw(st.integers(6, 9)) for _ in range(count)]
        if regime == "mantissa_near_1":  # exact in float32: the effective scale is 2^-k / mantissa
            mantissa = draw(st.sampled_from(S16_NEAR_1_OUTPUT_MANTISSAS))
            output_scale = input_scale * filter_scales[0] * mantissa * 2.0 ** draw(st.integers(4, 20))
        else:
            mantissa = float(np.float32(draw(st.floats(1.0, 2.0, exclude_max=True))))
            output_scale = input_scale * filter_scales[0] * mantissa * 2.0 ** draw(st.integers(26, 29))
    else:
        input_scale = draw(scales(1e-5, 1e-2))
        filter_scales = [draw(scales(1e-3, 0.05)) for _ in range(count)]
        low, high = (1e-6, 1e-2) if regime == "ordinary" else (1.5, 60.0)
        if index == S16_SHIFT_32_NODE:
            low, high = 2.0**-18, 2.0**-17.2
        output_scale = float(np.float32(input_scale * filter_scales[0] / log_uniform(draw, low, high)))
    input_zero_point = draw(st.integers(-300, 300).filter(bool)) if index == S16_OFFSETS_NODE else 0
    input_q = Quantization((input_scale,), (input_zero_point,))
    filter_q = Quantization(tuple(filter_scales), (0,) * count, 0 if count > 1 else None)
    output_q = Quantization((output_scale,), (0,))
    weights = draw_weights(draw, (units, depth))
    bias = None
    if bias_kind != "none":
        dtype = DType.INT64 if bias_kind == "int64" else DType.INT32
        magnitude = 2 ** draw(st.integers(36, 40)) if regime == "wide_sums" else 2**20
        seed_ = draw(st.integers(0, 2**32 - 1))
        data = np.random.default_rng(seed_).integers(-magnitude, magnitude, size=(units,)).astype(dtype.numpy)
        bias_q = Quantization(
            tuple(input_scale * scale for scale in filter_scales), (0,) * count, 0 if count > 1 else None
        )
        bias = TensorSpec("bias", dtype, (units,), bias_q, data)
    inputs = [
        TensorSpec("input", DType.INT16, (batches, depth), input_q),
        TensorSpec("filter", DType.INT8, (units, depth), filter_q, weights),
        bias,
    ]
    activation = Activation.NONE if index == S16_SHIFT_32_NODE else draw(ACTIVATIONS)
    node_attributes = attributes("FULLY_CONNECTED", activation=activation, requantization=Requantization.TFLITE)
    return NodeSpec(inputs, node_attributes, output_q)


def draw_add_or_sub(op_type: str) -> Callable[[DrawFn, int], NodeSpec]:
    """ADD or SUB of two int8 inputs of the output's shape (the table form): element counts with
    and without a tail of 1-3, scales of either input the larger (by up to 1000x), edgy zero points."""

    def draw_node(draw: DrawFn, index: int) -> NodeSpec:
        shape = tuple(draw(st.lists(st.integers(1, 9), min_size=1, max_size=4)))
        assume(int(np.prod(shape)) <= MAX_INPUT_ELEMENTS)
        larger = log_uniform(draw, 1e-3, 0.5)
        ratio = log_uniform(draw, 1.0, 1000.0)
        first_scale, second_scale = (larger, larger / ratio) if index % 2 == 0 else (larger / ratio, larger)
        quantizations = [
            Quantization((first_scale,), (draw(EDGY_ZERO_POINTS),)),
            Quantization((second_scale,), (draw(EDGY_ZERO_POINTS),)),
        ]
        output_q = Quantization((log_uniform(draw, 1e-3, 2.0),), (draw(EDGY_ZERO_POINTS),))
        inputs = [TensorSpec(f"input{i}", DType.INT8, shape, q) for i, q in enumerate(quantizations)]
        return NodeSpec(inputs, attributes(op_type, activation=draw(ACTIVATIONS)), output_q)

    return draw_node


FORMS: dict[str, Form] = {
    form.name: form
    for form in (
        Form("conv_2d_folded", "CONV_2D", "opbridge_conv_2d_s8_folded", 104, draw_conv_2d),
        Form(
            "depthwise_conv_2d_folded",
            "DEPTHWISE_CONV_2D",
            "opbridge_depthwise_conv_2d_s8_folded",
            61,
            draw_depthwise_conv_2d,
        ),
        Form(
            "fully_connected_folded", "FULLY_CONNECTED", "opbridge_fully_connected_s8_folded", 33, draw_fully_connected
        ),
        Form("fully_connected_s16", "FULLY_CONNECTED", "opbridge_fully_connected_s16", 24, draw_fully_connected_s16),
        Form("add_table", "ADD", "opbridge_add_s8_table", 16, draw_add_or_sub("ADD")),
        Form("sub_table", "SUB", "opbridge_add_s8_table", 16, draw_add_or_sub("SUB")),
    )
}
# Forms whose nodes have a filter, whose quantization the node index steers (QUANT_REGIMES).
FILTER_FORMS = ("conv_2d_folded", "depthwise_conv_2d_folded", "fully_connected_folded")


def draw_node(form: Form, index: int) -> NodeSpec:
    """Node `index` of `form`: the last of EXAMPLES_PER_NODE examples of a hypothesis run seeded by
    the form's name and the index (hypothesis starts from its simplest example; the run is
    deterministic: seeded, no database, generation only). Invalid draws are rejected (assume)."""
    drawn: list[NodeSpec] = []
    probe = OneOperatorGraph(form.op_type, form.name)

    @seed(f"{form.name}/{index}")
    @settings(
        database=None,
        max_examples=EXAMPLES_PER_NODE,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        spec = form.draw(data.draw, index)
        try:
            probe.output_types(spec, f"node_{index}")
        except InvalidDrawError:
            assume(False)
        drawn.append(spec)

    draw()
    if not drawn:
        raise RuntimeError(f"{form.name} node {index}: hypothesis drew no valid node; fix its strategy")
    return drawn[-1]


def form_graph(name: str) -> Graph:
    """The graph of form `name`: FORMS[name].nodes nodes named node_<index>."""
    form = FORMS[name]
    graph = OneOperatorGraph(form.op_type, name)
    for index in range(form.nodes):
        graph.add(draw_node(form, index), f"node_{index}")
    return graph.graph()


# -- what a graph covers -------------------------------------------------------------------

# The code paths each form's graph must exercise (form_cases_test.py).
# Zero points at the ends of the int8 range and every fused activation: every form covers them.
EDGE_FEATURES = {
    "input_zero_point_-128",
    "input_zero_point_127",
    "activation_NONE",
    "activation_RELU",
    "activation_RELU6",
    "activation_RELU_N1_TO_1",
}
COMMON_FEATURES = {
    "left_shift",
    "right_shift",
    "zero_multiplier",
    "multiplier_power_of_two",
    "multiplier_near_2^31",
    "multiplier_rounded_up",
    "shared_multiplier",
    "per_channel_multipliers",
    "channel_tail",
    "no_bias",
    "bias_near_int32_limit",
    "batches_2",
} | EDGE_FEATURES
WINDOW_FEATURES = {
    "border_windows",
    "interior_windows",
    "padding_SAME",
    "padding_VALID",
    "stride_2+",
    "dilation_2",
    "filter_1x1",
    "filter_3x3",
    "filter_taller_than_5",
    "channels_not_multiple_of_4",
    "channels_not_multiple_of_16",
    "channels_above_32",
    "dilated_tap_2+_columns_left",
}
TABLE_FEATURES = {
    "elements_tail",
    "elements_multiple_of_4",
    "first_scale_larger",
    "second_scale_larger",
    "dsp_add_assembly",  # DSP: full int8 range and a right shift, in assembly
} | EDGE_FEATURES
FEATURES: dict[str, set[str]] = {
    "add_table": TABLE_FEATURES,
    "sub_table": TABLE_FEATURES,
    "conv_2d_folded": COMMON_FEATURES
    | WINDOW_FEATURES
    | {
        "planes",  # Helium: opbridge_conv_2d_s8_folded_planes, an output row's windows contiguous in a plane
        "planes_constant_step",
        "planes_any_step",
        "planes_one_offset_vector",
        "planes_offset_period",
        "planes_rows_outside",
        "planes_columns_right",
        "planes_tail",
        "planes_whole_groups",
        "planes_batches",
        "by_channel",  # Helium: opbridge_conv_2d_s8_folded_pointwise_by_channel, one output channel at a time
        "by_channel_pairs",
        "by_channel_pairs_16_bytes",
        "by_channel_pairs_any_step",
        "by_channel_constant_step",
        "by_channel_any_step",
        "by_channel_1_vectors",
        "by_channel_2_vectors",
        "by_channel_3_vectors",
        "by_channel_no_rest",
        "by_channel_rest",
        "by_channel_rest_partial_group",
        "by_channel_batches",
        "patch",
        "patch_gathered",
        "in_place",
        "dot_tail",
        "dot_multiple_of_16",
        "pointwise_whole_blocks",
        "pointwise_in_registers_per_channel",
        "pointwise_in_registers_shared",
        "pointwise_left_shift",
        "pointwise_deep_or_narrow",
        "in_registers_full_range_rows_of_1_blocks",
        "in_registers_full_range_rows_of_2_blocks",
        "in_registers_full_range_rows_of_3_blocks",
        "in_registers_full_range_rows_of_4_blocks",
        "in_registers_full_range_1_blocks_partial",
        "in_registers_full_range_2_blocks_partial",
        "in_registers_full_range_3_blocks_partial",
        "in_registers_full_range_4_blocks_partial",
        "in_registers_full_range_1x1_positions",
        "border_windows_copied",
        "border_windows_copied_by_blocks",
        "blocks_pairs",  # Helium: _blocks's interior runs two positions at a time (rows interleaved on the stack)
        "blocks_pairs_beside_one_position_groups",  # groups of units those pairs leave (partial, left shift)
        "pairs",  # opbridge_conv_2d_s8_folded_pairs (Helium: rows two positions at a time)
        "pairs_in_place",
        "pairs_band",
        "pairs_band_chunks",  # rows wider than the band
        "pairs_split_row",  # a row inside the input: border windows banded, the interior in place
        "pairs_odd_run",
        "pairs_even_run",
        "pairs_3x3_written_out",  # three rows of three blocks
        "pairs_3_blocks_a_turn",
        "pairs_1_block_a_turn",
        "pairs_3x3_written_out_left_shift",
        "pairs_3_blocks_a_turn_left_shift",
        "pairs_1_block_a_turn_left_shift",
        "pairs_one_run",  # a 1x1 at stride 1: every position in one run
        "pairs_padded_windows",  # windows of one row that are not whole blocks (1x1 over 24, 1x5 over 40)
        "pairs_padded_windows_in_band_chunks",
        "pairs_padded_windows_overhanging",
        "patch_rows",  # Helium: opbridge_conv_2d_s8_folded_patch_rows, runs of windows on the stack
        "patch_rows_one_block",
        "patch_rows_two_blocks",
        "patch_rows_full_range",
        "patch_rows_clamped",
        "patch_rows_border",
        "patch_rows_runs",
        "general",  # the in-place entry points: opbridge_conv_2d_s8_folded,
        "blocks",  # opbridge_conv_2d_s8_folded_blocks
        "pointwise",  # opbridge_conv_2d_s8_folded_pointwise
        "pointwise_narrow",  # and opbridge_conv_2d_s8_folded_pointwise_narrow
        "dsp_pointwise",  # DSP: 1x1 over 8 or 16 channels, a position's pairs in registers
        "dsp_pointwise_depth_8",
        "dsp_pointwise_depth_16",
        "dsp_pointwise_8_in_turns",
        "dsp_pointwise_16_in_turns",
        "dsp_pointwise_8_odd_units",
        "dsp_pointwise_16_odd_units",
        "dsp_pointwise_8_full_range",
        "dsp_pointwise_8_clamped",
        "dsp_pointwise_16_full_range",
        "dsp_pointwise_16_clamped",
        "dsp_pointwise_shift_above_22",  # declined: its output offset would wrap the rounding term
        "dsp_pairs",  # DSP: two positions by two units from widened windows
        "dsp_pairs_by_tap",
        "dsp_pairs_by_tap_above_288",
        "dsp_pairs_copied",
        "dsp_pairs_padded",
        "dsp_pairs_units_in_turns",
        "dsp_pairs_odd_positions",
        "dsp_pairs_odd_words",
        "dsp_pairs_full_range",
        "dsp_pairs_clamped",
        "dsp_pairs_declined",
        "dsp_window4",  # DSP: four units of one window in assembly (odd words: fully_connected's)
        "dsp_border_windows_copied",
        "dsp_clamped",
        "dsp_full_range",
    },
    "depthwise_conv_2d_folded": COMMON_FEATURES
    | WINDOW_FEATURES
    | {
        "depth_multiplier_1",
        "depth_multiplier_above_1",
        "single_input_channel",
        "single_input_channel_whole_blocks",
        "lines_whole_rows",
        "lines_in_chunks",
        "lines_left_shift",
        "lines_no_left_shift",
        "lines_window_too_large",
        "lines_partial_block",
        "lines_partial_only",
        "lines_paired",
        "lines_rolled",
        "lines_rolled_and_moved",
        "lines_paired_full_range",
        "lines_weight_-128",
        "planar",  # Helium: opbridge_depthwise_conv_2d_s8_folded_planar, channel by channel over planes
        "planar_1_vectors",
        "planar_2_vectors",
        "planar_3_vectors",
        "planar_4_vectors",
        "planar_constant_step",
        "planar_any_step",
        "planar_whole_groups",
        "planar_tail",
        "planar_rows_outside",
        "planar_columns_right",
        "planar_rows_kept",
        "planar_no_rows_kept",
        "planar_left_shift",
        "planar_no_rounding_fix",
        "planar_small_right_shift",
        "planar_batches",
        "eight_channels",  # Helium: opbridge_depthwise_conv_2d_s8_folded_8_channels, two positions a vector
        "eight_channels_in_chunks",
        "eight_channels_whole_rows",
        "eight_channels_rolled",
        "eight_channels_rolled_and_moved",
        "eight_channels_paired",
        "eight_channels_paired_full_range",
        "eight_channels_tap_by_tap",
        "eight_channels_odd_width",
        "dsp_depthwise",  # DSP: four channels over a tap table in assembly
        "dsp_depthwise_odd_taps",
        "dsp_depthwise_in_turns",
        "dsp_depthwise_full_range",
        "dsp_depthwise_clamped",
        "dsp_depthwise_declined",
        "dsp_planar",  # DSP: one channel's row over int16 planes, four positions a group
        "dsp_planar_stride_1_pairs_2",
        "dsp_planar_stride_1_pairs_3",
        "dsp_planar_stride_1_pairs_4",
        "dsp_planar_stride_2_pairs_2",
        "dsp_planar_stride_2_pairs_3",
        "dsp_planar_stride_2_pairs_4",
        "dsp_planar_last_group",
        "dsp_planar_whole_groups",
        "dsp_planar_odd_filter_width",
        "dsp_planar_even_filter_width",
        "dsp_planar_odd_input_width",
        "dsp_planar_rows_outside",
        "dsp_planar_rows_skipped",
        "dsp_planar_batches",
        "dsp_planar_full_range",
        "dsp_planar_clamped",
        "dsp_clamped",
        "dsp_full_range",
    },
    "fully_connected_s16": {
        "no_bias",
        "s16_bias_int64",
        "s16_bias_int32",
        "s16_sums_beyond_int32",  # int64 biases far beyond int32: the sums' high words
        "s16_shift_above_32",  # the 64-bit rescale's right shift of more than 32 bits
        "s16_multiplier_rounded_to_max",  # in [0x7FFF0000, 0x7FFF8000): rounds to 0x7FFF
        "s16_multiplier_above_0x7FFF8000",  # its rounding would leave 16 bits: capped at 0x7FFF
        "s16_offsets",  # an input zero point: the C loop
        "left_shift",
        "right_shift",
        "shared_multiplier",
        "per_channel_multipliers",
        "batches_2",
        "activation_NONE",
        "activation_RELU",
        "activation_RELU6",
        "activation_RELU_N1_TO_1",
        "s16_units_by_four",  # Helium: four units a group in assembly
        "s16_unit_tail",
        "s16_fewer_than_4_units",
        "s16_depth_tail",  # Helium: the tail-predicated loop's last step
        "s16_depth_multiple_of_8",
        "s16_depth_below_8",
        "s16_dsp_paired",  # DSP: the row paired once, two units a step
        "s16_dsp_odd_units",
        "s16_dsp_depth_tail",
        "s16_dsp_unpaired",
        "s16_dsp_assembly",  # DSP: int64 sums, pairs of units in assembly
        "s16_dsp_assembly_tail",  # the depth's last 1-7 values in the sums' starts
        "s16_dsp_assembly_runs",  # more than 32 steps of 8: int32 runs widened more than once
        "s16_dsp_assembly_in_turns",  # more units than a turn of starts
        "s16_dsp_shift_below_32",  # the rescale's right shift by 15 - shift: both words,
        "s16_dsp_shift_32",  # the high word and the carry into it,
        "s16_dsp_shift_above_32",  # the high word alone
    },
    "fully_connected_folded": COMMON_FEATURES
    | {
        "dot_tail",
        "dot_multiple_of_16",
        "depth_above_64",
        "channels_not_multiple_of_16",
        "dsp_window4",
        "dsp_window4_odd_words",
        "dsp_clamped",
        "dsp_full_range",
        "dsp_layout",  # DSP: opbridge_fully_connected_s8_folded_dsp_layout's filter and assembly
        "dsp_layout_odd_steps",
        "dsp_layout_even_steps",
        "dsp_layout_bytes_lowered",
        "dsp_layout_units_in_turns",
        "dsp_layout_full_range",
        "dsp_layout_clamped",
        "dsp_layout_declined",
        "short_rows",  # opbridge_fully_connected_s8_folded_short
        # Helium: whole blocks, four units a group in assembly, whole 64-byte chunks then 0-3
        # blocks, or only 1-3 blocks; a shared stage with a left shift, a per-channel one, and
        # per channel more groups than one span
        "rows_vldm_tail_0",
        "rows_vldm_tail_1",
        "rows_vldm_tail_2",
        "rows_vldm_tail_3",
        "rows_vldm_tail_only_1",
        "rows_vldm_tail_only_2",
        "rows_vldm_tail_only_3",
        "rows_vldm_shared_left_shift",
        "rows_vldm_per_channel",
        "rows_vldm_spans",
        "rows_vldm_small_right_shift",  # ties often: the rounding fix shows
        "rows_vldm_no_shift",  # no rounding fix
    },
}


def node_features(graph: Graph, node: Node) -> set[str]:
    """The code paths of the folded kernels (both variants) and the parameters `node` exercises."""
    if node.op_type in ("ADD", "SUB"):
        return table_features(graph, node)
    if graph.tensor(node.inputs[0]).dtype is DType.INT16:
        return s16_features(graph, node)
    input_tensor = graph.tensor(node.inputs[0])
    filter_tensor = graph.tensor(node.inputs[1])
    input_q, filter_q, output_q = (
        input_tensor.quantization,
        filter_tensor.quantization,
        graph.tensor(node.outputs[0]).quantization,
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    attributes_ = node.attributes
    features = {f"activation_{attributes_.activation.name}"}
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    if bias_index is None:
        features.add("no_bias")
    elif np.abs(np.asarray(graph.tensor(bias_index).data, dtype=np.int64)).max() > 2**30:
        features.add("bias_near_int32_limit")
    if input_q.zero_point in (-128, 127):
        features.add(f"input_zero_point_{input_q.zero_point}")
    if input_tensor.shape[0] == 2:
        features.add("batches_2")
    if node.op_type == "FULLY_CONNECTED":
        multipliers, shifts = fully_connected_multipliers(input_q, filter_q, output_q)
        channels = filter_tensor.shape[0]
        depth = filter_tensor.shape[1]
        features.add("dot_tail" if depth % 16 else "dot_multiple_of_16")
        if depth > 64:
            features.add("depth_above_64")
        if depth < 16:
            features.add("short_rows")
        if depth % 16:
            features.add("channels_not_multiple_of_16")
        if depth % 16 == 0 and channels >= 4:
            features |= rows_vldm_features(depth, channels, multipliers, shifts)
    else:
        channels = graph.tensor(node.outputs[0]).shape[3]
        multipliers, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
        features |= window_features(graph, node)
    if channels % 4:
        features.add("channel_tail")
    if (shifts > 0).any():
        features.add("left_shift")
    if (shifts < 0).any():
        features.add("right_shift")
    if (multipliers == 0).any():
        features.add("zero_multiplier")
    if (multipliers == 2**30).any():
        features.add("multiplier_power_of_two")
    if (multipliers > 2**31 - 2**8).any():
        features.add("multiplier_near_2^31")
    real = [input_q.scale * scale / output_q.scale for scale in filter_q.scales]
    if any(0 < math.frexp(value)[0] * 2**31 >= 2**31 - 0.5 for value in real):
        features.add("multiplier_rounded_up")
    shared = bool((multipliers == multipliers[0]).all() and (shifts == shifts[0]).all())
    features.add("shared_multiplier" if shared else "per_channel_multipliers")
    return features | dsp_features(graph, node, shifts)


def rows_vldm_features(depth: int, units: int, multipliers: np.ndarray, shifts: np.ndarray) -> set[str]:
    """The paths of Helium's rows functions (opbridge_helium_rows) a FULLY_CONNECTED of whole blocks takes."""
    chunks, tail = depth // 64, depth // 16 % 4
    features = {f"rows_vldm_tail_{tail}" if chunks else f"rows_vldm_tail_only_{tail}"}
    if ((shifts < 0) & (shifts >= -6)).any():
        features.add("rows_vldm_small_right_shift")
    if (shifts == 0).any():
        features.add("rows_vldm_no_shift")
    if (multipliers == multipliers[0]).all() and (shifts == shifts[0]).all():
        if shifts[0] > 0:
            features.add("rows_vldm_shared_left_shift")
    else:
        features.add("rows_vldm_per_channel")
        if units // 4 * 4 > ROWS_VLDM_SPAN_UNITS:
            features.add("rows_vldm_spans")
    return features


def s16_features(graph: Graph, node: Node) -> set[str]:
    """The 16x8 FULLY_CONNECTED's paths (cc/kernels/opbridge_fully_connected_s16*.c) and parameters."""
    input_q = graph.tensor(node.inputs[0]).quantization
    filter_tensor = graph.tensor(node.inputs[1])
    output_q = graph.tensor(node.outputs[0]).quantization
    assert input_q is not None and filter_tensor.quantization is not None and output_q is not None
    units, depth = filter_tensor.shape
    features = {f"activation_{node.attributes.activation.name}"}
    if graph.tensor(node.inputs[0]).shape[0] == 2:
        features.add("batches_2")
    bias_index = node.inputs[2] if len(node.inputs) > 2 else None
    if bias_index is None:
        features.add("no_bias")
    else:
        bias = graph.tensor(bias_index)
        features.add("s16_bias_int64" if bias.dtype is DType.INT64 else "s16_bias_int32")
        if np.abs(np.asarray(bias.data, dtype=np.int64)).max() > 2**32:
            features.add("s16_sums_beyond_int32")
    multipliers, shifts = fully_connected_multipliers(input_q, filter_tensor.quantization, output_q)
    features.add("left_shift" if (shifts > 0).any() else "right_shift")
    if (15 - shifts > 32).any():
        features.add("s16_shift_above_32")
    if ((multipliers >= 0x7FFF0000) & (multipliers < 0x7FFF8000)).any():
        features.add("s16_multiplier_rounded_to_max")
    if (multipliers >= 0x7FFF8000).any():
        features.add("s16_multiplier_above_0x7FFF8000")
    shared = bool((multipliers == multipliers[0]).all() and (shifts == shifts[0]).all())
    features.add("shared_multiplier" if shared else "per_channel_multipliers")
    if input_q.zero_point != 0:
        return features | {"s16_offsets"}
    features.add("s16_units_by_four" if units >= 4 else "s16_fewer_than_4_units")
    if units % 4 and units > 4:
        features.add("s16_unit_tail")
    features.add("s16_depth_tail" if depth % 8 else "s16_depth_multiple_of_8")
    if depth < 8:
        features.add("s16_depth_below_8")
    if depth > S16_DSP_PAIRED_DEPTH:
        return features | {"s16_dsp_unpaired"}
    features.add("s16_dsp_paired")
    if units % 2:
        features.add("s16_dsp_odd_units")
    if depth % 4:
        features.add("s16_dsp_depth_tail")
    if "s16_bias_int32" not in features and depth >= 8 and units >= 2:
        features.add("s16_dsp_assembly")
        if depth % 8:
            features.add("s16_dsp_assembly_tail")
        if depth // 8 > 32:
            features.add("s16_dsp_assembly_runs")
        if units > S16_DSP_TURN_UNITS:
            features.add("s16_dsp_assembly_in_turns")
        right = 15 - shifts
        for name, hit in (("below_32", right < 32), ("32", right == 32), ("above_32", right > 32)):
            if hit.any():
                features.add(f"s16_dsp_shift_{name}")
    return features


# The Cortex-M4 (DSP) variant's assembly paths and their limits (cc/kernels/opbridge_folded_s8.c).
DSP_PAIR_MAX_WINDOW = 576  # OPBRIDGE_DSP_PAIR_MAX_WINDOW: input channels a multiple of 4
DSP_PAIR_MAX_COPIED_WINDOW = 288  # OPBRIDGE_DSP_PAIR_MAX_COPIED_WINDOW: other windows
DSP_MAX_COPIED_BORDER_WINDOW = 1152  # OPBRIDGE_DSP_MAX_COPIED_BORDER_WINDOW
DSP_PADDED_FILTER_BYTES = 1024  # OPBRIDGE_DSP_PADDED_FILTER_BYTES
DSP_PAIR_STAGE_UNITS = 64  # OPBRIDGE_DSP_PAIR_STAGE_UNITS
DSP_DEPTHWISE_MAX_CHANNELS = 512  # OPBRIDGE_DSP_DEPTHWISE_MAX_CHANNELS
DSP_DEPTHWISE_MAX_TAPS = 64  # OPBRIDGE_DSP_DEPTHWISE_MAX_TAPS
DSP_DEPTHWISE_WEIGHT_BYTES = 1152  # OPBRIDGE_DSP_DEPTHWISE_WEIGHT_BYTES
DSP_FC_STAGE_UNITS = 64  # OPBRIDGE_DSP_FC_STAGE_UNITS
DSP_DEPTHWISE_TURN_CHANNELS = 64  # OPBRIDGE_DSP_DEPTHWISE_TURN_CHANNELS
DSP_POINTWISE_RECORD_BYTES = 2048  # OPBRIDGE_DSP_POINTWISE_RECORD_BYTES
DSP_POINTWISE_MAX_SHIFT = 22  # OPBRIDGE_DSP_POINTWISE_MAX_SHIFT
DSP_PLANE_MAX_FILTER = 8  # OPBRIDGE_DSP_PLANE_MAX_FILTER
DSP_PLANE_BYTES = 4096  # OPBRIDGE_DSP_PLANE_BYTES


def dsp_doubling_fits(bias: np.ndarray, depth: int) -> bool:
    """opbridge_folded_doubling_fits's accumulator bound: |folded bias| + depth x 2^14 below 2^30
    (the DSP variant's short output stage doubles the accumulator)."""
    return int(np.abs(bias).max()) + (depth << 14) < 2**30


def dsp_pairs_features(graph: Graph, node: Node, shifts: np.ndarray, window_bytes: int) -> set[str]:
    """CONV_2D: the DSP variant's pairs of positions (opbridge_dsp_conv_pairs) and their cases,
    empty if the node takes another path; "dsp_pairs_declined" when only its accumulator bound
    (|folded bias| + window bytes * 2^14 < 2^30) keeps a node from them."""
    in_channels = graph.tensor(node.inputs[0]).shape[3]
    _, out_height, out_width, out_channels = graph.tensor(node.outputs[0]).shape
    padded = -(-window_bytes // 4) * 4
    by_tap = in_channels % 4 == 0 and window_bytes <= DSP_PAIR_MAX_WINDOW
    copied = not by_tap and window_bytes <= DSP_PAIR_MAX_COPIED_WINDOW
    if copied and padded != window_bytes and out_channels * padded > DSP_PADDED_FILTER_BYTES:
        return set()
    if out_channels % 2 or not (by_tap or copied) or not (shifts >= -31).all():
        return set()
    bias = folded_convolution_bias(graph, node, depthwise=False)
    assert bias is not None
    if not dsp_doubling_fits(bias, window_bytes):
        return {"dsp_pairs_declined"}
    features = {"dsp_pairs", "dsp_pairs_copied" if copied else "dsp_pairs_by_tap"}
    if padded != window_bytes:
        features.add("dsp_pairs_padded")  # the window read as whole words against padded filter rows
    if by_tap and window_bytes > DSP_PAIR_MAX_COPIED_WINDOW:
        features.add("dsp_pairs_by_tap_above_288")
    if out_channels > DSP_PAIR_STAGE_UNITS:
        features.add("dsp_pairs_units_in_turns")
    if (out_height * out_width) % 2:
        features.add("dsp_pairs_odd_positions")
    if (padded // 4) % 2:
        features.add("dsp_pairs_odd_words")
    return features


def dsp_features(graph: Graph, node: Node, shifts: np.ndarray) -> set[str]:
    """The DSP variant's assembly paths a node takes: each needs every rescale to be a right shift
    of at least 1; the output stage saturates (full int8 range) or clamps."""
    if not (shifts <= -1).all():
        return set()
    output_q = graph.tensor(node.outputs[0]).quantization
    assert output_q is not None
    low, high = activation_range(node.attributes.activation, output_q)
    stage = {"dsp_full_range" if (low, high) == (-128, 127) else "dsp_clamped"}
    if node.op_type == "FULLY_CONNECTED":
        units, depth = graph.tensor(node.inputs[1]).shape
        adjusted = dsp_layout_filter(graph, node)
        if adjusted is not None:
            plain = np.asarray(graph.tensor(node.inputs[1]).data)
            features = stage | {"dsp_layout", f"dsp_layout_{next(iter(stage)).removeprefix('dsp_')}"}
            features.add("dsp_layout_odd_steps" if (depth // 8) % 2 else "dsp_layout_even_steps")
            if (adjusted != plain).any():
                features.add("dsp_layout_bytes_lowered")
            quantization = graph.tensor(node.inputs[1]).quantization
            if quantization is not None and quantization.per_channel and units > DSP_FC_STAGE_UNITS:
                features.add("dsp_layout_units_in_turns")  # per-channel stage constants built in turns
            return features
        if depth % 8 == 0 and 16 <= depth <= DSP_LAYOUT_MAX_DEPTH and units % 2 == 0:
            features = {"dsp_layout_declined"}  # a layout byte out of int8, or sums too large
        else:
            features = set()
        if depth % 4 == 0 and units >= 4:
            return features | stage | {"dsp_window4"} | ({"dsp_window4_odd_words"} if depth % 8 else set())
        return features
    a = node.attributes
    in_channels = graph.tensor(node.inputs[0]).shape[3]
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_channels = graph.tensor(node.outputs[0]).shape[3]
    if node.op_type == "DEPTHWISE_CONV_2D":
        taps = filter_height * filter_width
        planar = dsp_planar_features(graph, node, shifts)
        if "dsp_planar" in planar:
            return planar | stage | {f"dsp_planar_{next(iter(stage)).removeprefix('dsp_')}"}
        if (
            a.depth_multiplier == 1
            and in_channels % 4 == 0
            and in_channels <= DSP_DEPTHWISE_MAX_CHANNELS
            and taps <= DSP_DEPTHWISE_MAX_TAPS
            and (shifts >= -31).all()
        ):
            bias = folded_convolution_bias(graph, node, depthwise=True)
            assert bias is not None
            if not dsp_doubling_fits(bias, taps):
                return planar | {"dsp_depthwise_declined"}
            features = stage | {"dsp_depthwise", f"dsp_depthwise_{next(iter(stage)).removeprefix('dsp_')}"}
            if taps % 2:
                features.add("dsp_depthwise_odd_taps")
            turn = min(DSP_DEPTHWISE_WEIGHT_BYTES // (2 * taps) // 4 * 4, DSP_DEPTHWISE_TURN_CHANNELS)
            if in_channels > turn:
                features.add("dsp_depthwise_in_turns")  # widened weights built for a turn of channels at a time
            return features | planar
        return planar
    window_bytes = filter_height * filter_width * in_channels
    patch = bool(conv_2d_scratch_bytes(graph, node))  # each window copied into scratch first
    # opbridge_dsp_pointwise runs from the patch form and from the by-channel entry (which, over 16
    # channels, otherwise runs the general form)
    by_channel = folded_kernel(graph, node) == "opbridge_conv_2d_s8_folded_pointwise_by_channel"
    pointwise = dsp_pointwise_features(graph, node, shifts) if patch or by_channel else set()
    if "dsp_pointwise" in pointwise:
        depth = graph.tensor(node.inputs[0]).shape[3]
        return stage | pointwise | {f"dsp_pointwise_{depth}_{next(iter(stage)).removeprefix('dsp_')}"}
    stage |= pointwise  # declined by its bounds: the paths below
    pairs = dsp_pairs_features(graph, node, shifts, window_bytes)
    if "dsp_pairs" in pairs:
        return stage | pairs | {f"dsp_pairs_{next(iter(stage)).removeprefix('dsp_')}"}
    stage |= pairs  # declined by its accumulator bound: the paths below
    if patch:  # then one row of units, four at a time
        if window_bytes % 4 == 0 and out_channels >= 4:
            return stage | {"dsp_window4"} | ({"dsp_window4_odd_words"} if window_bytes % 8 else set())
        return pairs
    run = filter_width * in_channels
    windows = window_features(graph, node)
    features = set(pairs)
    if a.dilation_width == 1 and "interior_windows" in windows and run % 4 == 0 and out_channels >= 4:
        features |= stage | {"dsp_window4"} | ({"dsp_window4_odd_words"} if run % 8 else set())
    copyable = window_bytes % 4 == 0 and window_bytes <= DSP_MAX_COPIED_BORDER_WINDOW and out_channels >= 4
    if "border_windows" in windows and copyable:
        features |= stage | {"dsp_window4", "dsp_border_windows_copied"}  # copied to the stack, then as a row
    return features


def dsp_pointwise_features(graph: Graph, node: Node, shifts: np.ndarray) -> set[str]:
    """CONV_2D through the patch form: the DSP variant's 1x1 over 8 or 16 input channels
    (opbridge_dsp_pointwise), empty if the node is not of that kind; "dsp_pointwise_declined" when
    only its right-shift bound (22) or its accumulator bound keeps a node from it."""
    a = node.attributes
    _, height, width, in_channels = graph.tensor(node.inputs[0]).shape
    out_channels, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    _, out_height, out_width, _ = graph.tensor(node.outputs[0]).shape
    if not (
        (filter_height, filter_width) == (1, 1)
        and in_channels in (8, 16)
        and (a.stride_height, a.stride_width) == (1, 1)
        and (out_height, out_width) == (height, width)
    ):
        return set()
    bias = folded_convolution_bias(graph, node, depthwise=False)
    assert bias is not None
    if not dsp_doubling_fits(bias, in_channels):
        return {"dsp_pointwise_declined"}
    if (shifts < -DSP_POINTWISE_MAX_SHIFT).any():
        # right shifts above 22 with an output zero point that would wrap the rounding term
        output_q = graph.tensor(node.outputs[0]).quantization
        assert output_q is not None
        zero_point = output_q.zero_points[0]
        wraps = any(
            not -(2**31) <= zero_point * 2 ** -int(s) + 2 ** (-int(s) - 1) < 2**31 for s in shifts if -31 <= s < -22
        )
        return {"dsp_pointwise_declined", "dsp_pointwise_shift_above_22"} if wraps else {"dsp_pointwise_declined"}
    features = {"dsp_pointwise", f"dsp_pointwise_depth_{in_channels}"}
    turn = DSP_POINTWISE_RECORD_BYTES // (4 * (in_channels // 2 + 4))
    if out_channels > turn:  # the unit records built a turn of output channels at a time
        features.add(f"dsp_pointwise_{in_channels}_in_turns")
    if (out_channels % turn if out_channels > turn else out_channels) % 2:
        features.add(f"dsp_pointwise_{in_channels}_odd_units")  # the loop of two channels entered at its second
    return features


def dsp_planar_features(graph: Graph, node: Node, shifts: np.ndarray) -> set[str]:
    """DEPTHWISE_CONV_2D: the DSP variant's planes (opbridge_dsp_depthwise_planar) and their cases,
    empty if the node takes another path; "dsp_planar_declined" when only its accumulator bound or
    its stack keeps a node from them. `shifts` are all right shifts of 1 to 31 (dsp_features)."""
    a = node.attributes
    batches, height, width, channels = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_width = graph.tensor(node.outputs[0]).shape[2]
    if not (
        a.depth_multiplier == 1
        and channels % 4 == 0
        and a.dilation_height == 1
        and a.dilation_width == 1
        and a.stride_width in (1, 2)
        and 3 <= filter_width <= DSP_PLANE_MAX_FILTER
        and filter_height <= DSP_PLANE_MAX_FILTER
        and out_width >= 4
        and (shifts >= -31).all()
    ):
        return set()
    words = (filter_width + 1) // 2
    rows = window(a.padding, height, filter_height, a.stride_height)
    # opbridge_dsp_depthwise_planar_pays: the planes' instructions per four channels against the tap table's
    loads = 3 + words if a.stride_width == 2 else 2 * words + 2
    groups = -(-out_width // 4)
    copied_rows = min(height, rows.output_size * min(filter_height, a.stride_height))
    planes = 4 * rows.output_size * (groups * (filter_height * (6 + loads + 4 * words) + 48) + 30)
    planes += 10 * copied_rows * width
    taps = filter_height * filter_width
    table = rows.output_size * out_width * (9 * taps + 52 + (3 * taps + 20) * 4 // channels)
    if planes >= table:
        return set()
    cols = window(a.padding, width, filter_width, a.stride_width)
    columns = max(cols.padding_before + width, (out_width - 1) * a.stride_width + 2 * words)
    columns += columns % 2
    bias = folded_convolution_bias(graph, node, depthwise=True)
    assert bias is not None
    if not dsp_doubling_fits(bias, filter_height * filter_width) or (4 * filter_height + 1) * columns * 2 > (
        DSP_PLANE_BYTES
    ):
        return {"dsp_planar_declined"}
    features = {"dsp_planar", f"dsp_planar_stride_{a.stride_width}_pairs_{words}"}
    if out_width % 4:
        features.add("dsp_planar_last_group")  # the row's last four positions, some of them again
    if out_width >= 8 or out_width % 4 == 0:
        features.add("dsp_planar_whole_groups")
    # a row's last pair against a zero weight, or whole pairs
    features.add("dsp_planar_odd_filter_width" if filter_width % 2 else "dsp_planar_even_filter_width")
    if width % 2:
        features.add("dsp_planar_odd_input_width")  # the row copy's last position alone
    last_row = (rows.output_size - 1) * a.stride_height - rows.padding_before + filter_height - 1
    if rows.padding_before > 0 or last_row >= height:
        features.add("dsp_planar_rows_outside")  # the zero point's row
    if a.stride_height > filter_height:
        features.add("dsp_planar_rows_skipped")
    if batches > 1:
        features.add("dsp_planar_batches")
    return features


def table_features(graph: Graph, node: Node) -> set[str]:
    """ADD and SUB: the element tail, which input has the larger scale, zero points, the activation."""
    first, second = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1])
    assert first.quantization is not None and second.quantization is not None
    features = {f"activation_{node.attributes.activation.name}"}
    features.add("elements_tail" if first.element_count % 4 else "elements_multiple_of_4")
    larger_first = first.quantization.scale >= second.quantization.scale
    features.add("first_scale_larger" if larger_first else "second_scale_larger")
    output_q = graph.tensor(node.outputs[0]).quantization
    assert output_q is not None
    parameters = add_parameters if node.op_type == "ADD" else sub_parameters
    shift = parameters(first.quantization, second.quantization, output_q).output_shift
    if shift <= -1 and activation_range(node.attributes.activation, output_q) == (-128, 127):
        features.add("dsp_add_assembly")
    for tensor in (first, second):
        assert tensor.quantization is not None
        if tensor.quantization.zero_point in (-128, 127):
            features.add(f"input_zero_point_{tensor.quantization.zero_point}")
    return features


# The Helium depthwise kernel's line buffer and the padded weights of its partial block
# (cc/kernels/opbridge_depthwise_conv_2d_s8_folded_helium.c).
DEPTHWISE_LINES_BYTES = 1024  # OPBRIDGE_DEPTHWISE_LINES_BYTES
DEPTHWISE_PARTIAL_WEIGHT_BYTES = 800  # OPBRIDGE_DEPTHWISE_PARTIAL_WEIGHT_BYTES


def depthwise_block_features(graph: Graph, node: Node) -> set[str]:
    """The Helium paths of DEPTHWISE_CONV_2D's blocks of 16 channels: copied window lines, a row
    of positions at once or in chunks when the row is wider than the line buffer, a block with a
    left shift or not; the channels after the last whole block as one partial block (after whole
    blocks, or alone when there are fewer than 16), or four at a time when its padded weights do
    not fit. A window too large for the buffer takes the four-channel path."""
    a = node.attributes
    _, _, width, channels = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    columns = window(a.padding, width, filter_width, a.stride_width, a.dilation_width)
    line_limit = DEPTHWISE_LINES_BYTES // (filter_height * 16)
    x_span = (filter_width - 1) * a.dilation_width
    chunk = (line_limit - x_span - 1) // a.stride_width + 1 if line_limit > x_span else 0
    if chunk == 0:
        return {"lines_window_too_large"}
    features = {"lines_in_chunks" if chunk < columns.output_size else "lines_whole_rows"}
    if a.stride_height == 1 and a.dilation_height == 1:
        # Each output row copies one new window line; the lines kept move to the buffer's front
        # when it is full.
        rows = window(a.padding, graph.tensor(node.inputs[0]).shape[1], filter_height, 1, 1).output_size
        line_bytes = ((min(chunk, columns.output_size) - 1) * a.stride_width + x_span + 1) * 16
        capacity = DEPTHWISE_LINES_BYTES // line_bytes
        features.add("lines_rolled_and_moved" if rows - 1 + filter_height > capacity else "lines_rolled")
    if channels % 16:
        if filter_height * filter_width * 16 > DEPTHWISE_PARTIAL_WEIGHT_BYTES:
            features.add("lines_partial_four_channels")
        else:
            features.add("lines_partial_block" if channels > 16 else "lines_partial_only")
    input_q, filter_q, output_q = (
        graph.tensor(i).quantization for i in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
    left = any((shifts[block : block + 16] > 0).any() for block in range(0, channels, 16))
    features.add("lines_left_shift" if left else "lines_no_left_shift")
    # Taps in pairs (int16 sums of two products): rows of an odd number of taps, not dilated
    # along x, no weight of -128; the short output stage where every channel of a block shifts
    # right and the activation range is all of int8.
    weights = graph.tensor(node.inputs[1]).data
    assert weights is not None
    if (weights == -128).any():
        features.add("lines_weight_-128")
    elif filter_width % 2 == 1 and a.dilation_width == 1:
        full_range = activation_range(a.activation, output_q) == (-128, 127) and any(
            (shifts[block : block + 16] < 0).all() for block in range(0, channels, 16)
        )
        features.add("lines_paired" + ("_full_range" if full_range else ""))
    return features


def planar_features(graph: Graph, node: Node) -> set[str]:
    """opbridge_depthwise_conv_2d_s8_folded_planar (Helium: channel by channel over planes of window
    columns): each number of 16-byte vectors a window, a constant window step or any, rows of
    whole groups of four positions and rows ending in a predicated group (or made of one), rows
    above or below the input (zero-point slots), zero-point columns right of the input, output
    rows that keep window rows in the ring or read none of the last ones, a left shift, channels
    that do not shift right (no rounding fix), batches."""
    a = node.attributes
    batches, _, _, channels = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_width = graph.tensor(node.outputs[0]).shape[2]
    vectors = (filter_height * filter_width + 15) // 16
    features = {"planar", f"planar_{vectors}_vectors"}
    step = a.stride_width * filter_height
    features.add("planar_constant_step" if (vectors, step) in PLANE_CONSTANT_STEPS else "planar_any_step")
    features.add("planar_tail" if out_width % 4 else "planar_whole_groups")
    features |= {f"planar_{border}" for border in plane_borders(graph, node)}
    features.add("planar_rows_kept" if a.stride_height < filter_height else "planar_no_rows_kept")
    input_q, filter_q, output_q = (
        graph.tensor(i).quantization for i in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
    if (shifts > 0).any():
        features.add("planar_left_shift")
    if (shifts >= 0).any():
        features.add("planar_no_rounding_fix")
    if (shifts < 0).any() and (shifts >= -6).any():
        features.add("planar_small_right_shift")  # ties often: the rounding fix shows
    if batches > 1:
        features.add("planar_batches")
    return features


def plane_borders(graph: Graph, node: Node) -> set[str]:
    """Where a planes path's windows leave the input: "rows_outside" (above or below it: zero-point
    rows copied) and "columns_right" (zero-point columns right of it)."""
    a = node.attributes
    _, height, width, _ = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_width = graph.tensor(node.outputs[0]).shape[2]
    borders = set()
    rows = window(a.padding, height, filter_height, a.stride_height, 1)
    if (
        rows.padding_before > 0
        or (rows.output_size - 1) * a.stride_height + filter_height > height + rows.padding_before
    ):
        borders.add("rows_outside")
    cols = window(a.padding, width, filter_width, a.stride_width, 1)
    if (out_width - 1) * a.stride_width + filter_width > cols.padding_before + width:
        borders.add("columns_right")
    return borders


def planes_features(graph: Graph, node: Node) -> set[str]:
    """opbridge_conv_2d_s8_folded_planes (Helium: an output row's windows contiguous in a plane, one
    output channel at a time): a constant window step or another, rows copied by one offset vector
    or a longer period, rows outside the input, zero-point columns right of it, rows ending in a
    partial group, batches. Elsewhere the patch form."""
    a = node.attributes
    batches, _, _, channels = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_width = graph.tensor(node.outputs[0]).shape[2]
    window_bytes = filter_height * filter_width * channels
    step = a.stride_width * filter_height * channels
    features = {"planes", "patch"}
    features.add(
        "planes_constant_step" if ((window_bytes + 15) // 16, step) in PLANE_CONSTANT_STEPS else "planes_any_step"
    )
    features.add("planes_one_offset_vector" if 8 % channels == 0 else "planes_offset_period")
    features |= {f"planes_{border}" for border in plane_borders(graph, node)}
    features.add("planes_tail" if out_width % 4 else "planes_whole_groups")
    if batches > 1:
        features.add("planes_batches")
    return features


def by_channel_features(graph: Graph, node: Node) -> set[str]:
    """opbridge_conv_2d_s8_folded_pointwise_by_channel (Helium: one output channel at a time over
    every position): two positions a load (16 bytes apart or not) or windows of 1 to 3 vectors; the
    last positions copied to the stack (ending in a partial group) or none; batches; a left shift.
    Elsewhere the patch form (fewer than 16 channels) or the general one."""
    batches, height, width, depth = graph.tensor(node.inputs[0]).shape
    positions = batches * height * width
    features = {"by_channel", "patch" if depth < 16 else "in_place"}  # elsewhere: the patch form or the general one
    if depth <= 8:
        features |= {"by_channel_pairs", "by_channel_pairs_16_bytes" if depth == 8 else "by_channel_pairs_any_step"}
        past = 16 - 2 * depth
    else:
        vectors = (depth + 15) // 16
        features.add(f"by_channel_{vectors}_vectors")
        features.add("by_channel_constant_step" if (vectors, depth) in PLANE_CONSTANT_STEPS else "by_channel_any_step")
        past = 16 * vectors - depth
    direct = max(0, (positions * depth - past) // depth) // 4 * 4
    if direct == positions:
        features.add("by_channel_no_rest")
    else:
        features.add("by_channel_rest" if (positions - direct) % 4 == 0 else "by_channel_rest_partial_group")
    if batches > 1:
        features.add("by_channel_batches")
    input_q, filter_q, output_q = (
        graph.tensor(i).quantization for i in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    units = graph.tensor(node.outputs[0]).shape[3]
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, units)
    if (shifts > 0).any():
        features.add("left_shift")
    return features


def eight_channels_features(graph: Graph, node: Node) -> set[str]:
    """opbridge_depthwise_conv_2d_s8_folded_8_channels (Helium: two positions a vector over lines of
    8-byte columns): a row in chunks, lines rolled down the rows and moved, taps in pairs (with
    the short stage or the clamping one) or one by one."""
    a = node.attributes
    _, height, _, _ = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_width = graph.tensor(node.outputs[0]).shape[2]
    x_span = (filter_width - 1) * a.dilation_width
    line_columns = DEPTHWISE_LINES_BYTES // filter_height // 16 * 2
    chunk = min((line_columns - x_span - 1) // 2 * 2, out_width)
    features = {"eight_channels", "eight_channels_in_chunks" if chunk < out_width else "eight_channels_whole_rows"}
    if out_width % 2:
        features.add("eight_channels_odd_width")  # the row's last position staged
    if a.stride_height == 1 and a.dilation_height == 1:
        rows = window(a.padding, height, filter_height, 1, 1).output_size
        line_bytes = (chunk + x_span + 2) // 2 * 16  # a spare column, whole vectors
        capacity = DEPTHWISE_LINES_BYTES // line_bytes
        features.add(
            "eight_channels_rolled_and_moved" if rows - 1 + filter_height > capacity else "eight_channels_rolled"
        )
    weights = graph.tensor(node.inputs[1]).data
    assert weights is not None
    output_q = graph.tensor(node.outputs[0]).quantization
    assert output_q is not None
    if (weights == -128).any() or a.dilation_width > 1 or filter_width % 2 == 0:
        features.add("eight_channels_tap_by_tap")
    else:
        input_q, filter_q = graph.tensor(node.inputs[0]).quantization, graph.tensor(node.inputs[1]).quantization
        assert input_q is not None and filter_q is not None
        _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, 8)
        full_range = activation_range(a.activation, output_q) == (-128, 127) and (shifts < 0).all()
        features.add("eight_channels_paired" + ("_full_range" if full_range else ""))
    return features


PATCH_ROWS_RUN_BYTES = 512  # OPBRIDGE_WINDOW_RUN_BYTES: the windows copied onto the stack at a time


def patch_rows_features(graph: Graph, node: Node, window_bytes: int, all_inside: bool) -> set[str]:
    """opbridge_conv_2d_s8_folded_patch_rows (Helium): windows of one or two blocks, the short or
    the clamping stage, windows that overhang the input, output rows in more than one run."""
    features = {"patch_rows", "patch_rows_two_blocks" if window_bytes > 16 else "patch_rows_one_block"}
    input_q, filter_q, output_q = (
        graph.tensor(index).quantization for index in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    channels = graph.tensor(node.outputs[0]).shape[3]
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
    full_range = (np.asarray(shifts) < 0).all() and activation_range(node.attributes.activation, output_q) == (
        -128,
        127,
    )
    features.add("patch_rows_full_range" if full_range else "patch_rows_clamped")
    if not all_inside:
        features.add("patch_rows_border")
    slot = 16 if window_bytes <= 16 else 32
    if graph.tensor(node.outputs[0]).shape[2] > PATCH_ROWS_RUN_BYTES // slot:
        features.add("patch_rows_runs")
    return features


def blocks_pairs_features(graph: Graph, node: Node, columns_inside: list[bool]) -> set[str]:
    """Helium's opbridge_conv_2d_s8_folded_blocks: its interior runs of two windows or more take the
    pairs assembly for groups of four units with no left shift (the others, one position at a time)."""
    if not folded_kernel(graph, node).endswith("_blocks") or sum(columns_inside) < 2:
        return set()
    channels = graph.tensor(node.outputs[0]).shape[3]
    left = pairs_left_shifts(graph, node)
    groups = [not left[g : g + 4].any() for g in range(0, channels // 4 * 4, 4)]
    if not any(groups):
        return set()
    features = {"blocks_pairs"}
    if not all(groups) or channels % 4:
        features.add("blocks_pairs_beside_one_position_groups")
    return features


def pairs_left_shifts(graph: Graph, node: Node) -> np.ndarray:
    """Per output channel, whether its requantization shifts left."""
    input_q, filter_q, output_q = (
        graph.tensor(index).quantization for index in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    channels = graph.tensor(node.outputs[0]).shape[3]
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
    return np.asarray(shifts) > 0


def pairs_entry_features(graph: Graph, node: Node) -> set[str]:
    """opbridge_conv_2d_s8_folded_pairs on Helium: the runs each output row takes (in place, banded,
    in band chunks, split), as the kernel cuts them; their parity, loop turns, left shifts."""
    a = node.attributes
    _, height, width, in_channels = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    out_width = graph.tensor(node.outputs[0]).shape[2]
    left = pairs_left_shifts(graph, node)
    if filter_width * in_channels % 16:  # windows of one row padded to whole blocks, runs across rows
        blocks = -(-filter_width * in_channels // 16)
        window_kind = "pairs_3_blocks_a_turn" if blocks % 3 == 0 else "pairs_1_block_a_turn"
        features = {"pairs_padded_windows", window_kind}
        if left.any():
            features.add(f"{window_kind}_left_shift")
        if graph.tensor(node.outputs[0]).element_count // graph.tensor(node.outputs[0]).shape[3] > (
            CONV_PAIRS_BAND_BYTES // (16 * blocks)
        ):
            features.add("pairs_padded_windows_in_band_chunks")
        cols = window(a.padding, width, filter_width, a.stride_width, 1)
        if filter_width > 1 and (cols.padding_before > 0 or (out_width - 1) * a.stride_width + filter_width > width):
            features.add("pairs_padded_windows_overhanging")  # the zero point copied beside the input
        return features
    rows = window(a.padding, height, filter_height, a.stride_height, a.dilation_height)
    cols = window(a.padding, width, filter_width, a.stride_width, 1)
    first_inside = (cols.padding_before + a.stride_width - 1) // a.stride_width
    last_start = width - filter_width + cols.padding_before
    end_inside = min(last_start // a.stride_width + 1 if last_start >= 0 else 0, out_width)
    band_columns = (CONV_PAIRS_BAND_BYTES // (filter_height * in_channels) - filter_width) // a.stride_width + 1
    blocks = filter_width * in_channels // 16
    if filter_height == filter_width == 1 and a.stride_width == a.stride_height == 1 and cols.padding_before == 0:
        positions = graph.tensor(node.outputs[0]).element_count // graph.tensor(node.outputs[0]).shape[3]
        window_kind = "pairs_3_blocks_a_turn" if blocks % 3 == 0 else "pairs_1_block_a_turn"
        features = {
            "pairs_one_run",
            "pairs_in_place",
            window_kind,
            "pairs_odd_run" if positions % 2 else "pairs_even_run",
        }
        if left.any():
            features.add(f"{window_kind}_left_shift")
        return features
    if blocks == 3 and filter_height == 3:
        window_kind = "pairs_3x3_written_out"
    else:
        window_kind = "pairs_3_blocks_a_turn" if blocks % 3 == 0 else "pairs_1_block_a_turn"
    features = {window_kind}
    if left.any():
        features.add(f"{window_kind}_left_shift")
    for oy in range(rows.output_size):
        y_origin = oy * a.stride_height - rows.padding_before
        rows_inside = y_origin >= 0 and y_origin + (filter_height - 1) * a.dilation_height < height
        first = end = out_width
        fits = band_columns >= out_width
        if (
            rows_inside
            and end_inside - first_inside >= 2
            and (not fits or (first_inside == 0 and end_inside == out_width))
        ):
            first, end = first_inside, end_inside
        ox = 0
        while ox < out_width:
            if ox == first:
                features.add("pairs_in_place")
                if first > 0 or end < out_width:
                    features.add("pairs_split_row")
                runs, ox = end - first, end
            else:
                stop = min(ox + band_columns, out_width)
                stop = first if ox < first < stop else stop
                features.add("pairs_band")
                if not fits:
                    features.add("pairs_band_chunks")
                runs, ox = stop - ox, stop
            features.add("pairs_odd_run" if runs % 2 else "pairs_even_run")
    return features


def pointwise_feature(graph: Graph, node: Node) -> str:
    """The Helium path of a 1x1 CONV_2D over whole blocks: the input vector held in registers (up
    to 64 bytes, no left shift; multipliers per channel or shared), or read a block at a time."""
    input_q, filter_q, output_q = (
        graph.tensor(i).quantization for i in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    channels = graph.tensor(node.outputs[0]).shape[3]
    depth = graph.tensor(node.inputs[0]).shape[3]
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
    if depth > 64 or channels < 4:
        return "pointwise_deep_or_narrow"
    if (shifts[: channels // 4 * 4] > 0).any():
        return "pointwise_left_shift"
    return "pointwise_in_registers_" + ("per_channel" if len(filter_q.scales) > 1 else "shared")


def in_registers_stage_features(graph: Graph, node: Node, depth: int) -> set[str]:
    """The Helium path of input vectors held in registers (up to 64 bytes) with the short output
    stage: every unit shifts right and the activation range is all of int8; rows of exactly 1, 2
    or 4 whole blocks read without an add per row."""
    input_q, filter_q, output_q = (
        graph.tensor(i).quantization for i in (node.inputs[0], node.inputs[1], node.outputs[0])
    )
    assert input_q is not None and filter_q is not None and output_q is not None
    channels = graph.tensor(node.outputs[0]).shape[3]
    _, shifts = per_channel_multipliers(input_q.scale, filter_q.scales, output_q.scale, channels)
    if depth > 64 or channels < 4 or not (shifts < 0).all():
        return set()
    if activation_range(node.attributes.activation, output_q) != (-128, 127):
        return set()
    blocks = -(-depth // 16)
    _, _, filter_width, _ = graph.tensor(node.inputs[1]).shape
    a = node.attributes
    if depth < 16 and depth == filter_width * graph.tensor(node.inputs[0]).shape[3] and channels % 4 == 0:
        # Helium: 1x1 over fewer than 16 channels, unpadded: a row of positions per call
        one_by_one = graph.tensor(node.inputs[1]).shape[1:3] == (1, 1) and channels <= 64
        if one_by_one and window(a.padding, 1, 1, 1, 1).padding_before == 0:
            return {"in_registers_full_range_1x1_positions"}
    if depth % 16 == 0:
        return {f"in_registers_full_range_rows_of_{blocks}_blocks"}
    return {f"in_registers_full_range_{blocks}_blocks_partial"}


def window_features(graph: Graph, node: Node) -> set[str]:
    """CONV_2D and DEPTHWISE_CONV_2D: padding, windows on the border and inside, channels, paths."""
    a = node.attributes
    _, height, width, in_channels = graph.tensor(node.inputs[0]).shape
    _, filter_height, filter_width, _ = graph.tensor(node.inputs[1]).shape
    features = {f"padding_{a.padding.name}", f"filter_{filter_height}x{filter_width}"}
    if filter_height > 5:
        features.add("filter_taller_than_5")
    if max(a.stride_height, a.stride_width) >= 2:
        features.add("stride_2+")
    if max(a.dilation_height, a.dilation_width) == 2:
        features.add("dilation_2")
    if in_channels % 4:
        features.add("channels_not_multiple_of_4")
    if in_channels % 16:
        features.add("channels_not_multiple_of_16")
    if in_channels > 32:
        features.add("channels_above_32")
    inside = []
    for axis, size, filter_size, stride, dilation in (
        ("rows", height, filter_height, a.stride_height, a.dilation_height),
        ("columns", width, filter_width, a.stride_width, a.dilation_width),
    ):
        w = window(a.padding, size, filter_size, stride, dilation)
        origins = [o * stride - w.padding_before for o in range(w.output_size)]
        inside.append([origin >= 0 and origin + (filter_size - 1) * dilation < size for origin in origins])
        if axis == "columns" and dilation > 1 and w.padding_before >= 2:
            # A tap two or more columns left of the input: a dilated row's border groups.
            features.add("dilated_tap_2+_columns_left")
    flags = [row and col for row in inside[0] for col in inside[1]]
    if any(flags):
        features.add("interior_windows")
    if not all(flags):
        features.add("border_windows")
    if node.op_type == "DEPTHWISE_CONV_2D":
        features.add("depth_multiplier_1" if a.depth_multiplier == 1 else "depth_multiplier_above_1")
        if a.depth_multiplier > 1 and in_channels == 1:
            # Helium: each position a fully connected row over the window (whole blocks or not)
            taps = filter_height * filter_width
            whole = taps % 16 == 0 and a.depth_multiplier % 4 == 0
            features.add("single_input_channel" + ("_whole_blocks" if whole else ""))
        if a.depth_multiplier == 1 and folded_kernel(graph, node).endswith("_8_channels"):
            features |= eight_channels_features(graph, node)
        elif a.depth_multiplier == 1 and folded_kernel(graph, node).endswith("_planar"):
            features |= planar_features(graph, node)
        elif a.depth_multiplier == 1:
            features |= depthwise_block_features(graph, node)
    if node.op_type == "CONV_2D":
        if folded_kernel(graph, node).endswith("_by_channel"):
            return features | by_channel_features(graph, node)
        if folded_kernel(graph, node).endswith("_planes"):
            return features | planes_features(graph, node)
        if conv_2d_scratch_bytes(graph, node):
            features.add("patch")
            window_bytes = filter_height * filter_width * in_channels
            if folded_kernel(graph, node).endswith("_patch_rows"):
                features |= patch_rows_features(graph, node, window_bytes, all(flags))
                return features
            features |= in_registers_stage_features(graph, node, window_bytes)
            y_span = (filter_height - 1) * a.dilation_height
            x_span = (filter_width - 1) * a.dilation_width
            if window_bytes <= 64 and (y_span * width + x_span + 1) * in_channels <= 256 and any(flags):
                features.add("patch_gathered")  # Helium: interior windows gathered with byte offsets
        else:
            features.add("in_place")
            group = filter_width if a.dilation_width == 1 else 1
            features.add("dot_tail" if (group * in_channels) % 16 else "dot_multiple_of_16")
            if filter_height == filter_width == 1 and in_channels % 16 == 0:
                features.add("pointwise_whole_blocks")  # 1x1: each position a fully connected row
                features.add(pointwise_feature(graph, node))
                features |= in_registers_stage_features(graph, node, in_channels)
            window_bytes = filter_height * filter_width * in_channels
            features |= blocks_pairs_features(graph, node, inside[1] if any(flags) else [])
            if folded_kernel(graph, node).endswith("_pairs"):
                features |= pairs_entry_features(graph, node)
            copyable = a.dilation_width == 1 and window_bytes % 16 == 0 and window_bytes <= CONV_BLOCKS_MAX_WINDOW
            if not all(flags) and copyable:
                features.add("border_windows_copied")  # Helium: overhanging windows copied to the stack
                if in_channels % 16 == 0 and filter_width > 1 and not inside[1][0] and not inside[1][-1]:
                    # Helium: window rows copied 16 bytes at a time, cut on both sides
                    features.add("border_windows_copied_by_blocks")
            features.add(folded_kernel(graph, node).removeprefix("opbridge_conv_2d_s8_folded").strip("_") or "general")
    return features
