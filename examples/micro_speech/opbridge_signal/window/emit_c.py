# SPDX-License-Identifier: Apache-2.0
"""SignalWindow's C: one kernel call per run; the weights stay a constant input tensor."""

import math

from opbridge.backends.c.emit_context import NodeCode

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.window.attributes import WindowAttributes
from opbridge_signal.window.reference import check_shapes


def emit_c(attributes: WindowAttributes, args: SignalEmitArgs) -> NodeCode:
    input_shape, weights_shape = args.input_shapes
    check_shapes(attributes, input_shape, weights_shape)
    if math.prod(args.output_shapes[0]) != math.prod(input_shape):
        raise ValueError(f"SignalWindow: output shape {args.output_shapes[0]} does not match input {input_shape}")
    samples, weights = args.inputs
    run = (
        f"status = opbridge_signal_window({samples}, {weights}, {weights_shape[0]}, {math.prod(input_shape)}, "
        f"{attributes.shift}, {args.outputs[0]});"
    )
    return NodeCode(includes=["opbridge_signal_window.h"], statements=[run])
