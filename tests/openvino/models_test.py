# SPDX-License-Identifier: Apache-2.0
"""SoftClip's generated OpenVINO extension in whole models: between standard ops, through OpenVINO's IR, with
dynamic dims.

Each model is an ONNX file that `ov.Core().read_model` reads (the extension's ONNX frontend conversion makes
the SoftClip node), compiled for the CPU with float32 inference precision and run; opbridge's reference
interpreter (with the soft_clip plugin) and onnxruntime (with the generated custom-op library) run the same
file.
"""

import os
import pathlib
import re

import numpy as np
import onnx
import openvino as ov
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import helper
from onnx_int8_torch.model import make_model as make_int8_torch_model
from onnx_int8_torch.plugin import KERNEL as INT8_TORCH_KERNEL
from onnx_int8_torch.plugin import customize_registry as customize_int8_torch
from opbridge.frontends.models import load_model
from opbridge.registry import build_default_registry_context
from openvino_test_models import (
    CPU_FLOAT32,
    conv_soft_clip_relu,
    reference,
    run_onnxruntime,
    run_openvino,
    save,
    soft_clip_alone,
    soft_clip_core,
    soft_clip_relu,
)
from soft_clip.plugin import DOMAIN, NAME

CORE = soft_clip_core()  # reused: adding the extension again per test gains nothing
UNIT_ROUNDOFF = 2.0**-24  # float32's
INT8_TORCH_CONTEXT = build_default_registry_context(customizers=[customize_int8_torch])
INT8_TORCH_EXTENSION = os.path.abspath(os.environ["OPBRIDGE_INT8_TORCH_OPENVINO_EXTENSION"])


