# SPDX-License-Identifier: Apache-2.0
"""SignalWindow: reference == TFLite Micro, C kernel == reference, attributes, the real model's node."""

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

from opbridge_signal import window
from opbridge_signal.testing import WINDOW_SAMPLES, on_the_boards, real_frames, real_model_node, run_c

ARENA_BYTES = 64 * 1024


def window_model(attributes: window.WindowAttributes, input_shape: tuple[int, ...], weights: np.ndarray) -> bytes:
    builder = GraphBuilder()
    samples = builder.tensor("samples", DType.INT16, input_shape)
    constant = builder.tensor("weights", DType.INT16, weights.shape, data=weights)
    windowed = builder.tensor("windowed", DType.INT16, input_shape)
    graph = builder.single_node_graph("SignalWindow", [samples, constant], [windowed], None)
    return single_op_model(
        graph,
        schema.BuiltinOperator.CUSTOM,
        1,
        custom_code=window.CUSTOM_CODE,
        custom_options=attributes.to_flexbuffer(),
    )


def run_tflm(model: bytes, frames: list[np.ndarray]) -> list[np.ndarray]:
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
    outputs = []
    for frame in frames:
        interpreter.set_input(frame, 0)
        interpreter.invoke()
        outputs.append(np.array(interpreter.get_output(0)))
    return outputs


def draw_int16(data: st.DataObject, shape: tuple[int, ...], label: str) -> np.ndarray:
    """int16 values at a drawn loudness; full-scale extremes sometimes, to saturate."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label=f"{label} seed"))
    if data.draw(st.booleans(), label=f"{label} extremes"):
        return rng.choice(np.array([-32768, -1, 0, 32767], dtype=np.int16), size=shape)
    bits = data.draw(st.integers(0, 15), label=f"{label} loudness bits")
    return rng.integers(-(2**bits), 2**bits, size=shape).astype(np.int16)


def draw_case(data: st.DataObject) -> tuple[window.WindowAttributes, tuple[int, ...], np.ndarray]:
    length = data.draw(st.integers(1, 64), label="window length")
    rows = data.draw(st.integers(1, 3), label="windows per frame")
    input_shape = data.draw(st.sampled_from([(rows * length,), (rows, length), (1, rows * length)]), label="shape")
    attributes = window.WindowAttributes(shift=data.draw(st.integers(0, 31), label="shift"))
    return attributes, input_shape, draw_int16(data, (length,), "weights")


def assert_equal(ours: np.ndarray, theirs: np.ndarray, what: str) -> None:
    differing = np.flatnonzero(ours.ravel() != theirs.ravel())
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, (
        f"{what}: {ours.dtype}{ours.shape} vs {theirs.dtype}{theirs.shape}"
    )
    assert differing.size == 0, (
        f"{what}: {differing.size} values differ, first at {differing[:5]}: "
        f"ours {ours.ravel()[differing[:5]]}, theirs {theirs.ravel()[differing[:5]]}"
    )


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    attributes, input_shape, weights = draw_case(data)
    frames = [draw_int16(data, input_shape, f"frame {k}") for k in range(3)]
    model = window_model(attributes, input_shape, weights)
    for index, (frame, theirs) in enumerate(zip(frames, run_tflm(model, frames), strict=True)):
        (ours,) = window.reference(attributes, [frame, weights], None)
        assert_equal(ours, theirs, f"{attributes}, input {input_shape}, frame {index}")


def check_c(
    attributes: window.WindowAttributes, input_shape: tuple[int, ...], frames: list[list[np.ndarray]], platform: str
) -> None:
    expected = [window.reference(attributes, frame, None) for frame in frames]
    produced = run_c(
        functools.partial(window.emit_c, attributes), frames, [(np.dtype(np.int16), input_shape)], platform=platform
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(
            ours[0], theirs[0], f"C vs reference on {platform}, {attributes}, input {input_shape}, frame {index}"
        )


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_c_matches_reference(data: st.DataObject) -> None:
    attributes, input_shape, weights = draw_case(data)
    frames = [[draw_int16(data, input_shape, f"frame {k}"), weights] for k in range(3)]
    check_c(attributes, input_shape, frames, "host")


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's node (480 samples, its weights and shift) and drawn sizes."""
    if sizes == "front_end":
        custom_options, (_, weights) = real_model_node(window.CUSTOM_CODE)
        attributes, input_shape = window.WindowAttributes.from_flexbuffer(custom_options), (1, WINDOW_SAMPLES)
        assert weights is not None
    else:
        attributes, input_shape, weights = draw_case(data)
    frames = [[draw_int16(data, input_shape, f"frame {k}"), weights] for k in range(4)]
    check_c(attributes, input_shape, frames, platform)


@pytest.mark.parametrize("shift", [0, 12, 31])
def test_attributes_round_trip(shift: int) -> None:
    attributes = window.WindowAttributes(shift=shift)
    assert window.WindowAttributes.from_flexbuffer(attributes.to_flexbuffer()) == attributes


@pytest.mark.parametrize(
    ("custom_options", "message"),
    [({}, "'shift'"), ({"shift": 1.5}, "'shift'"), ({"shift": "12"}, "'shift'"), ({"shift": False}, "'shift'")],
)
def test_bad_custom_options_are_rejected(custom_options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        window.WindowAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))


def test_not_a_map_is_rejected() -> None:
    with pytest.raises(ValueError, match="SignalWindow"):
        window.WindowAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(12)))


@pytest.mark.parametrize(
    ("shift", "input_shape", "weights_shape"), [(-1, (4,), (4,)), (32, (4,), (4,)), (0, (6,), (4,)), (0, (4,), (2, 2))]
)
def test_shapes_and_shifts_tflm_cannot_run_are_rejected(
    shift: int, input_shape: tuple[int, ...], weights_shape: tuple[int, ...]
) -> None:
    with pytest.raises(ValueError, match="SignalWindow"):
        window.reference(
            window.WindowAttributes(shift=shift),
            [np.zeros(input_shape, dtype=np.int16), np.zeros(weights_shape, dtype=np.int16)],
            None,
        )


def test_real_model_node_on_speech() -> None:
    custom_options, (_, weights) = real_model_node(window.CUSTOM_CODE)
    attributes = window.WindowAttributes.from_flexbuffer(custom_options)
    assert weights is not None and weights.shape == (480,)
    frames = real_frames()
    expected = [window.reference(attributes, [frame, weights], None)[0] for frame in frames]
    theirs_all = run_tflm(window_model(attributes, (1, 480), weights), frames)
    for index, (ours, theirs) in enumerate(zip(expected, theirs_all, strict=True)):
        assert_equal(ours, theirs, f"reference vs TFLM, speech frame {index}")
    produced = run_c(
        functools.partial(window.emit_c, attributes),
        [[frame, weights] for frame in frames],
        [(np.dtype(np.int16), (1, 480))],
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(ours[0], theirs, f"C vs reference, speech frame {index}")
