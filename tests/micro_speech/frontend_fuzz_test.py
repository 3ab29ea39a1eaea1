# SPDX-License-Identifier: Apache-2.0
"""The audio front end's model, truncated and mutated, through the reader and
the Signal plugin's flexbuffer parsers: a typed error or a model, never a crash."""

import contextlib
import pathlib

import numpy as np
import pytest
from opbridge.errors import OpbridgeError
from opbridge.frontends.litert import read_litert_model
from opbridge.registry import build_default_registry_context
from opbridge_signal.plugin import SIGNAL_OPERATORS, customize_registry
from opbridge_signal.testing import real_model_node

MODEL = pathlib.Path("../shared_models/models/tflm/audio_preprocessor_int8.tflite").read_bytes()
CONTEXT = build_default_registry_context([customize_registry])


def read_or_typed_error(data: bytes) -> None:
    with contextlib.suppress(OpbridgeError):
        read_litert_model(data, CONTEXT, "fuzzed.tflite")


def test_the_intact_model_parses_all_nine_signal_operators() -> None:
    graph = read_litert_model(MODEL, CONTEXT)
    assert len({node.op_type for node in graph.nodes if node.op_type.startswith("SIGNAL")}) == 9


@pytest.mark.parametrize("length", list(range(0, len(MODEL), max(1, len(MODEL) // 200))))
def test_truncated(length: int) -> None:
    read_or_typed_error(MODEL[:length])


def test_mutated() -> None:
    rng = np.random.default_rng(4)
    for _ in range(400):
        data = bytearray(MODEL)
        for position in rng.integers(0, len(data), size=rng.integers(1, 8)):
            data[position] = int(rng.integers(0, 256))
        read_or_typed_error(bytes(data))


@pytest.mark.parametrize("spec", SIGNAL_OPERATORS, ids=lambda spec: spec.custom_code)
def test_option_parsers_raise_only_value_error(spec) -> None:
    # The reader turns any parser exception into a ModelFormatError, so test the
    # parsers directly: damaged options must give their own clear ValueError.
    original = real_model_node(spec.custom_code)[0]
    spec.attributes_class.from_flexbuffer(original)
    rng = np.random.default_rng(len(original))
    damaged = [original[:length] for length in range(len(original))]
    for _ in range(300):
        data = bytearray(original)
        if data:
            for position in rng.integers(0, len(data), size=rng.integers(1, 4)):
                data[position] = int(rng.integers(0, 256))
        damaged.append(bytes(data))
    for data in damaged:
        with contextlib.suppress(ValueError):
            spec.attributes_class.from_flexbuffer(data)
