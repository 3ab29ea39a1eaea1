# SPDX-License-Identifier: Apache-2.0
"""SignalRfft's C: the FFT plan as static const tables (flash), one kernel call per run."""

import math

import numpy as np
from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.rfft.attributes import RfftAttributes
from opbridge_signal.rfft.reference import RfftPlan, check_shapes, output_shape

_VALUES_PER_LINE = 16


def _table(ctype: str, name: str, values: np.ndarray) -> str:
    flat = [str(int(v)) for v in np.asarray(values).ravel()]
    lines = [", ".join(flat[i : i + _VALUES_PER_LINE]) for i in range(0, len(flat), _VALUES_PER_LINE)]
    body = ",\n  ".join(lines)
    return f"static const {ctype} {name}[{len(flat)}] = {{\n  {body}\n}};"


def stage_twiddles(plan: RfftPlan) -> np.ndarray:
    """int16 [entries, 2]: the plan's twiddles per stage in the order the kernel's loops read them.

    Stages innermost first (the order they run). A stage of radix p and span m has `stride` blocks
    (complex_length / (p m)) and turns position k of leg q by KISS's table entry q k stride; its entries
    are, for radix 3 and 5, first the roots exp(-2 pi i / p) and exp(-4 pi i / p) (entries stride m and
    2 stride m), then leg-major the twiddles of legs q = 1 .. p - 1 at positions k = 0 .. m - 1, so that
    each leg's twiddles of consecutive positions are contiguous (no gathers). complex_length - 1 entries
    over all stages, plus 2 per stage of radix 3 or 5.
    """
    stride = plan.complex_length
    parts = []
    for radix, span in reversed(plan.stages):
        stride //= radix
        if radix in (3, 5):
            parts.append(plan.twiddles[[stride * span, 2 * stride * span]])
        legs = np.arange(1, radix)[:, None]
        positions = np.arange(span)[None, :]
        parts.append(plan.twiddles[(legs * positions * stride).ravel()])
    return np.concatenate(parts).reshape(-1, 2)


def emit_c(attributes: RfftAttributes, args: SignalEmitArgs) -> NodeCode:
    (input_shape,) = args.input_shapes
    plan = check_shapes(attributes, input_shape)
    expected = output_shape(attributes, input_shape)
    (actual,) = args.output_shapes
    if not actual or actual[-1] != expected[-1] or math.prod(actual) != math.prod(expected):
        raise ValueError(f"SignalRfft: output shape {actual} should be {expected}")
    if args.scratch is None:
        raise ValueError("SignalRfft needs scratch memory (scratch_bytes)")
    symbol = args.symbol
    definitions = [
        _table("int32_t", f"{symbol}_stages", np.array(plan.stages)),
        _table("int16_t", f"{symbol}_stage_twiddles", stage_twiddles(plan)),
        _table("int16_t", f"{symbol}_split_twiddles", plan.split_twiddles),
        _table("uint16_t", f"{symbol}_input_order", plan.input_order),
        f"static const opbridge_signal_rfft_plan {symbol}_plan = {{\n"
        f"  {plan.fft_length}, {len(plan.stages)}, {symbol}_stages, {symbol}_stage_twiddles,\n"
        f"  {symbol}_split_twiddles, {symbol}_input_order\n}};",
    ]
    frame_count = math.prod(input_shape[:-1])
    run = (
        f"status = opbridge_signal_rfft_int16(&{symbol}_plan, {args.inputs[0]}, {input_shape[-1]}, {frame_count}, "
        f"(int16_t *){args.scratch}, {args.outputs[0]});"
    )
    return NodeCode(includes=["opbridge_signal_rfft.h"], definitions=definitions, statements=[run])
