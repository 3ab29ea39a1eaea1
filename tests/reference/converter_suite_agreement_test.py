# SPDX-License-Identifier: Apache-2.0
"""Every model of the converter-made suite (tests/models/converter_suite, made by TensorFlow's TFLite converter):
the file is the one suite.json records, it loads with no shape arithmetic left (SHAPE, STRIDED_SLICE and PACK of
Keras's free batch size are folded at conversion time), and the reference interpreter equals TFLite Micro bit for
bit on 20 seeded inputs (half uniform, half the input zero point plus small noise)."""

import hashlib
import json
import pathlib

import numpy as np
import pytest
from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.c.golden_inputs import seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import load_litert_model
from opbridge.ops.builtin import build_builtin_registry
from tflite_micro.python.tflite_micro import runtime

SUITE = pathlib.Path("tests/models/converter_suite")
MANIFEST = json.loads((SUITE / "suite.json").read_text())
MODELS = sorted(MANIFEST["models"])
INPUTS = 20
TFLM_ARENA_BYTES = 1024 * 1024
# What TensorFlow writes for a Flatten or Reshape with a free batch size; folded away at load time.
SHAPE_ARITHMETIC = {"SHAPE", "STRIDED_SLICE", "PACK"}


def test_the_suite_holds_at_least_twelve_models_with_their_provenance() -> None:
    assert len(MODELS) >= 12
    assert MANIFEST["tensorflow"].startswith("2."), "made by TensorFlow's converter"
    assert sorted(path.stem for path in SUITE.glob("*.tflite")) == MODELS


@pytest.mark.parametrize("name", MODELS)
def test_the_file_is_the_one_the_manifest_records(name: str) -> None:
    data = (SUITE / f"{name}.tflite").read_bytes()
    assert hashlib.sha256(data).hexdigest() == MANIFEST["models"][name]["sha256"]
    assert len(data) < 1_000_000


@pytest.mark.parametrize("name", MODELS)
def test_reference_equals_tflite_micro(name: str) -> None:
    path = SUITE / f"{name}.tflite"
    registry = build_builtin_registry()
    graph = load_litert_model(path, as_registry_context(registry))
    left = sorted({node.op_type for node in graph.nodes} & SHAPE_ARITHMETIC)
    assert not left, f"{name}: {left} left in the graph; static shape arithmetic should fold"
    interpreter = ReferenceInterpreter(graph, registry)
    tflm = runtime.Interpreter.from_file(str(path), arena_size=TFLM_ARENA_BYTES)
    (input_tensor,) = graph.input_tensors()
    (output_tensor,) = graph.output_tensors()
    limits = np.iinfo(output_tensor.dtype.numpy)
    unsaturated_outputs = 0
    for index, values in enumerate(seeded_inputs(input_tensor, INPUTS)):
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
    # The inputs must exercise more than saturated outputs.
    assert unsaturated_outputs > 0
