# SPDX-License-Identifier: Apache-2.0
"""SignalFftAutoScale: reference == TFLite Micro, C kernel == reference, attributes, the real model's node."""

import functools

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from flatbuffers import flexbuffers
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge.ir import DType
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import GraphBuilder
from tflite_micro.python.tflite_micro import runtime

from opbridge_signal import fft_auto_scale, window
from opbridge_signal.testing import WINDOW_SAMPLES, on_the_boards, real_frames, real_model_node, run_c

ARENA_BYTES = 64 * 1024
ATTRIBUTES = fft_auto_scale.FftAutoScaleAttributes()


def auto_scale_model(length: int) -> bytes:
    builder = GraphBuilder()
    samples = builder.tensor("samples", DType.INT16, (length,))
    scaled = builder.tensor("scaled", DType.INT16, (length,))
    shift = builder.tensor("shift", DType.INT32, ())
    graph = builder.single_node_graph("SignalFftAutoScale", [samples], [scaled, shift], None)
    return single_op_model(
        graph,
        schema.BuiltinOperator.CUSTOM,
        1,
        custom_code=fft_auto_scale.CUSTOM_CODE,
        custom_options=ATTRIBUTES.to_flexbuffer(),
    )


def run_tflm(model: bytes, frames: list[np.ndarray]) -> list[list[np.ndarray]]:
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
    outputs = []
    for frame in frames:
        interpreter.set_input(frame, 0)
        interpreter.invoke()
        outputs.append([np.array(interpreter.get_output(0)), np.array(interpreter.get_output(1))])
    return outputs


def draw_samples(data: st.DataObject, length: int) -> np.ndarray:
    """int16 samples at a drawn loudness (silence included), sometimes with -32768 planted at drawn places.

    -32768 exercises TFLM's int16 running maximum, which wraps when negating it.
    """
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    bits = data.draw(st.integers(-1, 15), label="loudness bits")  # -1: silence
    samples = np.zeros(length, dtype=np.int16)
    if bits >= 0:
        samples = rng.integers(-(2**bits), 2**bits, size=length).astype(np.int16)
    minima = data.draw(st.lists(st.integers(0, length - 1), max_size=3), label="positions of -32768")
    samples[minima] = -32768
    return samples


def assert_equal(ours: np.ndarray, theirs: np.ndarray, what: str) -> None:
    differing = np.flatnonzero(ours.ravel() != theirs.ravel())
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, (
        f"{what}: {ours.dtype}{ours.shape} vs {theirs.dtype}{theirs.shape}"
    )
    assert differing.size == 0, (
        f"{what}: {differing.size} values differ, first at {differing[:5]}: "
        f"ours {ours.ravel()[differing[:5]]}, theirs {theirs.ravel()[differing[:5]]}"
    )


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    length = data.draw(st.integers(1, 600), label="length")
    frames = [draw_samples(data, length) for _ in range(3)]
    for index, (frame, theirs) in enumerate(zip(frames, run_tflm(auto_scale_model(length), frames), strict=True)):
        ours = fft_auto_scale.reference(ATTRIBUTES, [frame], None)
        assert_equal(ours[0], theirs[0], f"scaled samples, length {length}, frame {index}")
        assert_equal(ours[1], theirs[1], f"shift, length {length}, frame {index}")


@pytest.mark.parametrize(
    "samples",
    [
        [0, 0, 0],  # silence: shift 0 (TFLM's GCC build counts 0 as 32 bits)
        [-32768, 3],  # the wrapped running maximum is then overtaken by 3
        [-32768, -5, 2],  # ... even by a negative sample: the peak ends at 2
        [-32768, -32768],  # the peak stays -32768: shift 0
        [1],
        [-1, 0],
        [16384],
        [-16384],
        [-16385, 32767],
    ],
)
def test_peak_corner_cases_match_tflite_micro(samples: list[int]) -> None:
    frame = np.array(samples, dtype=np.int16)
    (theirs,) = run_tflm(auto_scale_model(frame.size), [frame])
    ours = fft_auto_scale.reference(ATTRIBUTES, [frame], None)
    assert_equal(ours[0], theirs[0], f"scaled {samples}")
    assert_equal(ours[1], theirs[1], f"shift of {samples}")
    (produced,) = run_c(
        functools.partial(fft_auto_scale.emit_c, ATTRIBUTES),
        [[frame]],
        [(np.dtype(np.int16), frame.shape), (np.dtype(np.int32), ())],
    )
    assert_equal(produced[0], ours[0], f"C scaled {samples}")
    assert_equal(produced[1], ours[1], f"C shift of {samples}")


