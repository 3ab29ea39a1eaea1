# SPDX-License-Identifier: Apache-2.0
"""Every model of the converter-made suite (tests/models/converter_suite, made by TensorFlow's TFLite converter):
the file is the one suite.json records, it loads with no shape arithmetic left (SHAPE, STRIDED_SLICE and PACK of
Keras's free batch size are folded at conversion time), and the reference interpreter equals TFLite Micro bit for
bit on 20 seeded inputs (half uniform, half the input zero point plus small noise)."""

import hashlib
import json
import pathlib

import pytest
from opbridge.aot.definition_registration import as_registry_context
from opbridge.frontends.litert import load_litert_model
from opbridge.ops.builtin import build_builtin_registry
from opbridge_testing.model_agreement import check_reference_equals_tflite_micro

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
    check_reference_equals_tflite_micro(name, path, graph, registry, INPUTS, TFLM_ARENA_BYTES)
