# SPDX-License-Identifier: Apache-2.0
"""SignalFilterBank on drawn spectra and channel tables: reference == TFLite Micro, C == reference."""

import dataclasses

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opbridge.errors import ModelFormatError
from opbridge.ir import DType
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.single_op import GraphBuilder
from tflite_micro.python.tflite_micro import runtime

from opbridge_signal.emit_args import SignalEmitArgs
from opbridge_signal.filter_bank import (
    CUSTOM_CODE,
    FilterBankAttributes,
    emit_c,
    persistent_bytes,
    reference,
    scratch_bytes,
)
from opbridge_signal.filter_bank.emit_c import merged_bands
from opbridge_signal.testing import on_the_boards, real_model_node, run_c

TABLE_NAMES = ("weights", "unweights", "channel_frequency_starts", "channel_weight_starts", "channel_widths")


def run_tflite_micro(
    attributes: FilterBankAttributes, spectra: list[np.ndarray], tables: list[np.ndarray]
) -> list[np.ndarray]:
    """Each spectrum's filter bank in one TFLM interpreter (the tables are model constants)."""
    builder = GraphBuilder()
    spectrum = builder.tensor("spectrum", DType.UINT32, spectra[0].shape)
    constants = [
        builder.tensor(name, DType.INT16, table.shape, data=table)
        for name, table in zip(TABLE_NAMES, tables, strict=True)
    ]
    output = builder.tensor("channels", DType.UINT64, (attributes.num_channels,))
    graph = builder.single_node_graph(CUSTOM_CODE, [spectrum, *constants], [output], None)
    model = single_op_model(graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=CUSTOM_CODE,
                            custom_options=attributes.to_flexbuffer())  # fmt: skip
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=64 * 1024)
    results = []
    for values in spectra:
        interpreter.set_input(values, 0)
        interpreter.invoke()
        results.append(np.array(interpreter.get_output(0)))
    return results


def check_c(
    attributes: FilterBankAttributes, spectra: list[np.ndarray], tables: list[np.ndarray], platform: str = "host"
) -> None:
    expected = [reference(attributes, [spectrum, *tables], None)[0] for spectrum in spectra]
    # Tables that are model constants take the merged kernel where the merged weights allow it (as every
    # converted model does); tables computed at run time, the general kernel. Both must equal the reference.
    for constant_inputs, kernel in (((1, 2, 3, 4, 5), "merged"), ((), "general")):
        from_c = run_c(lambda args: emit_c(attributes, args), [[spectrum, *tables] for spectrum in spectra],
                       [(np.dtype(np.uint64), (attributes.num_channels,))], platform=platform,
                       constant_inputs=constant_inputs)  # fmt: skip
        for frame, (ours, theirs) in enumerate(zip(expected, from_c, strict=True)):
            np.testing.assert_array_equal(
                theirs[0], ours, err_msg=f"frame {frame}: C on {platform} ({kernel} tables) differs from the reference"
            )


def check_against_tflm_and_c(
    attributes: FilterBankAttributes, spectra: list[np.ndarray], tables: list[np.ndarray]
) -> None:
    expected = [reference(attributes, [spectrum, *tables], None)[0] for spectrum in spectra]
    for frame, (ours, theirs) in enumerate(zip(expected, run_tflite_micro(attributes, spectra, tables), strict=True)):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, (ours.dtype, ours.shape, theirs.shape)
        np.testing.assert_array_equal(ours, theirs, err_msg=f"frame {frame}: reference differs from TFLite Micro")
    check_c(attributes, spectra, tables)


# Weights as converters write them (0..4096) or any int16: a negative one sends the Helium kernel to its scalar loop.
ANY_WEIGHT = st.one_of(st.integers(0, 4096), st.integers(-(2**15), 2**15 - 1))
NON_NEGATIVE_WEIGHT = st.one_of(st.integers(0, 4096), st.integers(0, 2**15 - 1))


@st.composite
def filter_banks(
    draw: st.DrawFn, weight_values: st.SearchStrategy[int] = ANY_WEIGHT
) -> tuple[FilterBankAttributes, int, list[np.ndarray]]:
    """Attributes, spectrum length and the five tables, every band inside the spectrum and the weights."""
    num_channels = draw(st.integers(1, 12))
    spectrum_length = draw(st.integers(1, 64))
    weights_length = draw(st.integers(1, 48))
    unweights_length = draw(st.sampled_from([weights_length, draw(st.integers(1, 48))]))
    frequency_starts, weight_starts, widths = [], [], []
    for _ in range(num_channels + 1):
        width = draw(st.integers(-1, min(spectrum_length, weights_length, unweights_length, 10)))
        if width <= 0:  # an empty band may start anywhere: TFLM reads nothing
            frequency_starts.append(draw(st.integers(-5, 300)))
            weight_starts.append(draw(st.integers(-5, 300)))
        else:
            frequency_starts.append(draw(st.integers(0, spectrum_length - width)))
            weight_starts.append(draw(st.integers(0, min(weights_length, unweights_length) - width)))
        widths.append(width)
    weights = draw(hnp.arrays(np.int16, weights_length, elements=weight_values))
    unweights = draw(hnp.arrays(np.int16, unweights_length, elements=weight_values))
    as_int16 = [np.array(values, dtype=np.int16) for values in (frequency_starts, weight_starts, widths)]
    return FilterBankAttributes(num_channels), spectrum_length, [weights, unweights, *as_int16]


