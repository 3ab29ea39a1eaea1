# SPDX-License-Identifier: Apache-2.0
"""SignalPCAN on drawn channels, noise estimates, gain tables and shifts: reference == TFLite Micro, C == reference."""

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from flatbuffers import flexbuffers
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opbridge.ir import DType
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import GraphBuilder
from tflite_micro.python.tflite_micro import runtime

from opbridge_signal.pcan import CUSTOM_CODE, PcanAttributes, emit_c, persistent_bytes, reference, scratch_bytes
from opbridge_signal.testing import on_the_boards, real_model_node, run_c

FULL_LUT_LENGTH = 125  # 3 coefficients for each of the 31 octaves above 2, at 4 * bits - 6


def run_tflite_micro(
    attributes: PcanAttributes, frames: list[list[np.ndarray]], gain_lut: np.ndarray
) -> list[np.ndarray]:
    """Each frame's (signal, noise estimate) through one TFLM interpreter; the LUT is a model constant."""
    builder = GraphBuilder()
    shape = frames[0][0].shape
    signal = builder.tensor("signal", DType.UINT32, shape)
    noise_estimate = builder.tensor("noise_estimate", DType.UINT32, shape)
    lut = builder.tensor("gain_lut", DType.INT16, gain_lut.shape, data=gain_lut)
    output = builder.tensor("normalised", DType.UINT32, shape)
    graph = builder.single_node_graph(CUSTOM_CODE, [signal, noise_estimate, lut], [output], None)
    model = single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=CUSTOM_CODE,
                            custom_options=attributes.to_flexbuffer())  # fmt: skip
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=64 * 1024)
    results = []
    for values, noise in frames:
        interpreter.set_input(values, 0)
        interpreter.set_input(noise, 1)
        interpreter.invoke()
        results.append(np.array(interpreter.get_output(0)))
    return results


def check_c(
    attributes: PcanAttributes, frames: list[list[np.ndarray]], gain_lut: np.ndarray, platform: str = "host"
) -> None:
    expected = [reference(attributes, [*frame, gain_lut], None)[0] for frame in frames]
    shape = frames[0][0].shape
    from_c = run_c(lambda args: emit_c(attributes, args), [[*frame, gain_lut] for frame in frames],
                   [(np.dtype(np.uint32), shape)], platform=platform)  # fmt: skip
    for index, (ours, theirs) in enumerate(zip(expected, from_c, strict=True)):
        np.testing.assert_array_equal(
            theirs[0], ours, err_msg=f"frame {index}: C on {platform} differs from the reference ({attributes})"
        )


def check_against_tflm_and_c(attributes: PcanAttributes, frames: list[list[np.ndarray]], gain_lut: np.ndarray) -> None:
    expected = [reference(attributes, [*frame, gain_lut], None)[0] for frame in frames]
    for index, (ours, theirs) in enumerate(zip(expected, run_tflite_micro(attributes, frames, gain_lut), strict=True)):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (ours.dtype, ours.shape, theirs.shape)
        np.testing.assert_array_equal(ours, theirs, err_msg=f"frame {index}: reference differs from TFLite Micro")
    check_c(attributes, frames, gain_lut)


# Every octave equally likely, so every LUT segment gets used.
NOISE = st.integers(0, 32).flatmap(lambda bits: st.integers((1 << bits) >> 1, (1 << bits) - 1))
SIGNAL = st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 2**16), st.sampled_from([0, 2**32 - 1]))


def frames_of(count: int, channels: int, maximum_noise: int = 2**32 - 1) -> st.SearchStrategy[list[list[np.ndarray]]]:
    noise = NOISE.filter(lambda value: value <= maximum_noise)
    frame = st.tuples(hnp.arrays(np.uint32, channels, elements=SIGNAL), hnp.arrays(np.uint32, channels, elements=noise))
    return st.lists(frame.map(list), min_size=count, max_size=count)


def draw_attributes_and_lut(data: st.DataObject) -> tuple[PcanAttributes, np.ndarray]:
    attributes = PcanAttributes(snr_shift=data.draw(st.one_of(st.integers(0, 12), st.integers(0, 63))))
    lut_values = st.one_of(st.integers(-(2**15), 2**15 - 1), st.integers(0, 2048))
    return attributes, data.draw(hnp.arrays(np.int16, FULL_LUT_LENGTH, elements=lut_values))


def real_model_attributes_and_lut() -> tuple[PcanAttributes, np.ndarray]:
    custom_options, constants = real_model_node(CUSTOM_CODE)
    gain_lut = constants[2]  # the third input, a constant int16 table
    assert gain_lut is not None and gain_lut.dtype == np.int16
    return PcanAttributes.from_flexbuffer(custom_options), gain_lut


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_reference_and_c_match_tflite_micro(data: st.DataObject) -> None:
    attributes, gain_lut = draw_attributes_and_lut(data)
    check_against_tflm_and_c(attributes, data.draw(frames_of(2, data.draw(st.integers(1, 48)))), gain_lut)


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's node (40 channels, its LUT and shift) and drawn sizes."""
    if sizes == "front_end":
        attributes, gain_lut = real_model_attributes_and_lut()
        check_c(attributes, data.draw(frames_of(4, 40)), gain_lut, platform)
    else:
        attributes, gain_lut = draw_attributes_and_lut(data)
        check_c(attributes, data.draw(frames_of(4, data.draw(st.integers(1, 48)))), gain_lut, platform)


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_real_model_node(data: st.DataObject) -> None:
    attributes, gain_lut = real_model_attributes_and_lut()
    assert gain_lut.shape == (FULL_LUT_LENGTH,)
    assert (
        scratch_bytes(attributes, [(40,), (40,), (125,)]) == 0
        and persistent_bytes(attributes, [(40,), (40,), (125,)]) == 0
    )
    check_against_tflm_and_c(attributes, data.draw(frames_of(4, 40)), gain_lut)


def test_attributes_round_trip() -> None:
    attributes = PcanAttributes(snr_shift=6)
    assert PcanAttributes.from_flexbuffer(attributes.to_flexbuffer()) == attributes


@pytest.mark.parametrize(
    ("custom_options", "message"),
    [
        ({}, "'snr_shift' is missing"),
        ({"snr_shift": "6"}, "'snr_shift' must be an integer"),
        ({"snr_shift": 64}, "snr_shift must be in"),
        ({"snr_shift": 6, "strength": 1}, "unexpected option key"),
        (6, "must be a flexbuffer map"),
    ],
)
def test_bad_custom_options_are_rejected(custom_options: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        PcanAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))
    assert CUSTOM_CODE in str(error.value)


def test_short_lut_is_an_error() -> None:
    attributes = PcanAttributes(snr_shift=6)
    frame = [np.ones(2, np.uint32), np.array([1, 2**20], np.uint32), np.zeros(10, np.int16)]
    with pytest.raises(ValueError, match="needs gain LUT entry 80"):
        reference(attributes, frame, None)
    with pytest.raises(AssertionError, match="status 1"):
        run_c(lambda args: emit_c(attributes, args), [frame], [(np.dtype(np.uint32), (2,))])