def conv_magnitude(x: np.ndarray, weights: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """|b| + sum |w| |x| for each Conv output element (float64, "same" padding): the scale of its rounding errors."""
    pad = weights.shape[2] // 2
    padded = np.pad(np.abs(x).astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, weights.shape[2:], axis=(2, 3))  # n, c, h, w, kh, kw
    terms = np.einsum("nchwij,ocij->nohw", windows, np.abs(weights).astype(np.float64))
    return terms + np.abs(bias).astype(np.float64)[None, :, None, None]


@st.composite
def conv_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """An input of a drawn NCHW shape, Conv weights and bias from a drawn seed, and a limit."""
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 4)), draw(st.integers(1, 7)), draw(st.integers(1, 7)))
    kernel = draw(st.sampled_from((1, 3)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    weights = rng.standard_normal((draw(st.integers(1, 4)), shape[1], kernel, kernel)).astype(np.float32)
    bias = rng.standard_normal(weights.shape[0]).astype(np.float32)
    x = draw(hnp.arrays(np.float32, shape, elements=st.floats(-4.0, 4.0, width=32)))
    return x, weights, bias, draw(st.floats(0.125, 64.0, width=32))


@settings(max_examples=20, deadline=None)
@given(case=conv_cases())
def test_conv_soft_clip_relu_runs_end_to_end_in_openvino(
    case: tuple[np.ndarray, np.ndarray, np.ndarray, float], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Conv -> SoftClip -> Relu in OpenVINO and onnxruntime against opbridge's reference.

    Exact: each runtime's SoftClip + Relu output equals (bit for bit, as float32 values) the reference's
    SoftClip + Relu applied to that runtime's own Conv output (the model outputs it too): SoftClip is the C
    kernel in every host, Relu is exact.

    Within a tolerance: the whole model (and the Conv output) against the reference. A Conv output element
    is a float32 sum of n = C*kh*kw products and the bias; each runtime sums in its own order (blocked,
    vectorised, with FMA or not), and any order's error is at most about (n + 1) * u * M, where u = 2^-24
    and M = |b| + sum |w| |x| (computed here in float64). Two runtimes then differ by at most 2 (n + 1) u M;
    SoftClip (slope 1 / (1 + |x| / limit)^2 <= 1) and Relu do not enlarge a difference, and SoftClip's own
    float32 roundings add a few u |y| <= u M on each side. The tolerance is (2 n + 16) u M per element.
    """
    x, weights, bias, limit = case
    folder = tmp_path_factory.mktemp("model")
    model = conv_soft_clip_relu(x.shape, weights, bias, limit)
    path = save(model, folder)
    expected_y, expected_c = reference(model, [x])
    n = weights.shape[1] * weights.shape[2] * weights.shape[3]
    tolerance = (2 * n + 16) * UNIT_ROUNDOFF * conv_magnitude(x, weights, bias)
    for runtime, (y, c) in (
        ("OpenVINO", run_openvino(CORE, path, [x])),
        ("onnxruntime", run_onnxruntime(path, [x])),
    ):
        assert y.dtype == np.float32 and y.shape == expected_y.shape, runtime
        # The custom op's part, exact: the reference's SoftClip + Relu of this runtime's Conv output.
        (tail,) = reference(soft_clip_relu(c.shape, limit), [c])
        np.testing.assert_array_equal(y, tail, err_msg=f"{runtime}'s SoftClip + Relu")
        # The whole model, within the Conv's float32 summation tolerance.
        for name, actual, expected in (("c", c, expected_c), ("y", y, expected_y)):
            excess = np.abs(actual.astype(np.float64) - expected) - tolerance
            assert np.all(excess <= 0), f"{runtime}'s {name} is off by more than the tolerance: {excess.max()}"


@settings(max_examples=8, deadline=None)
@given(limit=st.floats(2.0**-20, 2.0**20, width=32), seed=st.integers(0, 2**32 - 1))
def test_the_openvino_ir_keeps_the_op_and_its_attribute(
    limit: float, seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """ov.save_model writes SoftClip as a layer of type SoftClip, version <domain>:1, with its limit; a new
    Core with the extension reads it back (visit_attributes restores the limit to the float32 bit) and gives
    the same outputs. Saved with compress_to_fp16=False: the default would round the Conv's weights to float16."""
    folder = tmp_path_factory.mktemp("ir")
    rng = np.random.default_rng(seed)
    weights = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(3).astype(np.float32)
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32) * 8
    model = CORE.read_model(save(conv_soft_clip_relu(x.shape, weights, bias, limit), folder))
    xml = folder / "model.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    assert re.search(rf'type="{NAME}" version="{re.escape(DOMAIN)}:1"', xml.read_text())

    read_back = soft_clip_core().read_model(xml)
    (op,) = [op for op in read_back.get_ops() if op.get_type_name() == NAME]
    assert (op.get_type_info().name, op.get_type_info().version_id) == (NAME, f"{DOMAIN}:1")
    assert np.float32(op.get_attributes()["limit"]) == np.float32(limit)
    for original, again in zip(run_openvino(CORE, model, [x]), run_openvino(CORE, read_back, [x]), strict=True):
        np.testing.assert_array_equal(again, original)
    # The IR's op needs the extension: a Core without it names the opset it lacks.
    try:
        ov.Core().read_model(xml)
    except RuntimeError as error:
        assert f"unsupported opset: {DOMAIN}:1" in str(error)
    else:
        raise AssertionError("OpenVINO read a SoftClip layer without the extension")


def test_a_dynamic_batch_runs_for_each_size_and_the_python_shape_rule_gives_the_rank(tmp_path: pathlib.Path) -> None:
    """x: [N, 3, 5]. SoftClip's schema rule is Python code, so the extension infers through the kernel's C
    shape function, which with a dynamic dim gives the rank only: y is [?, ?, ?] until the input is known.
    One compiled model then runs for several N, each output of x's shape and equal to the reference's."""
    limit = 1.5
    model = CORE.read_model(save(soft_clip_alone(["N", 3, 5], limit), tmp_path))
    assert model.input(0).get_partial_shape() == ov.PartialShape([-1, 3, 5])
    assert model.output(0).get_partial_shape() == ov.PartialShape.dynamic(3)
    compiled = CORE.compile_model(model, "CPU", CPU_FLOAT32)
    rng = np.random.default_rng(7)
    for batch in (1, 2, 7):
        x = (rng.standard_normal((batch, 3, 5)) * 4).astype(np.float32)
        y = np.asarray(compiled([x])[compiled.output(0)])
        (expected,) = reference(soft_clip_alone([batch, 3, 5], limit), [x])
        assert y.shape == (batch, 3, 5)
        np.testing.assert_array_equal(y, expected)


def test_a_same_as_input_op_keeps_the_dynamic_dims(tmp_path: pathlib.Path) -> None:
    """The scaffolded int8 PyTorch op's schema says same_as_input(0), which the extension writes in C++:
    x [N, 3, 5] gives y [?, 3, 5] at read time. It runs for several N, equal to the reference. Its params
    are computed by the plugin (param_values_of), so the node carries them as attributes."""
    static = onnx.load_model_from_string(make_int8_torch_model((1, 3, 5), alpha=0.375))
    graph = load_model(save(static, tmp_path, "static.onnx"), INT8_TORCH_CONTEXT)
    params = INT8_TORCH_KERNEL.param_values(graph, graph.nodes[0])

    dynamic = onnx.load_model_from_string(make_int8_torch_model(("N", 3, 5), alpha=0.375))  # type: ignore[arg-type]
    (node,) = dynamic.graph.node
    kept = [a for a in node.attribute if a.name not in params]
    del node.attribute[:]
    node.attribute.extend([*kept, *(helper.make_attribute(k, v) for k, v in params.items())])
    dynamic.graph.output[0].type.tensor_type.ClearField("shape")  # y's shape left to OpenVINO's inference

    core = ov.Core()
    core.add_extension(INT8_TORCH_EXTENSION)
    model = core.read_model(save(dynamic, tmp_path))
    assert model.output(0).get_partial_shape() == ov.PartialShape([-1, 3, 5])
    assert model.output(0).get_element_type() == ov.Type.i8
    compiled = core.compile_model(model, "CPU", CPU_FLOAT32)
    rng = np.random.default_rng(11)
    for batch in (1, 4):
        x = rng.integers(-128, 128, (batch, 3, 5), dtype=np.int8)
        y = np.asarray(compiled([x])[compiled.output(0)])
        written = onnx.load_model_from_string(make_int8_torch_model((batch, 3, 5), alpha=0.375))
        (expected,) = reference(written, [x], INT8_TORCH_CONTEXT)  # the reference computes the params itself
        assert y.dtype == np.int8 and y.shape == (batch, 3, 5)
        np.testing.assert_array_equal(y, expected)
