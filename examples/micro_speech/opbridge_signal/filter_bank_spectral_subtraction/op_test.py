# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSpectralSubtraction over several frames (the noise estimate carries over):
reference == TFLite Micro, C == reference."""

import dataclasses

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

from opbridge_signal.filter_bank_spectral_subtraction import (
    CUSTOM_CODE,
    FilterBankSpectralSubtractionAttributes,
    emit_c,
    initial_state,
    persistent_bytes,
    reference,
    scratch_bytes,
)
from opbridge_signal.testing import on_the_boards, run_c

# The real model's node attributes (model inputs, not TFLM results).
REAL_MODEL_ATTRIBUTES = FilterBankSpectralSubtractionAttributes(
    num_channels=40,
    smoothing=409,
    one_minus_smoothing=15975,
    alternate_smoothing=983,
    alternate_one_minus_smoothing=15401,
    min_signal_remaining=819,
    smoothing_bits=10,
    spectral_subtraction_bits=14,
    clamping=False,
)


def run_tflite_micro(
    attributes: FilterBankSpectralSubtractionAttributes, frames: list[np.ndarray], reset_before: int | None = None
) -> list[list[np.ndarray]]:
    """Every frame through one interpreter, so the noise estimate carries over (reset before frame `reset_before`)."""
    builder = GraphBuilder()
    channels = (attributes.num_channels,)
    signal = builder.tensor("signal", DType.UINT32, channels)
    output = builder.tensor("subtracted", DType.UINT32, channels)
    noise_estimate = builder.tensor("noise_estimate", DType.UINT32, channels)
    graph = builder.single_node_graph(CUSTOM_CODE, [signal], [output, noise_estimate], None)
    model = single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=CUSTOM_CODE,
                            custom_options=attributes.to_flexbuffer())  # fmt: skip
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=64 * 1024)
    results = []
    for index, values in enumerate(frames):
        if index == reset_before:
            interpreter.reset()
        interpreter.set_input(values, 0)
        interpreter.invoke()
        results.append([np.array(interpreter.get_output(0)), np.array(interpreter.get_output(1))])
    return results


def run_reference(
    attributes: FilterBankSpectralSubtractionAttributes, frames: list[np.ndarray], reset_before: int | None = None
) -> list[list[np.ndarray]]:
    shapes = [(attributes.num_channels,)]
    state = initial_state(attributes, shapes)
    results = []
    for index, values in enumerate(frames):
        if index == reset_before:
            state = initial_state(attributes, shapes)
        results.append(reference(attributes, [values], state))
    return results


def check_c(
    attributes: FilterBankSpectralSubtractionAttributes, frames: list[np.ndarray], platform: str = "host"
) -> None:
    expected = run_reference(attributes, frames)
    shape = (attributes.num_channels,)
    state = persistent_bytes(attributes, [shape])
    from_c = run_c(lambda args: emit_c(attributes, args), [[values] for values in frames],
                   [(np.dtype(np.uint32), shape)] * 2, persistent_bytes=state, platform=platform)  # fmt: skip
    for index, (ours, theirs) in enumerate(zip(expected, from_c, strict=True)):
        for position in range(2):
            np.testing.assert_array_equal(
                theirs[position],
                ours[position],
                err_msg=f"frame {index} output {position}: C on {platform} != reference ({attributes})",
            )


def check_against_tflm_and_c(attributes: FilterBankSpectralSubtractionAttributes, frames: list[np.ndarray]) -> None:
    expected = run_reference(attributes, frames)
    for index, (ours, theirs) in enumerate(zip(expected, run_tflite_micro(attributes, frames), strict=True)):
        for position in range(2):
            assert ours[position].dtype == theirs[position].dtype and ours[position].shape == theirs[position].shape
            np.testing.assert_array_equal(
                ours[position], theirs[position], err_msg=f"frame {index} output {position}: reference != TFLite Micro"
            )
    check_c(attributes, frames)


INT32 = st.integers(-(2**31), 2**31 - 1)


@st.composite
def drawn_attributes(draw: st.DrawFn) -> FilterBankSpectralSubtractionAttributes:
    """Mostly coefficient pairs summing to one (as the converter writes them), sometimes any int32."""
    fraction_bits = draw(st.one_of(st.integers(0, 30), st.integers(0, 63)))
    one = 1 << min(fraction_bits, 30)

    def pair() -> tuple[int, int]:
        if draw(st.booleans()):
            smoothing = draw(st.integers(0, one))
            return smoothing, one - smoothing
        return draw(INT32), draw(INT32)

    smoothing, one_minus_smoothing = pair()
    alternate_smoothing, alternate_one_minus_smoothing = pair()
    return FilterBankSpectralSubtractionAttributes(
        num_channels=draw(st.integers(1, 16)),
        smoothing=smoothing,
        one_minus_smoothing=one_minus_smoothing,
        alternate_smoothing=alternate_smoothing,
        alternate_one_minus_smoothing=alternate_one_minus_smoothing,
        min_signal_remaining=draw(st.one_of(st.integers(0, one), INT32)),
        smoothing_bits=draw(st.integers(0, 31)),
        spectral_subtraction_bits=fraction_bits,
        clamping=draw(st.booleans()),
    )


def signals(channels: int, frames: int, maximum: int = 2**32 - 1) -> st.SearchStrategy[list[np.ndarray]]:
    level = st.one_of(st.integers(0, maximum), st.integers(0, 3000), st.sampled_from([0, maximum]))
    return st.lists(hnp.arrays(np.uint32, channels, elements=level), min_size=frames, max_size=frames)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_reference_and_c_match_tflite_micro(data: st.DataObject) -> None:
    attributes = data.draw(drawn_attributes())
    check_against_tflm_and_c(attributes, data.draw(signals(attributes.num_channels, 6)))


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards, over several frames (the estimate carries over): the front end's node
    (40 channels, its attributes, clamping either way) and drawn attributes and channel counts."""
    if sizes == "front_end":
        attributes = dataclasses.replace(REAL_MODEL_ATTRIBUTES, clamping=data.draw(st.booleans(), label="clamping"))
        quiet = data.draw(signals(40, 2, maximum=200))
        check_c(attributes, quiet + data.draw(signals(40, 4, maximum=65535)) + quiet, platform)
    else:
        attributes = data.draw(drawn_attributes())
        check_c(attributes, data.draw(signals(attributes.num_channels, 6)), platform)


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_real_model_node(data: st.DataObject) -> None:
    """The model's attributes; amplitudes as FilterBankSquareRoot leaves them (below 2**16 after its shift)."""
    attributes = REAL_MODEL_ATTRIBUTES
    assert scratch_bytes(attributes, [(40,)]) == 0 and persistent_bytes(attributes, [(40,)]) == 160
    # A quiet start, then louder frames: the estimate first rises, and clamping decides how it falls.
    quiet = data.draw(signals(40, 4, maximum=200))
    loud = data.draw(signals(40, 8, maximum=65535))
    check_against_tflm_and_c(attributes, quiet + loud + quiet)
    check_against_tflm_and_c(dataclasses.replace(attributes, clamping=True), quiet + loud + quiet)


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_reset_restores_the_initial_state(data: st.DataObject) -> None:
    attributes = REAL_MODEL_ATTRIBUTES
    frames = data.draw(signals(40, 6, maximum=65535))
    for ours, theirs in zip(run_reference(attributes, frames, 3), run_tflite_micro(attributes, frames, 3), strict=True):
        np.testing.assert_array_equal(ours[0], theirs[0])
        np.testing.assert_array_equal(ours[1], theirs[1])


