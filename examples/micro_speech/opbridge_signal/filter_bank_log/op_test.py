# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBankLog on drawn channels and attributes: reference == TFLite Micro, C == reference."""

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

from opbridge_signal.filter_bank_log import (
    CUSTOM_CODE,
    FilterBankLogAttributes,
    emit_c,
    persistent_bytes,
    reference,
    scratch_bytes,
)
from opbridge_signal.testing import on_the_boards, run_c

# The real model's node attributes (model inputs, not TFLM results).
REAL_MODEL_ATTRIBUTES = FilterBankLogAttributes(input_correction_bits=3, output_scale=64)


def run_tflite_micro(attributes: FilterBankLogAttributes, frames: list[np.ndarray]) -> list[np.ndarray]:
    builder = GraphBuilder()
    energies = builder.tensor("energies", DType.UINT32, frames[0].shape)
    output = builder.tensor("log", DType.INT16, frames[0].shape)
    graph = builder.single_node_graph(CUSTOM_CODE, [energies], [output], None)
    model = single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=CUSTOM_CODE,
                            custom_options=attributes.to_flexbuffer())  # fmt: skip
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=64 * 1024)
    results = []
    for values in frames:
        interpreter.set_input(values, 0)
        interpreter.invoke()
        results.append(np.array(interpreter.get_output(0)))
    return results


def check_c(attributes: FilterBankLogAttributes, frames: list[np.ndarray], platform: str = "host") -> None:
    expected = [reference(attributes, [values], None)[0] for values in frames]
    shape = frames[0].shape
    from_c = run_c(lambda args: emit_c(attributes, args), [[values] for values in frames],
                   [(np.dtype(np.int16), shape)], platform=platform)  # fmt: skip
    for index, (ours, theirs) in enumerate(zip(expected, from_c, strict=True)):
        np.testing.assert_array_equal(
            theirs[0], ours, err_msg=f"frame {index}: C on {platform} differs from the reference ({attributes})"
        )


def check_against_tflm_and_c(attributes: FilterBankLogAttributes, frames: list[np.ndarray]) -> None:
    expected = [reference(attributes, [values], None)[0] for values in frames]
    for index, (ours, theirs) in enumerate(zip(expected, run_tflite_micro(attributes, frames), strict=True)):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (ours.dtype, ours.shape, theirs.shape)
        np.testing.assert_array_equal(ours, theirs, err_msg=f"frame {index}: reference differs from TFLite Micro")
    check_c(attributes, frames)


# Every bit length equally likely, so every octave (and both mantissa shift directions) gets used.
ENERGY = st.integers(0, 32).flatmap(lambda bits: st.integers((1 << bits) >> 1, (1 << bits) - 1))


def frames_of(count: int, length: int) -> st.SearchStrategy[list[np.ndarray]]:
    return st.lists(hnp.arrays(np.uint32, length, elements=ENERGY), min_size=count, max_size=count)


def draw_attributes(data: st.DataObject) -> FilterBankLogAttributes:
    output_scale = data.draw(st.one_of(st.integers(0, 2048), st.integers(-(2**31), 2**31 - 1)))
    return FilterBankLogAttributes(input_correction_bits=data.draw(st.integers(0, 31)), output_scale=output_scale)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_reference_and_c_match_tflite_micro(data: st.DataObject) -> None:
    attributes = draw_attributes(data)
    check_against_tflm_and_c(attributes, data.draw(frames_of(2, data.draw(st.integers(1, 64)))))


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's node (40 channels, its attributes) and drawn sizes."""
    if sizes == "front_end":
        check_c(REAL_MODEL_ATTRIBUTES, data.draw(frames_of(4, 40)), platform)
    else:
        attributes = draw_attributes(data)
        check_c(attributes, data.draw(frames_of(4, data.draw(st.integers(1, 64)))), platform)


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_real_model_node(data: st.DataObject) -> None:
    attributes = REAL_MODEL_ATTRIBUTES
    assert scratch_bytes(attributes, [(40,)]) == 0 and persistent_bytes(attributes, [(40,)]) == 0
    check_against_tflm_and_c(attributes, data.draw(frames_of(3, 40)))


def test_every_table_segment_matches_tflite_micro() -> None:
    """Values 2**16 + 512 k + d walk all 128 segments with an unshifted Q16 mantissa; 2**20 + ... a shifted one."""
    offsets = np.array([*range(0, 512, 16), 1, 511], dtype=np.uint32)
    segments = (np.arange(128, dtype=np.uint32) * 512)[:, None] + offsets[None, :]
    values = np.concatenate(
        [(2**16 + segments).ravel(), (2**20 + 16 * segments).ravel(), np.arange(0, 70, dtype=np.uint32)]
    )
    # output_scale 2**16 keeps ln's low 16 Q16 bits (the product wraps), so a table entry off by one shows.
    for output_scale in (1600, 2**16):
        check_against_tflm_and_c(FilterBankLogAttributes(input_correction_bits=0, output_scale=output_scale), [values])


def test_attributes_round_trip() -> None:
    assert FilterBankLogAttributes.from_flexbuffer(REAL_MODEL_ATTRIBUTES.to_flexbuffer()) == REAL_MODEL_ATTRIBUTES
    negative = FilterBankLogAttributes(input_correction_bits=0, output_scale=-1)
    assert FilterBankLogAttributes.from_flexbuffer(negative.to_flexbuffer()) == negative


@pytest.mark.parametrize(
    ("custom_options", "message"),
    [
        ({"output_scale": 64}, "'input_correction_bits' is missing"),
        ({"input_correction_bits": 3}, "'output_scale' is missing"),
        ({"input_correction_bits": 3, "output_scale": 64.0}, "'output_scale' must be an integer"),
        ({"input_correction_bits": 32, "output_scale": 64}, "input_correction_bits must be in"),
        ({"input_correction_bits": 3, "output_scale": 64, "bias": 1}, "unexpected option key"),
        ([3, 64], "must be a flexbuffer map"),
    ],
)
def test_bad_custom_options_are_rejected(custom_options: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as error:
        FilterBankLogAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))
    assert CUSTOM_CODE in str(error.value)
