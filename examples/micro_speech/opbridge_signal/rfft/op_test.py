# SPDX-License-Identifier: Apache-2.0
"""SignalRfft (int16): reference == TFLite Micro, C kernel == reference, attributes, the real model's node."""

import functools
import math

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

from opbridge_signal import fft_auto_scale, rfft, window
from opbridge_signal.rfft.reference import output_shape, rfft_plan
from opbridge_signal.testing import (
    CORTEX_M_PLATFORMS,
    WINDOW_SAMPLES,
    on_the_boards,
    real_frames,
    real_model_node,
    run_c,
)

ARENA_BYTES = 256 * 1024

# Lengths TFLM's KISS FFT can run: fft_length / 2 built from radices 2, 3, 4, 5.
FFT_LENGTHS = sorted(
    2 * (2**a) * (3**b) * (5**c)
    for a in range(10)
    for b in range(4)
    for c in range(3)
    if 4 <= 2 * (2**a) * (3**b) * (5**c) <= 1024
)


def rfft_model(attributes: rfft.RfftAttributes, input_shape: tuple[int, ...]) -> bytes:
    builder = GraphBuilder()
    samples = builder.tensor("samples", DType.INT16, input_shape)
    spectrum = builder.tensor("spectrum", DType.INT16, output_shape(attributes, input_shape))
    graph = builder.single_node_graph("SignalRfft", [samples], [spectrum], None)
    return single_op_model(
        graph, schema.BuiltinOperator.CUSTOM, 1, custom_code=rfft.CUSTOM_CODE, custom_options=attributes.to_flexbuffer()
    )


def run_tflm(model: bytes, frames: list[np.ndarray]) -> list[np.ndarray]:
    interpreter = runtime.Interpreter.from_bytes(model, arena_size=ARENA_BYTES)
    outputs = []
    for frame in frames:
        interpreter.set_input(frame, 0)
        interpreter.invoke()
        outputs.append(np.array(interpreter.get_output(0)))
    return outputs


def draw_samples(data: st.DataObject, shape: tuple[int, ...]) -> np.ndarray:
    """int16 samples of a drawn kind: random at a drawn loudness, or the extremes that stress the wraps."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    kind = data.draw(st.sampled_from(["random", "random", "full_scale", "minimum", "alternating", "zeros"]))
    if kind == "random":
        bits = data.draw(st.integers(0, 15), label="loudness bits")
        return rng.integers(-(2**bits), 2**bits, size=shape, endpoint=False).astype(np.int16)
    if kind == "full_scale":
        return rng.choice(np.array([-32768, 32767], dtype=np.int16), size=shape)
    if kind == "minimum":
        return np.full(shape, -32768, dtype=np.int16)
    if kind == "alternating":
        samples = np.full(shape, 32767, dtype=np.int16)
        samples[..., 1::2] = -32768
        return samples
    return np.zeros(shape, dtype=np.int16)


def draw_case(data: st.DataObject) -> tuple[rfft.RfftAttributes, tuple[int, ...]]:
    fft_length = data.draw(st.sampled_from(FFT_LENGTHS), label="fft_length")
    input_length = data.draw(st.integers(1, fft_length), label="input_length")
    leading = data.draw(st.sampled_from([(), (1,), (2,), (3,)]), label="leading dims")
    return rfft.RfftAttributes(fft_length=fft_length), (*leading, input_length)


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
    attributes, input_shape = draw_case(data)
    frames = [draw_samples(data, input_shape) for _ in range(3)]
    for index, (frame, theirs) in enumerate(
        zip(frames, run_tflm(rfft_model(attributes, input_shape), frames), strict=True)
    ):
        (ours,) = rfft.reference(attributes, [frame], None)
        assert_equal(ours, theirs, f"{attributes}, input {input_shape}, frame {index}")


def check_c(
    attributes: rfft.RfftAttributes, input_shape: tuple[int, ...], frames: list[list[np.ndarray]], platform: str
) -> None:
    expected = [rfft.reference(attributes, frame, None) for frame in frames]
    produced = run_c(
        functools.partial(rfft.emit_c, attributes),
        frames,
        [(np.dtype(np.int16), output_shape(attributes, input_shape))],
        scratch_bytes=rfft.scratch_bytes(attributes, [input_shape]),
        platform=platform,
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(
            ours[0], theirs[0], f"C vs reference on {platform}, {attributes}, input {input_shape}, frame {index}"
        )


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_c_matches_reference(data: st.DataObject) -> None:
    attributes, input_shape = draw_case(data)
    check_c(attributes, input_shape, [[draw_samples(data, input_shape)] for _ in range(3)], "host")


@on_the_boards
def test_c_matches_reference_on_cortex_m(platform: str, sizes: str, data: st.DataObject) -> None:
    """The C on the emulated boards: the front end's size (fft_length 512, 480 samples) and drawn ones."""
    if sizes == "front_end":
        attributes, input_shape = rfft.RfftAttributes(fft_length=512), (WINDOW_SAMPLES,)
    else:
        attributes, input_shape = draw_case(data)
    check_c(attributes, input_shape, [[draw_samples(data, input_shape)] for _ in range(4)], platform)


