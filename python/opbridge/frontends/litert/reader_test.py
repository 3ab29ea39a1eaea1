# SPDX-License-Identifier: Apache-2.0
"""The LiteRT reader: the shared models parse; damaged files give typed errors.

The fuzz tests feed truncated and byte-flipped copies of real models: the
reader must return a graph or raise an OpbridgeError, never anything else,
and never hang.
"""

import contextlib
import pathlib
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from opbridge.aot.definition_registration import as_registry_context
from opbridge.errors import ModelFormatError, OpbridgeError, UnsupportedOperatorError
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType
from opbridge.ops.builtin import build_builtin_registry

MODELS = pathlib.Path("../shared_models/models")
REGISTRY = build_builtin_registry()
CONTEXT = as_registry_context(REGISTRY)
HELLO_WORLD = (MODELS / "tflm/hello_world_int8.tflite").read_bytes()
KWS = (MODELS / "mlperf_tiny/kws_ref_model.tflite").read_bytes()
SECONDS_PER_PARSE = 5.0


def test_hello_world_parses_into_three_fully_connected_nodes() -> None:
    graph = read_litert_model(HELLO_WORLD, CONTEXT, "hello_world")
    assert [node.op_type for node in graph.nodes] == ["FULLY_CONNECTED"] * 3
    (model_input,) = graph.input_tensors()
    assert model_input.dtype is DType.INT8 and model_input.shape == (1, 1)
    assert model_input.quantization is not None
    weights = graph.tensor(graph.nodes[0].inputs[1])
    assert weights.is_constant and weights.data.shape == weights.shape


def test_kws_model_has_per_channel_convolutions() -> None:
    graph = read_litert_model(KWS, CONTEXT, "kws")
    conv = next(node for node in graph.nodes if node.op_type == "CONV_2D")
    filter_quantization = graph.tensor(conv.inputs[1]).quantization
    assert filter_quantization.per_channel and filter_quantization.axis == 0


def test_custom_operators_without_a_plugin_are_all_listed_at_once() -> None:
    data = (MODELS / "tflm/audio_preprocessor_int8.tflite").read_bytes()
    with pytest.raises(UnsupportedOperatorError) as error:
        read_litert_model(data, CONTEXT, "audio_preprocessor")
    message = str(error.value)
    assert "9 node(s) use 9 operator(s) opbridge does not support" in message
    for name in ("SignalWindow", "SignalRfft", "SignalPCAN", "SignalFilterBankLog"):
        assert name in message
    assert "custom operator 'SignalWindow' (key SIGNALWINDOW) x1 (node 0): no parser registered" in message
    assert "write a plugin: `opbridge new-op KEY --format litert`" in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "too short"),
        (b"\x00" * 16, "not a LiteRT model"),
        (HELLO_WORLD[:100], "damaged"),
    ],
)
def test_damaged_files_raise_model_format_errors(data: bytes, expected: str) -> None:
    with pytest.raises(ModelFormatError, match=expected) as error:
        read_litert_model(data, CONTEXT, "bad.tflite")
    assert "bad.tflite" in str(error.value) and error.value.hint


def parse_within_time(data: bytes) -> None:
    start = time.monotonic()
    with contextlib.suppress(OpbridgeError):
        read_litert_model(data, CONTEXT, "fuzzed.tflite")
    assert time.monotonic() - start < SECONDS_PER_PARSE


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([HELLO_WORLD, KWS]), st.data())
def test_truncated_models_fail_cleanly(model: bytes, data: st.DataObject) -> None:
    length = data.draw(st.integers(0, len(model) - 1))
    parse_within_time(model[:length])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([HELLO_WORLD, KWS]), st.data())
def test_byte_flipped_models_fail_cleanly_or_parse(model: bytes, data: st.DataObject) -> None:
    mutated = bytearray(model)
    for _ in range(data.draw(st.integers(1, 8))):
        # Most of a model is weights; aim half the flips at the first 1 KiB of tables and offsets.
        limit = data.draw(st.sampled_from([min(1024, len(model)), len(model)]))
        position = data.draw(st.integers(0, limit - 1))
        mutated[position] ^= data.draw(st.integers(1, 255))
    parse_within_time(bytes(mutated))
