# SPDX-License-Identifier: Apache-2.0
"""SignalEnergy: reference == TFLite Micro, C kernel == reference, attributes, the real model's node."""

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

from opbridge_signal import energy, fft_auto_scale, rfft, window
from opbridge_signal.testing import on_the_boards, real_frames, real_model_node, run_c

ARENA_BYTES = 64 * 1024


def energy_model(attributes: energy.EnergyAttributes, bins: int) -> bytes:
    builder = GraphBuilder()
    spectrum = builder.tensor("spectrum", DType.INT16, (2 * bins,))
    energies = builder.tensor("energy", DType.UINT32, (bins,))
    graph = builder.single_node_graph("SignalEnergy", [spectrum], [energies], None)
    return single_op_model(
        graph,
        schema.BuiltinOperator.CUSTOM,
        1,
        custom_code=energy.CUSTOM_CODE,
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


def draw_spectrum(data: st.DataObject, bins: int) -> np.ndarray:
    """int16 (re, im) pairs at a drawn loudness, or full-scale extremes ((-32768)^2 * 2 is 2^31)."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    if data.draw(st.booleans(), label="extremes"):
        return rng.choice(np.array([-32768, -32767, 0, 32767], dtype=np.int16), size=2 * bins)
    bits = data.draw(st.integers(0, 15), label="loudness bits")
    return rng.integers(-(2**bits), 2**bits, size=2 * bins).astype(np.int16)


def draw_case(data: st.DataObject) -> tuple[energy.EnergyAttributes, int]:
    bins = data.draw(st.integers(1, 300), label="bins")
    start = data.draw(st.integers(0, bins), label="start_index")
    end = data.draw(st.integers(start, bins), label="end_index")
    return energy.EnergyAttributes(start_index=start, end_index=end), bins


def assert_equal(ours: np.ndarray, theirs: np.ndarray, what: str) -> None:
    differing = np.flatnonzero(ours.ravel() != theirs.ravel())
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, (
        f"{what}: {ours.dtype}{ours.shape} vs {theirs.dtype}{theirs.shape}"
    )
    assert differing.size == 0, (
        f"{what}: {differing.size} values differ, first at {differing[:5]}: "
        f"ours {ours.ravel()[differing[:5]]}, theirs {theirs.ravel()[differing[:5]]}"
    )


def assert_matches_tflm(attributes: energy.EnergyAttributes, ours: np.ndarray, theirs: np.ndarray, what: str) -> None:
    """TFLM writes only [start_index, end_index); the reference zeroes the rest."""
    computed = slice(attributes.start_index, attributes.end_index)
    assert_equal(ours[computed], theirs[computed], what)
    assert ours.shape == theirs.shape, what
    outside = np.ones(ours.shape, dtype=bool)
    outside[computed] = False
    assert not ours[outside].any(), f"{what}: bins outside the range are not 0"


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    attributes, bins = draw_case(data)
    frames = [draw_spectrum(data, bins) for _ in range(3)]
    for index, (frame, theirs) in enumerate(zip(frames, run_tflm(energy_model(attributes, bins), frames), strict=True)):
        (ours,) = energy.reference(attributes, [frame], None)
        assert_matches_tflm(attributes, ours, theirs, f"{attributes}, {bins} bins, frame {index}")


def check_c(attributes: energy.EnergyAttributes, bins: int, frames: list[list[np.ndarray]], platform: str) -> None:
    expected = [energy.reference(attributes, frame, None) for frame in frames]
    produced = run_c(
        functools.partial(energy.emit_c, attributes), frames, [(np.dtype(np.uint32), (bins,))], platform=platform
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(ours[0], theirs[0], f"C vs reference on {platform}, {attributes}, {bins} bins, frame {index}")


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_c_matches_reference(data: st.DataObject) -> None:
    attributes, bins = draw_case(data)
    check_c(attributes, bins, [[draw_spectrum(data, bins)] for _ in range(3)], "host")


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's node (257 bins, 5 to 241) and drawn sizes and ranges."""
    if sizes == "front_end":
        attributes, bins = energy.EnergyAttributes.from_flexbuffer(real_model_node(energy.CUSTOM_CODE)[0]), 257
    else:
        attributes, bins = draw_case(data)
    check_c(attributes, bins, [[draw_spectrum(data, bins)] for _ in range(4)], platform)


@pytest.mark.parametrize(("start", "end"), [(0, 0), (5, 241), (0, 257)])
def test_attributes_round_trip(start: int, end: int) -> None:
    attributes = energy.EnergyAttributes(start_index=start, end_index=end)
    assert energy.EnergyAttributes.from_flexbuffer(attributes.to_flexbuffer()) == attributes


@pytest.mark.parametrize(
    ("custom_options", "message"),
    [
        ({"end_index": 241}, "'start_index'"),
        ({"start_index": 5}, "'end_index'"),
        ({"end_index": 241.0, "start_index": 5}, "'end_index'"),
        ({"end_index": 241, "start_index": "5"}, "'start_index'"),
        ({"end_index": 241, "start_index": True}, "'start_index'"),
    ],
)
def test_bad_custom_options_are_rejected(custom_options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        energy.EnergyAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))


def test_not_a_map_is_rejected() -> None:
    with pytest.raises(ValueError, match="SignalEnergy"):
        energy.EnergyAttributes.from_flexbuffer(bytes(flexbuffers.Dumps([241, 5])))


@pytest.mark.parametrize(("start", "end"), [(-1, 4), (3, 2), (0, 9)])
def test_ranges_outside_the_spectrum_are_rejected(start: int, end: int) -> None:
    with pytest.raises(ValueError, match="SignalEnergy"):
        energy.reference(energy.EnergyAttributes(start_index=start, end_index=end), [np.zeros(16, np.int16)], None)


def test_real_model_node_on_speech() -> None:
    attributes = energy.EnergyAttributes.from_flexbuffer(real_model_node(energy.CUSTOM_CODE)[0])
    window_custom_options, (_, weights) = real_model_node(window.CUSTOM_CODE)
    window_attributes = window.WindowAttributes.from_flexbuffer(window_custom_options)
    rfft_attributes = rfft.RfftAttributes.from_flexbuffer(real_model_node(rfft.CUSTOM_CODE)[0])
    # The node's input as the model makes it: windowed, auto-scaled, transformed.
    inputs = []
    for frame in real_frames():
        windowed = window.reference(window_attributes, [frame, weights], None)[0].reshape(-1)
        scaled = fft_auto_scale.reference(fft_auto_scale.FftAutoScaleAttributes(), [windowed], None)[0]
        inputs.append(rfft.reference(rfft_attributes, [scaled], None)[0])
    assert inputs[0].shape == (514,) and (attributes.start_index, attributes.end_index) == (5, 241)
    expected = [energy.reference(attributes, [spectrum], None)[0] for spectrum in inputs]
    for index, (ours, theirs) in enumerate(zip(expected, run_tflm(energy_model(attributes, 257), inputs), strict=True)):
        assert_matches_tflm(attributes, ours, theirs, f"reference vs TFLM, speech frame {index}")
    produced = run_c(
        functools.partial(energy.emit_c, attributes),
        [[spectrum] for spectrum in inputs],
        [(np.dtype(np.uint32), (257,))],
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(ours[0], theirs, f"C vs reference, speech frame {index}")