def spectra(length: int, frames: int, maximum: int = 2**32 - 1) -> st.SearchStrategy[list[np.ndarray]]:
    energy = st.one_of(st.integers(0, maximum), st.integers(0, 1000), st.sampled_from([0, maximum]))
    return st.lists(hnp.arrays(np.uint32, length, elements=energy), min_size=frames, max_size=frames)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_reference_and_c_match_tflite_micro(data: st.DataObject) -> None:
    attributes, spectrum_length, tables = data.draw(filter_banks())
    check_against_tflm_and_c(attributes, data.draw(spectra(spectrum_length, 2)), tables)


def real_model_tables() -> tuple[FilterBankAttributes, list[np.ndarray]]:
    """The front end's node: 40 channels over a 257-bin spectrum, and its five tables."""
    custom_options, constants = real_model_node(CUSTOM_CODE)
    attributes = FilterBankAttributes.from_flexbuffer(custom_options)
    assert constants[0] is None and all(table is not None for table in constants[1:])
    return attributes, [table for table in constants[1:] if table is not None]


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's node (40 channels, 257 bins, its tables) and drawn banks."""
    if sizes == "front_end":
        attributes, tables = real_model_tables()
        check_c(attributes, data.draw(spectra(257, 4, maximum=2 * 32768**2)), tables, platform)
    else:
        # Mostly non-negative weights, which the Helium kernel sums four bins at a time (tails predicated).
        weight_values = data.draw(st.sampled_from([NON_NEGATIVE_WEIGHT, NON_NEGATIVE_WEIGHT, ANY_WEIGHT]))
        attributes, spectrum_length, tables = data.draw(filter_banks(weight_values))
        check_c(attributes, data.draw(spectra(spectrum_length, 4)), tables, platform)


@settings(max_examples=5, deadline=None)
@given(st.data())
def test_real_model_node(data: st.DataObject) -> None:
    attributes, tables = real_model_tables()
    assert scratch_bytes(attributes, [(257,), *(t.shape for t in tables)]) == 0
    assert persistent_bytes(attributes, [(257,), *(t.shape for t in tables)]) == 0
    # Energies as SignalEnergy leaves them: up to 2 * 32768^2.
    check_against_tflm_and_c(attributes, data.draw(spectra(257, 3, maximum=2 * 32768**2)), tables)


def test_attributes_round_trip() -> None:
    attributes = FilterBankAttributes(num_channels=40)
    assert FilterBankAttributes.from_flexbuffer(attributes.to_flexbuffer()) == attributes


@pytest.mark.parametrize(
    ("custom_options", "message"),
    [
        ({}, "'num_channels' is missing"),
        ({"num_channels": 1.5}, "'num_channels' must be an integer"),
        ({"num_channels": True}, "'num_channels' must be an integer"),
        ({"num_channels": 0}, "num_channels must be positive"),
        ({"num_channels": 40, "extra": 1}, "unexpected option key"),
        ([40], "must be a flexbuffer map"),
    ],
)
def test_bad_custom_options_are_rejected(custom_options: object, message: str) -> None:
    from flatbuffers import flexbuffers

    with pytest.raises(ValueError, match=message) as error:
        FilterBankAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))
    assert CUSTOM_CODE in str(error.value)


def test_band_outside_the_spectrum_is_an_error() -> None:
    attributes = FilterBankAttributes(1)
    tables = [np.ones(4, np.int16), np.ones(4, np.int16), np.array([0, 3], np.int16), np.array([0, 0], np.int16),
              np.array([2, 2], np.int16)]  # fmt: skip
    with pytest.raises(ValueError, match="outside the spectrum"):
        reference(attributes, [np.ones(4, np.uint32), *tables], None)
    with pytest.raises(AssertionError, match="status 1"):
        run_c(lambda args: emit_c(attributes, args), [[np.ones(4, np.uint32), *tables]], [(np.dtype(np.uint64), (1,))])
    # With the tables constant, the emitter finds the bad band at conversion time, naming it: the model is damaged.
    with pytest.raises(ModelFormatError, match=r"band 1 .* outside the spectrum of 4"):
        run_c(lambda args: emit_c(attributes, args), [[np.ones(4, np.uint32), *tables]], [(np.dtype(np.uint64), (1,))],
              constant_inputs=(1, 2, 3, 4, 5))  # fmt: skip


def test_real_model_takes_the_merged_kernel() -> None:
    """The model's tables merge (one run of weights per channel, each below 2^16), so its node calls the
    merged kernel, with as many weights as the two edges' bands cover; a negative merged weight keeps the
    general kernel."""
    attributes, tables = real_model_tables()
    merged = merged_bands(attributes, tables, 257)
    assert merged is not None and len(merged.starts) == attributes.num_channels
    assert len(merged.weights) == sum(merged.widths) <= 2 * int(np.sum(tables[4][: attributes.num_channels + 1]))
    args = SignalEmitArgs(
        inputs=[f"in{i}" for i in range(6)],
        input_shapes=[(257,), *(t.shape for t in tables)],
        outputs=["out"],
        output_shapes=[(attributes.num_channels,)],
        scratch=None,
        state=None,
        symbol="node",
        input_values=(None, *tables),
    )
    assert "opbridge_signal_filter_bank_merged(" in emit_c(attributes, args).statements[0]
    negative = [-tables[0], *tables[1:]]
    assert merged_bands(attributes, negative, 257) is None
    args = dataclasses.replace(args, input_values=(None, *negative))
    assert "opbridge_signal_filter_bank(" in emit_c(attributes, args).statements[0]
