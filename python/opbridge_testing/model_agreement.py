# SPDX-License-Identifier: Apache-2.0
"""A whole .tflite model through the reference interpreter and TFLite Micro on seeded inputs, bit for bit
(tests/reference: the shared models, the models the tests build and the converter-made suite)."""

import pathlib

import numpy as np
from opbridge.backends.c.golden_inputs import seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.ir import Graph
from opbridge.registry_context import OperatorRegistry
from tflite_micro.python.tflite_micro import runtime


def check_reference_equals_tflite_micro(
    name: str, path: pathlib.Path, graph: Graph, registry: OperatorRegistry, inputs: int, arena_bytes: int
) -> None:
    """Raises AssertionError unless the reference's output equals TFLite Micro's on `inputs` seeded inputs
    (opbridge's golden-input generator: half uniform, half the zero point plus small noise), and unless
    some outputs are not saturated (inputs that only saturate would prove little)."""
    interpreter = ReferenceInterpreter(graph, registry)
    tflm = runtime.Interpreter.from_file(str(path), arena_size=arena_bytes)
    (input_tensor,) = graph.input_tensors()
    (output_tensor,) = graph.output_tensors()
    limits = np.iinfo(output_tensor.dtype.numpy)
    unsaturated_outputs = 0
    for index, values in enumerate(seeded_inputs(input_tensor, inputs)):
        (ours,) = interpreter.run([values])
        tflm.set_input(values, 0)
        tflm.invoke()
        golden = tflm.get_output(0)
        tflm.reset()
        assert ours.dtype == golden.dtype and ours.shape == golden.shape
        differing = np.flatnonzero(ours != golden)
        assert differing.size == 0, (
            f"{name} input {index}: {differing.size} outputs differ from TFLite Micro, first at {differing[:5]}: "
            f"ours {ours.ravel()[differing[:5]]}, TFLM {golden.ravel()[differing[:5]]}"
        )
        unsaturated_outputs += int(np.count_nonzero((ours > limits.min) & (ours < limits.max)))
    assert unsaturated_outputs > 0, f"{name}: every output saturated; the inputs prove little"
