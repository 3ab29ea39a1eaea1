# SPDX-License-Identifier: Apache-2.0
"""The LiteRT reader: the shared models parse; damaged files give typed errors.

The fuzz tests feed truncated and byte-flipped copies of real models: the
reader must return a graph or raise an OpbridgeError, never anything else,
and never hang.
"""

import contextlib
import pathlib
import time

import flatbuffers
import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as litert_schema
from ai_edge_litert.interpreter import Interpreter
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


def pack(model: litert_schema.ModelT) -> bytes:
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def test_scales_without_zero_points_are_refused_as_litert_refuses_them() -> None:
    model = litert_schema.ModelT.InitFromPackedBuf(HELLO_WORLD, 0)
    tensor = next(tensor for tensor in model.subgraphs[0].tensors if tensor.quantization is not None)
    tensor.quantization.zeroPoint = None
    data = pack(model)
    with pytest.raises(ValueError, match="zero_point"):
        Interpreter(model_content=data).allocate_tensors()
    with pytest.raises(ModelFormatError, match="has invalid quantization"):
        read_litert_model(data, CONTEXT, "no_zero_points.tflite")


def with_buffers_after_the_flatbuffer(data: bytes) -> bytes:
    """The model with every constant buffer moved after the FlatBuffer (Buffer.offset and size), as LiteRT
    writes models over 2 GiB."""
    model = litert_schema.ModelT.InitFromPackedBuf(data, 0)
    moved = [(buffer, bytes(buffer.data)) for buffer in model.buffers if buffer.data is not None]
    for buffer, contents in moved:
        buffer.data, buffer.offset, buffer.size = None, 1 << 40, len(contents)  # the table's size, not its value
    tail = bytearray(len(pack(model)))
    for buffer, contents in moved:
        tail.extend(bytes(-len(tail) % 16))
        buffer.offset = len(tail)
        tail.extend(contents)
    flatbuffer = pack(model)
    return flatbuffer + bytes(tail[len(flatbuffer) :])


def test_buffers_kept_after_the_flatbuffer_are_read_as_litert_reads_them() -> None:
    data = with_buffers_after_the_flatbuffer(HELLO_WORLD)
    assert len(data) > len(HELLO_WORLD)
    graph, original = read_litert_model(data, CONTEXT, "external"), read_litert_model(HELLO_WORLD, CONTEXT, "hw")
    constants = [tensor for tensor in original.tensors if tensor.is_constant]
    assert constants
    for tensor in constants:
        assert np.array_equal(graph.tensor(tensor.index).data, tensor.data)
    outputs = []
    for model in (data, HELLO_WORLD):
        interpreter = Interpreter(model_content=model)
        interpreter.allocate_tensors()
        interpreter.set_tensor(interpreter.get_input_details()[0]["index"], np.array([[37]], dtype=np.int8))
        interpreter.invoke()
        outputs.append(interpreter.get_tensor(interpreter.get_output_details()[0]["index"]))
    assert np.array_equal(outputs[0], outputs[1])


def test_the_builtin_code_is_the_larger_of_its_two_fields_as_litert_reads_it() -> None:
    """A bit flip made builtin_code (36) disagree with deprecated_builtin_code (32): LiteRT and TFLite Micro
    take the larger, the `tflite` package's BuiltinCode() the deprecated one below 127; the reader follows
    LiteRT."""
    model = litert_schema.ModelT.InitFromPackedBuf(HELLO_WORLD, 0)
    (code,) = model.operatorCodes
    assert (code.builtinCode, code.deprecatedBuiltinCode) == (9, 9)  # FULLY_CONNECTED
    code.builtinCode, code.version = 10, 1  # HASHTABLE_LOOKUP, which opbridge does not convert
    data = pack(model)
    litert_name = Interpreter(model_content=data)._get_ops_details()[0]["op_name"]
    assert litert_name == "HASHTABLE_LOOKUP"
    with pytest.raises(UnsupportedOperatorError, match=f"{litert_name} x3"):
        read_litert_model(data, CONTEXT, "flipped_code.tflite")


@pytest.mark.parametrize("axis", [-2147483645, 3, 1])
def test_per_channel_scales_along_a_wrong_dimension_are_refused_as_litert_refuses_them(axis: int) -> None:
    """A bit flip in kws' quantized_dimension made TFLite Micro crash; LiteRT and opbridge refuse it."""
    model = litert_schema.ModelT.InitFromPackedBuf(KWS, 0)
    tensors = model.subgraphs[0].tensors
    tensor = next(
        t
        for t in tensors
        if t.quantization is not None and t.quantization.scale is not None and len(t.quantization.scale) > 1
    )
    shape, scale_count = [int(d) for d in tensor.shape], len(tensor.quantization.scale)
    assert tensor.quantization.quantizedDimension == 0 and (not 0 <= axis < len(shape) or shape[axis] != scale_count)
    tensor.quantization.quantizedDimension = axis
    data = pack(model)
    with pytest.raises(ValueError, match="quantiz"):
        Interpreter(model_content=data).allocate_tensors()
    with pytest.raises(ModelFormatError, match=f"scales along its quantized dimension {axis}, which should be"):
        read_litert_model(data, CONTEXT, "kws_bad_axis.tflite")


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
