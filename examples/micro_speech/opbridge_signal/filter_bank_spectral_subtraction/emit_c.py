# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSpectralSubtraction's C: a const configuration, a reset from init, one call per run."""

import math

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.filter_bank_spectral_subtraction.attributes import (
    CUSTOM_CODE,
    FilterBankSpectralSubtractionAttributes,
)
from opbridge_signal.filter_bank_spectral_subtraction.reference import persistent_bytes


def _uint32(value: int) -> str:
    return f"UINT32_C({value & 0xFFFFFFFF})"  # TFLM keeps these int32 values as uint32


def emit_c(attributes: FilterBankSpectralSubtractionAttributes, args: SignalEmitArgs) -> NodeCode:
    if len(args.inputs) != 1 or len(args.outputs) != 2:
        raise ValueError(
            f"{CUSTOM_CODE}: expects 1 input and 2 outputs, got {len(args.inputs)} and {len(args.outputs)}"
        )
    for shape in (args.input_shapes[0], *args.output_shapes):
        if math.prod(shape) != attributes.num_channels:
            raise ValueError(f"{CUSTOM_CODE}: shape {shape} does not hold num_channels = {attributes.num_channels}")
    if args.state is None or persistent_bytes(attributes, args.input_shapes) == 0:
        raise ValueError(f"{CUSTOM_CODE}: needs its noise estimate state")
    config = f"{args.symbol}_config"
    definition = (
        f"static const opbridge_signal_spectral_subtraction_config {config} = {{\n"
        f"    .num_channels = {attributes.num_channels},\n"
        f"    .smoothing = {_uint32(attributes.smoothing)},\n"
        f"    .one_minus_smoothing = {_uint32(attributes.one_minus_smoothing)},\n"
        f"    .alternate_smoothing = {_uint32(attributes.alternate_smoothing)},\n"
        f"    .alternate_one_minus_smoothing = {_uint32(attributes.alternate_one_minus_smoothing)},\n"
        f"    .min_signal_remaining = {_uint32(attributes.min_signal_remaining)},\n"
        f"    .smoothing_bits = {attributes.smoothing_bits}u,\n"
        f"    .spectral_subtraction_bits = {attributes.spectral_subtraction_bits}u,\n"
        f"    .clamping = {int(attributes.clamping)},\n"
        "};"
    )
    noise_estimate_state = f"((uint32_t *)({args.state}))"
    return NodeCode(
        includes=["opbridge_signal_filter_bank_spectral_subtraction.h"],
        definitions=[definition],
        init_statements=[
            f"status = opbridge_signal_filter_bank_spectral_subtraction_reset(&{config}, {noise_estimate_state});"
        ],
        statements=[
            f"status = opbridge_signal_filter_bank_spectral_subtraction(&{config}, {args.inputs[0]}, "
            f"{args.outputs[0]}, {args.outputs[1]}, {noise_estimate_state});"
        ],
    )
