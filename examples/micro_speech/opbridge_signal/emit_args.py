# SPDX-License-Identifier: Apache-2.0
"""What a Signal operator's C emitter gets: SignalEmitArgs.

Each operator folder's `emit_c.py` has `emit_c(attributes, args) -> NodeCode`
(`opbridge.backends.c.emit_context.NodeCode`; its statements assign
`int32_t status`, 0 on success). The opbridge plugin wraps the NodeCode in
the operator's `<prefix>_<node>_init` and `<prefix>_<node>_run` functions,
and the host test harness (`opbridge_signal.testing.run_c`) wraps it in a
test program, so both run exactly the same statements.
"""

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class SignalEmitArgs:
    """C expressions for one node's buffers, as the emitted function sees them."""

    # Typed pointer expressions, in node order, e.g. "((const int16_t *)p)".
    inputs: list[str]
    input_shapes: list[tuple[int, ...]]
    outputs: list[str]
    output_shapes: list[tuple[int, ...]]
    # `uint8_t *` to the operator's scratch_bytes() bytes (8-byte aligned),
    # valid during one run only; None when it asked for none.
    scratch: str | None
    # `uint8_t *` to the operator's persistent_bytes() bytes (8-byte aligned),
    # kept from run to run; None when it asked for none.
    state: str | None
    # A unique C identifier prefix for file-scope definitions (tables).
    symbol: str
    # Each input's value where it is a model constant (None for activations): what an emitter may
    # precompute tables from at conversion time, in the layout its kernel's loop reads.
    input_values: tuple[np.ndarray | None, ...] = ()
