# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankSquareRoot on drawn energies and scale shifts: reference == TFLite Micro, C == reference."""

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

from opbridge_signal.filter_bank_square_root import (
    CUSTOM_CODE,
    FilterBankSquareRootAttributes,
    emit_c,
    persistent_bytes,
    reference,
    scratch_bytes,
)
from opbridge_signal.testing import on_the_boards, run_c

# The real model's node custom options: an empty map.
REAL_MODEL_CUSTOM_OPTIONS = bytes(flexbuffers.Dumps({}))


def run_tflite_micro(frames: list[list[np.ndarray]]) -> list[np.ndarray]:
    """Each frame's (energies, scale shift) through one TFLM interpreter; both inputs are variable, as in the model."""
    builder = GraphBuilder()
    energies = builder.tensor("energies", DType.UINT64, frames[0][0].shape)
    scale_down_bits = builder.tensor("scale_down_bits", DType.INT32, ())
    output = builder.tensor("amplitudes", DType.UINT32, frames[0][0].shape)
    graph = builder.single_node_graph(CUSTOM_CODE, [energies, scale_down_bits], [output], None)
    model = single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=CUSTOM_CODE,
                            custom_options=REAL_MODEL_CUSTOM_OPTIONS)  # fmt: skip
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=64 * 1024)
    results = []
    for values, shift in frames:
        interpreter.set_input(values, 0)
        interpreter.set_input(shift, 1)
        interpreter.invoke()
        results.append(np.array(interpreter.get_output(0)))
    return results


def check_c(frames: list[list[np.ndarray]], platform: str = "host") -> None:
    attributes = FilterBankSquareRootAttributes.from_flexbuffer(REAL_MODEL_CUSTOM_OPTIONS)
    expected = [reference(attributes, frame, None)[0] for frame in frames]
    shape = frames[0][0].shape
    from_c = run_c(lambda args: emit_c(attributes, args), frames, [(np.dtype(np.uint32), shape)], platform=platform)
    for index, (ours, theirs) in enumerate(zip(expected, from_c, strict=True)):
        np.testing.assert_array_equal(
            theirs[0], ours, err_msg=f"frame {index} (shift {int(frames[index][1])}): C on {platform} differs"
        )


def check_against_tflm_and_c(frames: list[list[np.ndarray]]) -> None:
    attributes = FilterBankSquareRootAttributes.from_flexbuffer(REAL_MODEL_CUSTOM_OPTIONS)
    expected = [reference(attributes, frame, None)[0] for frame in frames]
    for index, (ours, theirs) in enumerate(zip(expected, run_tflite_micro(frames), strict=True)):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (ours.dtype, ours.shape, theirs.shape)
        np.testing.assert_array_equal(ours, theirs, err_msg=f"frame {index}: reference differs from TFLite Micro")
    check_c(frames)


def _near(centres: list[int]) -> st.SearchStrategy[int]:
    """Values within a few units of the given points, where rounding and the saturations decide."""
    return st.builds(lambda c, d: min(max(c + d, 0), 2**64 - 1), st.sampled_from(centres), st.integers(-3, 3))


_SQUARES = [r * r for r in (1, 2, 255, 256, 4095, 65535, 65536, 2**31, 2**32 - 1)]
_HALVES = [r * r + r for r in (1, 2, 255, 65535, 65536, 2**31, 2**32 - 1)]  # the round-up thresholds
# Within a few units of a drawn root's square (below 2^32 or above): where a root estimate (the FPU's VSQRT
# on the Cortex-M cores) is off by one and only the integer corrections make it exact.
_NEAR_ANY_SQUARE = st.builds(
    lambda root, d: max(root * root + d, 0),
    st.one_of(st.integers(0, 2**16), st.integers(0, 2**32 - 1)),
    st.integers(-3, 3),
)
ENERGIES = st.one_of(
    st.integers(0, 2**64 - 1),
    st.integers(0, 2**32 - 1),
    st.integers(0, 1000),
    _near([0, 2**32, 2**64 - 1, *_SQUARES, *_HALVES]),
    _NEAR_ANY_SQUARE,
)


def frames_of(count: int, length: int, shifts: st.SearchStrategy[int]) -> st.SearchStrategy[list[list[np.ndarray]]]:
    frame = st.tuples(hnp.arrays(np.uint64, length, elements=ENERGIES), shifts).map(
        lambda pair: [pair[0], np.array(pair[1], dtype=np.int32)]
    )
    return st.lists(frame, min_size=count, max_size=count)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_reference_and_c_match_tflite_micro(data: st.DataObject) -> None:
    length = data.draw(st.integers(1, 64))
    check_against_tflm_and_c(data.draw(frames_of(3, length, st.integers(0, 31))))


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's 40 channels (shifts 0..15) and drawn lengths and shifts."""
    if sizes == "front_end":
        check_c(data.draw(frames_of(4, 40, st.integers(0, 15))), platform)
    else:
        check_c(data.draw(frames_of(4, data.draw(st.integers(1, 64)), st.integers(0, 31))), platform)


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_real_model_node(data: st.DataObject) -> None:
    """40 channels, the shift FftAutoScale can produce (0..15)."""
    attributes = FilterBankSquareRootAttributes.from_flexbuffer(REAL_MODEL_CUSTOM_OPTIONS)
    assert scratch_bytes(attributes, [(40,), ()]) == 0 and persistent_bytes(attributes, [(40,), ()]) == 0
    check_against_tflm_and_c(data.draw(frames_of(4, 40, st.integers(0, 15))))


def test_attributes_round_trip() -> None:
    attributes = FilterBankSquareRootAttributes()
    assert FilterBankSquareRootAttributes.from_flexbuffer(attributes.to_flexbuffer()) == attributes
    assert FilterBankSquareRootAttributes.from_flexbuffer(b"") == attributes


@pytest.mark.parametrize(
    ("custom_options", "message"), [({"shift": 3}, "takes no options"), ([1], "must be a flexbuffer map")]
)
def test_bad_custom_options_are_rejected(custom_options: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        FilterBankSquareRootAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))
    assert CUSTOM_CODE in str(error.value)


def test_shift_outside_a_word_is_an_error() -> None:
    attributes = FilterBankSquareRootAttributes()
    frame = [np.ones(4, np.uint64), np.array(32, np.int32)]
    with pytest.raises(ValueError, match="scale shift 32"):
        reference(attributes, frame, None)
    with pytest.raises(AssertionError, match="status 1"):
        run_c(lambda args: emit_c(attributes, args), [frame], [(np.dtype(np.uint32), (4,))])