def check_c(length: int, frames: list[list[np.ndarray]], platform: str) -> None:
    expected = [fft_auto_scale.reference(ATTRIBUTES, frame, None) for frame in frames]
    produced = run_c(
        functools.partial(fft_auto_scale.emit_c, ATTRIBUTES),
        frames,
        [(np.dtype(np.int16), (length,)), (np.dtype(np.int32), ())],
        platform=platform,
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(ours[0], theirs[0], f"C vs reference on {platform} scaled, length {length}, frame {index}")
        assert_equal(ours[1], theirs[1], f"C vs reference on {platform} shift, length {length}, frame {index}")


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_c_matches_reference(data: st.DataObject) -> None:
    length = data.draw(st.integers(1, 600), label="length")
    check_c(length, [[draw_samples(data, length)] for _ in range(3)], "host")


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's 480 samples and drawn lengths."""
    length = WINDOW_SAMPLES if sizes == "front_end" else data.draw(st.integers(1, 600), label="length")
    check_c(length, [[draw_samples(data, length)] for _ in range(4)], platform)


def test_attributes_round_trip() -> None:
    assert fft_auto_scale.FftAutoScaleAttributes.from_flexbuffer(ATTRIBUTES.to_flexbuffer()) == ATTRIBUTES
    assert fft_auto_scale.FftAutoScaleAttributes.from_flexbuffer(b"") == ATTRIBUTES


@pytest.mark.parametrize("custom_options", [bytes(flexbuffers.Dumps([1, 2])), bytes(flexbuffers.Dumps(3)), b"\x01"])
def test_bad_custom_options_are_rejected(custom_options: bytes) -> None:
    with pytest.raises(ValueError, match="SignalFftAutoScale"):
        fft_auto_scale.FftAutoScaleAttributes.from_flexbuffer(custom_options)


def test_inputs_of_more_than_one_dimension_are_rejected() -> None:
    with pytest.raises(ValueError, match="one dimension"):
        fft_auto_scale.reference(ATTRIBUTES, [np.zeros((1, 4), dtype=np.int16)], None)


def test_real_model_node_on_speech() -> None:
    attributes = fft_auto_scale.FftAutoScaleAttributes.from_flexbuffer(real_model_node(fft_auto_scale.CUSTOM_CODE)[0])
    window_custom_options, (_, weights) = real_model_node(window.CUSTOM_CODE)
    window_attributes = window.WindowAttributes.from_flexbuffer(window_custom_options)
    # The node's input as the model makes it: the windowed frame, flattened.
    inputs = [window.reference(window_attributes, [frame, weights], None)[0].reshape(-1) for frame in real_frames()]
    expected = [fft_auto_scale.reference(attributes, [frame], None) for frame in inputs]
    for index, (ours, theirs) in enumerate(zip(expected, run_tflm(auto_scale_model(480), inputs), strict=True)):
        assert_equal(ours[0], theirs[0], f"reference vs TFLM scaled, speech frame {index}")
        assert_equal(ours[1], theirs[1], f"reference vs TFLM shift, speech frame {index}")
    produced = run_c(
        functools.partial(fft_auto_scale.emit_c, attributes),
        [[frame] for frame in inputs],
        [(np.dtype(np.int16), (480,)), (np.dtype(np.int32), ())],
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(ours[0], theirs[0], f"C vs reference scaled, speech frame {index}")
        assert_equal(ours[1], theirs[1], f"C vs reference shift, speech frame {index}")
