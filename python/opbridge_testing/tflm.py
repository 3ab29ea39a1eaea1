# SPDX-License-Identifier: Apache-2.0
"""Runs LiteRT model bytes with TFLite Micro (the `tflite-micro` package), the golden peer."""

import numpy as np
from tflite_micro.python.tflite_micro import runtime

ARENA_BYTES = 256 * 1024


def run_tflite_micro(model: bytes, inputs: list[np.ndarray], output_count: int) -> list[np.ndarray]:
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
    for position, values in enumerate(inputs):
        interpreter.set_input(values, position)
    interpreter.invoke()
    return [np.array(interpreter.get_output(position)) for position in range(output_count)]