# One length for each of the variants' paths, whatever hypothesis draws: 512 (the innermost radix-4 stage
# fused with the leaf copies), 256 and 1,024 (an innermost radix-2 stage, then radix-4 stages of span 2, 8,
# 32 (and 128)), 480 (radix-3 and -5 stages in the portable C, the leaf copies alone), 8 (four points:
# nothing fused); each with an input as long as the transform and two shorter ones (zero padding; the odd
# one ends in half a complex sample).
@pytest.mark.parametrize("fft_length", [8, 256, 480, 512, 1024])
@pytest.mark.parametrize("platform", CORTEX_M_PLATFORMS)
def test_every_variant_path_on_cortex_m(platform: str, fft_length: int) -> None:
    rng = np.random.default_rng(fft_length)
    attributes = rfft.RfftAttributes(fft_length=fft_length)
    for input_length in (fft_length, fft_length - fft_length // 8, fft_length - 2 * (fft_length // 16) - 1):
        frames = [[rng.integers(-(2**bits), 2**bits, size=(input_length,)).astype(np.int16)] for bits in (15, 12, 7)]
        check_c(attributes, (input_length,), frames, platform)


@pytest.mark.parametrize("fft_length", [4, 6, 10, 512, 1024])
def test_attributes_round_trip(fft_length: int) -> None:
    attributes = rfft.RfftAttributes(fft_length=fft_length)
    assert rfft.RfftAttributes.from_flexbuffer(attributes.to_flexbuffer()) == attributes


@pytest.mark.parametrize(
    ("custom_options", "message"),
    [
        ({"T": 7}, "fft_length"),
        ({"fft_length": 512}, "'T'"),
        ({"T": 7, "fft_length": 512.0}, "fft_length"),
        ({"T": 7, "fft_length": True}, "fft_length"),
        ({"T": "int16", "fft_length": 512}, "'T'"),
    ],
)
def test_bad_custom_options_are_rejected(custom_options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rfft.RfftAttributes.from_flexbuffer(bytes(flexbuffers.Dumps(custom_options)))


def test_not_a_map_is_rejected() -> None:
    with pytest.raises(ValueError, match="SignalRfft"):
        rfft.RfftAttributes.from_flexbuffer(bytes(flexbuffers.Dumps([7, 512])))


@pytest.mark.parametrize("fft_length", [2, 5, 14, 22, 26])
def test_lengths_tflm_cannot_run_are_rejected(fft_length: int) -> None:
    # Odd lengths, fft_length 2 and half-lengths with a prime factor above 5
    # make TFLM's patched KISS FFT dereference a NULL temporary buffer.
    with pytest.raises(ValueError, match="SignalRfft"):
        rfft_plan(fft_length)


def test_other_tensor_types_are_rejected() -> None:
    with pytest.raises(ValueError, match="int16"):
        rfft.reference(rfft.RfftAttributes(fft_length=8, tensor_type=2), [np.zeros(8, dtype=np.int32)], None)


def test_real_model_node_on_speech() -> None:
    attributes = rfft.RfftAttributes.from_flexbuffer(real_model_node(rfft.CUSTOM_CODE)[0])
    window_custom_options, (_, weights) = real_model_node(window.CUSTOM_CODE)
    window_attributes = window.WindowAttributes.from_flexbuffer(window_custom_options)
    # The node's input as the model makes it: windowed, then auto-scaled.
    inputs = [
        fft_auto_scale.reference(
            fft_auto_scale.FftAutoScaleAttributes(),
            [window.reference(window_attributes, [frame, weights], None)[0].reshape(-1)],
            None,
        )[0]
        for frame in real_frames()
    ]
    input_shape = inputs[0].shape
    assert attributes.fft_length == 512 and input_shape == (480,)
    expected = [rfft.reference(attributes, [frame], None)[0] for frame in inputs]
    for index, (ours, theirs) in enumerate(
        zip(expected, run_tflm(rfft_model(attributes, input_shape), inputs), strict=True)
    ):
        assert_equal(ours, theirs, f"reference vs TFLM, speech frame {index}")
    produced = run_c(
        functools.partial(rfft.emit_c, attributes),
        [[frame] for frame in inputs],
        [(np.dtype(np.int16), output_shape(attributes, input_shape))],
        scratch_bytes=rfft.scratch_bytes(attributes, [input_shape]),
    )
    for index, (ours, theirs) in enumerate(zip(produced, expected, strict=True)):
        assert_equal(ours[0], theirs, f"C vs reference, speech frame {index}")
    assert math.prod(output_shape(attributes, input_shape)) == 514