def test_attributes_round_trip() -> None:
    assert (
        FilterBankSpectralSubtractionAttributes.from_flexbuffer(REAL_MODEL_ATTRIBUTES.to_flexbuffer())
        == REAL_MODEL_ATTRIBUTES
    )
    negative = dataclasses.replace(REAL_MODEL_ATTRIBUTES, smoothing=-5, clamping=True)
    assert FilterBankSpectralSubtractionAttributes.from_flexbuffer(negative.to_flexbuffer()) == negative


def _custom_options_map(**changes: object) -> dict[str, object]:
    values: dict[str, object] = dataclasses.asdict(REAL_MODEL_ATTRIBUTES)
    values.update(changes)
    return {key: value for key, value in values.items() if value is not None}


@pytest.mark.parametrize(
    ("custom_options", "message"),
    [
        (_custom_options_map(smoothing=None), "'smoothing' is missing"),
        (_custom_options_map(clamping=None), "'clamping' is missing"),
        (_custom_options_map(num_channels="40"), "'num_channels' must be an integer"),
        (_custom_options_map(smoothing_bits=2.0), "'smoothing_bits' must be an integer"),
        (_custom_options_map(clamping=0.5), "'clamping' must be a bool"),
        (_custom_options_map(min_signal_remaining=2**31), "'min_signal_remaining' = 2147483648 does not fit in int32"),
        (_custom_options_map(smoothing_bits=32), "smoothing_bits must be in"),
        (_custom_options_map(spectral_subtraction_bits=64), "spectral_subtraction_bits must be in"),
        (_custom_options_map(noise_floor=3), "unexpected option key"),
        ([1, 2], "must be a flexbuffer map"),
    ],
)
def test_bad_custom_options_are_rejected(custom_options: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        FilterBankSpectralSubtractionAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))
    assert CUSTOM_CODE in str(error.value)
