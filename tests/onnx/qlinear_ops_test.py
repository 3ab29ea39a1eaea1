# SPDX-License-Identifier: Apache-2.0
"""Quantized ONNX ops one at a time, on drawn parameters: opbridge's reference equals
onnxruntime bit for bit.

QuantizeLinear (halves to even, saturation), QLinearConv (per-tensor and
per-channel weights, depthwise, padding, strides, bias), QLinearMatMul and the
QDQ Gemm that onnxruntime fuses into its QGemm; and onnxruntime's QOperator ops
(com.microsoft QLinearAdd, QLinearSigmoid, ...) in models quantize_static writes,
bit-exact or within the steps docs/onnx.md states, also as the QDQ groups onnxruntime
fuses into them, and their emitted C against the reference. Every model is converted by
opbridge's frontend (frontends/onnx/quantized.py) and run by the reference
interpreter; the C kernels are checked against the reference in the ops'
op tests and, for whole models, by the aot_model golden tests.
"""

import pathlib

import numpy as np
import onnx
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import TensorProto, helper, numpy_helper
from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType
from opbridge.ir.attribute_types import Requantization
from opbridge.ops.builtin import build_builtin_registry
from opbridge.registry import default_registry_context
from opbridge_testing.single_op import run_golden_program, with_float_ulp_tolerance

CONTEXT = default_registry_context()
OPSET = 17


def run_both(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(opbridge's reference, onnxruntime) outputs of a one-output model."""
    onnx.checker.check_model(model, full_check=True)
    graph = read_onnx_model(model.SerializeToString(), CONTEXT)
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run(list(inputs.values()))
    options = onnxruntime.SessionOptions()
    # QDQ groups stay on int8 (see qdq_models_test.session: onnxruntime's uint8 kernels saturate on AVX2).
    options.add_session_config_entry("session.qdqisint8allowed", "1")
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, inputs)
    return ours, theirs


def make_model(nodes: list, inputs: list, output: onnx.ValueInfoProto, initializers: list) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "single_op", inputs, [output], initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])


def scales(draw: st.DrawFn, count: int, low: float = 1e-3, high: float = 0.5) -> np.ndarray:
    bounds = {"min_value": float(np.float32(low)), "max_value": float(np.float32(high)), "width": 32}
    return np.array([draw(st.floats(**bounds)) for _ in range(count)], np.float32)


def int8_values(draw: st.DrawFn, shape: tuple[int, ...]) -> np.ndarray:
    seed = draw(st.integers(0, 2**32 - 1))
    return np.random.default_rng(seed).integers(-128, 128, size=shape).astype(np.int8)


def constant(name: str, array: np.ndarray) -> onnx.TensorProto:
    return numpy_helper.from_array(array, name)


# QuantizeLinear -----------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_quantize_linear_rounds_halves_to_even_and_saturates(data: st.DataObject) -> None:
    # A power-of-two scale makes (k + 0.5) * scale exact: every such input is a tie.
    exponent = data.draw(st.integers(-8, 2))
    scale = np.float32(2.0**exponent) if data.draw(st.booleans()) else scales(data.draw, 1)[0]
    zero_point = np.int8(data.draw(st.integers(-128, 127)))
    halves = (np.arange(-140, 140) + np.float32(0.5)) * scale
    drawn = data.draw(st.lists(st.floats(-1e4, 1e4, width=32), min_size=1, max_size=40))
    edges = [0.0, -0.0, np.inf, -np.inf, 3.0e38, -3.0e38]
    x = np.concatenate([halves, np.array(drawn + edges, np.float32)]).astype(np.float32).reshape(1, -1)
    model = make_model(
        [helper.make_node("QuantizeLinear", ["x", "scale", "zero_point"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        helper.make_tensor_value_info("y", TensorProto.INT8, list(x.shape)),
        [constant("scale", np.array(scale, np.float32)), constant("zero_point", np.array(zero_point, np.int8))],
    )
    ours, theirs = run_both(model, {"x": x})
    np.testing.assert_array_equal(ours, theirs)


# QLinearConv --------------------------------------------------------------------


@st.composite
def qlinear_conv_models(draw: st.DrawFn) -> tuple[onnx.ModelProto, np.ndarray]:
    in_channels = draw(st.integers(1, 4))
    depthwise = draw(st.booleans())
    out_channels = in_channels * draw(st.integers(1, 2)) if depthwise else draw(st.integers(1, 5))
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    height, width = draw(st.integers(kernel[0], 8)), draw(st.integers(kernel[1], 8))
    strides = [draw(st.integers(1, 2)), draw(st.integers(1, 2))]
    pads = [draw(st.integers(0, k - 1)) for k in kernel] * 2 if draw(st.booleans()) else [0, 0, 0, 0]
    per_channel = draw(st.booleans())
    x_scale, y_scale = scales(draw, 1, 0.005, 0.1)[0], scales(draw, 1, 0.01, 1.0)[0]
    w_scales = scales(draw, out_channels if per_channel else 1, 0.001, 0.05)
    x_zero, y_zero = np.int8(draw(st.integers(-128, 127))), np.int8(draw(st.integers(-128, 127)))
    group = in_channels if depthwise else 1
    weights = int8_values(draw, (out_channels, in_channels // group, *kernel))
    weights[weights == -128] = -127  # symmetric int8 weights, as quantizers write them
    bias = np.random.default_rng(draw(st.integers(0, 2**32 - 1))).integers(-3000, 3000, out_channels).astype(np.int32)
    with_bias = draw(st.booleans())
    out_h = (height + pads[0] + pads[2] - kernel[0]) // strides[0] + 1
    out_w = (width + pads[1] + pads[3] - kernel[1]) // strides[1] + 1
    names = ["x", "x_scale", "x_zero", "w", "w_scale", "w_zero", "y_scale", "y_zero"] + (["b"] if with_bias else [])
    initializers = [
        constant("x_scale", np.array(x_scale)),
        constant("x_zero", np.array(x_zero)),
        constant("w", weights),
        constant("w_scale", w_scales if per_channel else np.array(w_scales[0])),
        constant("w_zero", np.zeros(out_channels, np.int8) if per_channel else np.array(0, np.int8)),
        constant("y_scale", np.array(y_scale)),
        constant("y_zero", np.array(y_zero)),
        constant("b", bias),
    ]
    node = helper.make_node("QLinearConv", names, ["y"], group=group, strides=strides, pads=pads)
    model = make_model(
        [node],
        [helper.make_tensor_value_info("x", TensorProto.INT8, [1, in_channels, height, width])],
        helper.make_tensor_value_info("y", TensorProto.INT8, [1, out_channels, out_h, out_w]),
        initializers,
    )
    return model, int8_values(draw, (1, in_channels, height, width))


@settings(max_examples=60, deadline=None)
@given(qlinear_conv_models())
def test_qlinear_conv_matches_onnxruntime(case: tuple[onnx.ModelProto, np.ndarray]) -> None:
    model, x = case
    ours, theirs = run_both(model, {"x": x})
    np.testing.assert_array_equal(ours, theirs)


# QLinearMatMul and the QDQ Gemm (onnxruntime's QGemm) ---------------------------


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_qlinear_matmul_matches_onnxruntime(data: st.DataObject) -> None:
    rows, depth, units = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 40)), data.draw(st.integers(1, 12))
    per_column = data.draw(st.booleans())
    b_scales = scales(data.draw, units if per_column else 1, 0.001, 0.05)
    b = int8_values(data.draw, (depth, units))
    b_zero = 0 if per_column else data.draw(st.integers(-10, 10))
    initializers = [
        constant("a_scale", scales(data.draw, 1, 0.005, 0.1).reshape(())),
        constant("a_zero", np.array(data.draw(st.integers(-128, 127)), np.int8)),
        constant("b", b),
        constant("b_scale", b_scales if per_column else b_scales.reshape(())),
        constant("b_zero", np.zeros(units, np.int8) if per_column else np.array(b_zero, np.int8)),
        constant("y_scale", scales(data.draw, 1, 0.01, 1.0).reshape(())),
        constant("y_zero", np.array(data.draw(st.integers(-128, 127)), np.int8)),
    ]
    node = helper.make_node(
        "QLinearMatMul", ["a", "a_scale", "a_zero", "b", "b_scale", "b_zero", "y_scale", "y_zero"], ["y"]
    )
    model = make_model(
        [node],
        [helper.make_tensor_value_info("a", TensorProto.INT8, [rows, depth])],
        helper.make_tensor_value_info("y", TensorProto.INT8, [rows, units]),
        initializers,
    )
    ours, theirs = run_both(model, {"a": int8_values(data.draw, (rows, depth))})
    np.testing.assert_array_equal(ours, theirs)


def test_requantization_scale_is_computed_in_float32_like_onnxruntime() -> None:
    # For these scales float32(float32(x * w) / y) is one ulp away from the correctly rounded
    # x * w / y (in double), and the two round accumulator 1460 differently. Every product of
    # two int8 values (a: all 256 values, b: -127..127) pins the scale onnxruntime uses.
    x_scale, w_scale, y_scale = 0.012796646915376186, 0.02976517379283905, 0.01407863013446331
    in_float32 = np.float32(np.float32(x_scale) * np.float32(w_scale)) / np.float32(y_scale)
    in_double = np.float32(float(np.float32(x_scale)) * float(np.float32(w_scale)) / float(np.float32(y_scale)))
    assert in_float32 != in_double and np.rint(1460 * in_float32) != np.rint(1460 * in_double)
    initializers = [
        constant("a_scale", np.array(x_scale, np.float32)),
        constant("zero", np.array(0, np.int8)),
        constant("b", np.arange(-127, 128, dtype=np.int8).reshape(1, -1)),
        constant("b_scale", np.array(w_scale, np.float32)),
        constant("y_scale", np.array(y_scale, np.float32)),
    ]
    node = helper.make_node("QLinearMatMul", ["a", "a_scale", "zero", "b", "b_scale", "zero", "y_scale", "zero"], ["y"])
    model = make_model(
        [node],
        [helper.make_tensor_value_info("a", TensorProto.INT8, [256, 1])],
        helper.make_tensor_value_info("y", TensorProto.INT8, [256, 255]),
        initializers,
    )
    ours, theirs = run_both(model, {"a": np.arange(-128, 128, dtype=np.int8).reshape(-1, 1)})
    np.testing.assert_array_equal(ours, theirs)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_qdq_gemm_matches_onnxruntime_qgemm(data: st.DataObject) -> None:
    # x int8 -> DequantizeLinear -> Gemm(DQ(weights), DQ(bias)) [-> Relu] -> QuantizeLinear ->
    # DequantizeLinear: onnxruntime runs QGemm, opbridge an int8 FULLY_CONNECTED.
    depth, units = data.draw(st.integers(1, 40)), data.draw(st.integers(1, 12))
    trans_b, relu = data.draw(st.booleans()), data.draw(st.booleans())
    x_scale = scales(data.draw, 1, 0.005, 0.1)[0]
    w_scales = scales(data.draw, units, 0.001, 0.05)
    y_scale = scales(data.draw, 1, 0.01, 1.0)[0]
    y_zero = -128 if relu else data.draw(st.integers(-128, 127))
    weights = int8_values(data.draw, (units, depth) if trans_b else (depth, units))
    weights[weights == -128] = -127
    bias = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).integers(-3000, 3000, units).astype(np.int32)
    initializers = [
        constant("x_scale", np.array(x_scale)),
        constant("x_zero", np.array(data.draw(st.integers(-128, 127)), np.int8)),
        constant("w", weights),
        constant("w_scale", w_scales),
        constant("w_zero", np.zeros(units, np.int8)),
        constant("b", bias),
        constant("b_scale", (np.float32(x_scale) * w_scales).astype(np.float32)),
        constant("b_zero", np.zeros(units, np.int32)),
        constant("y_scale", np.array(y_scale)),
        constant("y_zero", np.array(y_zero, np.int8)),
    ]
    nodes = [
        helper.make_node("DequantizeLinear", ["x", "x_scale", "x_zero"], ["x_dq"]),
        helper.make_node("DequantizeLinear", ["w", "w_scale", "w_zero"], ["w_dq"], axis=0 if trans_b else 1),
        helper.make_node("DequantizeLinear", ["b", "b_scale", "b_zero"], ["b_dq"], axis=0),
        helper.make_node("Gemm", ["x_dq", "w_dq", "b_dq"], ["gemm"], transB=int(trans_b)),
    ]
    if relu:
        nodes.append(helper.make_node("Relu", ["gemm"], ["relu"]))
    nodes += [
        helper.make_node("QuantizeLinear", ["relu" if relu else "gemm", "y_scale", "y_zero"], ["y_q"]),
        helper.make_node("DequantizeLinear", ["y_q", "y_scale", "y_zero"], ["y"]),
    ]
    model = make_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.INT8, [1, depth])],
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, units]),
        initializers,
    )
    graph = read_onnx_model(model.SerializeToString(), CONTEXT)
    assert [node.op_type for node in graph.nodes] == ["FULLY_CONNECTED", "DEQUANTIZE"]
    ours, theirs = run_both(model, {"x": int8_values(data.draw, (1, depth))})
    np.testing.assert_array_equal(ours, theirs)


# Refusals -----------------------------------------------------------------------


def quantize_model(zero_point: np.ndarray | None, scale: np.ndarray) -> onnx.ModelProto:
    inputs = ["x", "scale"] + (["zero_point"] if zero_point is not None else [])
    initializers = [constant("scale", scale)] + ([constant("zero_point", zero_point)] if zero_point is not None else [])
    y_type = TensorProto.INT8 if zero_point is not None and zero_point.dtype == np.int8 else TensorProto.UINT8
    return make_model(
        [helper.make_node("QuantizeLinear", inputs, ["y"], axis=1)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        helper.make_tensor_value_info("y", y_type, [1, 2]),
        initializers,
    )


def test_uint8_quantization_is_refused_with_a_hint() -> None:
    for model in (
        quantize_model(np.array(3, np.uint8), np.array(0.1, np.float32)),
        quantize_model(None, np.array(0.1, np.float32)),
    ):
        with pytest.raises(UnsupportedOperatorError, match=r"QuantizeLinear.*uint8|zero point is uint8") as error:
            read_onnx_model(model.SerializeToString(), CONTEXT)
        assert "activation_type=QInt8" in str(error.value.hint)


def test_per_axis_activation_quantization_is_refused() -> None:
    model = quantize_model(np.zeros(2, np.int8), np.array([0.1, 0.2], np.float32))
    with pytest.raises(UnsupportedOperatorError, match=r"per axis \(2 scales\)"):
        read_onnx_model(model.SerializeToString(), CONTEXT)


def test_asymmetric_conv_weights_are_refused() -> None:
    initializers = [
        constant("s", np.array(0.1, np.float32)),
        constant("z", np.array(0, np.int8)),
        constant("w", np.ones((1, 1, 1, 1), np.int8)),
        constant("wz", np.array(5, np.int8)),
    ]
    node = helper.make_node("QLinearConv", ["x", "s", "z", "w", "s", "wz", "s", "z"], ["y"], name="conv")
    model = make_model(
        [node],
        [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 1, 2, 2])],
        helper.make_tensor_value_info("y", TensorProto.INT8, [1, 1, 2, 2]),
        initializers,
    )
    with pytest.raises(UnsupportedOperatorError, match=r'QLinearConv "conv"\): weight zero points \[5\]') as error:
        read_onnx_model(model.SerializeToString(), CONTEXT)
    assert "symmetrically" in str(error.value.hint)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_float_ops_between_qdq_pairs_compute_what_onnx_defines(data: st.DataObject) -> None:
    # Add is not fused: opbridge runs DEQUANTIZE, the float32 op and QUANTIZE, which is the QDQ
    # model's definition; onnxruntime without graph optimizations runs the same, and float32
    # addition rounds the same everywhere. Concat is fused into QLinearConcat, as onnxruntime
    # fuses it: int8, each input requantized through a table of that same float32 arithmetic.
    params = {name: (scales(data.draw, 1, 0.005, 0.2)[0], np.int8(data.draw(st.integers(-128, 127)))) for name in "abc"}
    initializers = [c for n, (s, z) in params.items() for c in (constant(f"s{n}", s), constant(f"z{n}", z))]

    def qdq(value: str, params_of: str, output: str) -> list:
        return [
            helper.make_node("QuantizeLinear", [value, f"s{params_of}", f"z{params_of}"], [f"{output}_q"]),
            helper.make_node("DequantizeLinear", [f"{output}_q", f"s{params_of}", f"z{params_of}"], [output]),
        ]

    nodes = [
        *qdq("a", "a", "a_dq"),
        *qdq("b", "b", "b_dq"),
        helper.make_node("Add", ["a_dq", "b_dq"], ["sum"]),
        *qdq("sum", "c", "sum_dq"),
        helper.make_node("Concat", ["sum_dq", "a_dq"], ["joined"], axis=1),
        *qdq("joined", "c", "y"),
    ]
    model = make_model(
        nodes,
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 32]) for n in "ab"],
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64]),
        initializers,
    )
    graph = read_onnx_model(model.SerializeToString(), CONTEXT)
    float_adds = [n for n in graph.nodes if n.op_type == "ADD" and graph.tensor(n.outputs[0]).dtype is DType.FLOAT32]
    assert len(float_adds) == 1, [node.op_type for node in graph.nodes]
    (concatenation,) = [node for node in graph.nodes if node.op_type == "CONCATENATION"]
    assert graph.tensor(concatenation.outputs[0]).dtype is DType.INT8
    inputs = {n: data.draw(hnp.arrays(np.float32, (1, 32), elements=st.floats(-20, 20, width=32))) for n in "ab"}
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run(list(inputs.values()))
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    np.testing.assert_array_equal(ours, session.run(None, inputs)[0])


# QOperator models (quantize_static with QuantFormat.QOperator): onnxruntime's com.microsoft ops -----


class DrawnCalibration:
    """quantize_static's calibration reader over a few seeded batches of one input."""

    def __init__(self, name: str, batches: list[np.ndarray]) -> None:
        self.batches = iter([{name: batch} for batch in batches])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.batches, None)


def float_op_model(op: str, shape: list[int]) -> onnx.ModelProto:
    """x -> Conv (1x1, so every QLinear op reads a quantized activation) -> the op [-> a second input] -> y."""
    channels = shape[1]
    rng = np.random.default_rng(1)
    weights = rng.uniform(-1, 1, (channels, channels, 1, 1)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"])]
    out_shape = list(shape)
    if op == "Add":
        nodes += [helper.make_node("Relu", ["c"], ["r"]), helper.make_node("Add", ["c", "r"], ["y"])]
    elif op == "Concat":
        nodes += [helper.make_node("Sigmoid", ["c"], ["s"]), helper.make_node("Concat", ["c", "s"], ["y"], axis=1)]
        out_shape[1] *= 2
    elif op == "LeakyRelu":
        nodes.append(helper.make_node("LeakyRelu", ["c"], ["y"], alpha=0.2))
    elif op == "AveragePool":
        nodes.append(helper.make_node("AveragePool", ["c"], ["y"], kernel_shape=[2, 2], strides=[2, 2]))
        out_shape[2:] = [shape[2] // 2, shape[3] // 2]
    elif op == "GlobalAveragePool":
        nodes.append(helper.make_node("GlobalAveragePool", ["c"], ["y"]))
        out_shape[2:] = [1, 1]
    elif op == "Softmax":
        nodes.append(helper.make_node("Softmax", ["c"], ["y"], axis=-1))
    else:
        nodes.append(helper.make_node(op, ["c"], ["y"]))
    graph = helper.make_graph(
        nodes,
        "qoperator",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
        [constant("w", weights)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])


def quantize_qoperator(
    model: onnx.ModelProto, batches: list[np.ndarray], directory: str, qdq: bool = False
) -> onnx.ModelProto:
    """The model as quantize_static writes it, int8, in QOperator format (or QDQ)."""
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static

    source, target = f"{directory}/float.onnx", f"{directory}/int8.onnx"
    onnx.save(model, source)
    quantize_static(
        source,
        target,
        DrawnCalibration("x", batches),
        quant_format=QuantFormat.QDQ if qdq else QuantFormat.QOperator,
        activation_type=QuantType.QInt8,
        weight_type=QuantType.QInt8,
    )
    return onnx.load(target)


# The largest difference from onnxruntime, in int8 steps, per QOperator op (docs/onnx.md, "QOperator models"):
# 0 where opbridge computes onnxruntime's own table in its arithmetic.
QOPERATOR_STEPS = {
    "Sigmoid": 0,
    "LeakyRelu": 0,
    "Concat": 0,
    "Add": 1,
    "AveragePool": 1,
    "GlobalAveragePool": 0,
    "Softmax": 1,
}


@pytest.mark.parametrize("op", sorted(QOPERATOR_STEPS))
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_qoperator_ops_match_onnxruntime(op: str, data: st.DataObject, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    shape = [1, data.draw(st.integers(1, 4)), 4, data.draw(st.sampled_from([4, 6]))]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    spread = data.draw(st.sampled_from([0.5, 2.0, 8.0]))
    batches = [rng.normal(0, spread, shape).astype(np.float32) for _ in range(3)]
    model = quantize_qoperator(float_op_model(op, shape), batches, str(tmp_path_factory.mktemp("qop")))
    microsoft = {node.op_type for node in model.graph.node if node.domain == "com.microsoft"}
    assert f"QLinear{op}" in microsoft, [n.op_type for n in model.graph.node]
    graph = read_onnx_model(model.SerializeToString(), CONTEXT)
    assert all(graph.tensor(i).dtype is not DType.FLOAT32 for n in graph.nodes[1:-1] for i in n.outputs) or op in (
        "AveragePool",
        "Softmax",
    ), [n.op_type for n in graph.nodes]
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    last = next(node for node in model.graph.node if node.output[0] == "y")
    scale = float(numpy_helper.to_array(next(i for i in model.graph.initializer if i.name == last.input[1])))
    # Beyond the calibration range too: saturation.
    for x in [*batches, rng.normal(0, 3 * spread, shape).astype(np.float32)]:
        (ours,) = interpreter.run([x])
        (theirs,) = session.run(None, {"x": x})
        steps = np.abs(ours.astype(np.float64) - theirs) / scale
        assert steps.max() <= QOPERATOR_STEPS[op] + 1e-3, (op, steps.max())


@pytest.mark.parametrize("op", ["Sigmoid", "LeakyRelu", "Concat", "GlobalAveragePool"])
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_qdq_groups_onnxruntime_fuses_convert_as_its_qlinear_ops(
    op: str, data: st.DataObject, tmp_path_factory
) -> None:  # type: ignore[no-untyped-def]
    # quantize_static's QDQ form of the op: DequantizeLinear -> op -> QuantizeLinear, which onnxruntime's
    # graph optimizer turns into its QLinear op. opbridge fuses it the same (qdq_fusion.QLINEAR_GROUPS):
    # int8 from input to output, bit for bit with onnxruntime (Sigmoid, LeakyRelu and Concat also unfused).
    shape = [1, data.draw(st.integers(1, 4)), data.draw(st.integers(2, 6)), data.draw(st.sampled_from([4, 6, 7]))]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    spread = data.draw(st.sampled_from([0.5, 2.0, 8.0]))
    batches = [rng.normal(0, spread, shape).astype(np.float32) for _ in range(3)]
    model = quantize_qoperator(float_op_model(op, shape), batches, str(tmp_path_factory.mktemp("qdq")), qdq=True)
    assert op in [node.op_type for node in model.graph.node]
    graph = read_onnx_model(model.SerializeToString(), CONTEXT)
    inner = [graph.tensor(i).dtype for node in graph.nodes[1:-1] for i in node.outputs]
    assert DType.FLOAT32 not in inner, [node.op_type for node in graph.nodes]
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    sessions = []
    for int8_allowed in ("1", "0"):
        options = onnxruntime.SessionOptions()
        options.add_session_config_entry("session.qdqisint8allowed", int8_allowed)
        sessions.append(
            onnxruntime.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
        )
    for x in [*batches, rng.normal(0, 3 * spread, shape).astype(np.float32)]:
        (ours,) = interpreter.run([x])
        np.testing.assert_array_equal(ours, sessions[0].run(None, {"x": x})[0])
        if op != "GlobalAveragePool":
            np.testing.assert_array_equal(ours, sessions[1].run(None, {"x": x})[0])


def test_a_registry_without_the_qlinear_converters_keeps_the_qdq_group(tmp_path: pathlib.Path) -> None:
    # A context of the built-ins alone (no composite converters, so no com.microsoft QLinear ops) reads the
    # same QDQ Sigmoid as DequantizeLinear -> Sigmoid -> QuantizeLinear, as before the fusion existed.
    shape = [1, 2, 3, 4]
    rng = np.random.default_rng(7)
    batches = [rng.normal(0, 2.0, shape).astype(np.float32) for _ in range(3)]
    model = quantize_qoperator(float_op_model("Sigmoid", shape), batches, str(tmp_path), qdq=True)
    builtins_only = as_registry_context(build_builtin_registry())
    unfused = read_onnx_model(model.SerializeToString(), builtins_only)
    op_types = [node.op_type for node in unfused.nodes]
    assert "LOGISTIC" in op_types and "DEQUANTIZE" in op_types, op_types
    fused = read_onnx_model(model.SerializeToString(), CONTEXT)
    assert "LOGISTIC" not in [node.op_type for node in fused.nodes]


def c_equals_reference(model: onnx.ModelProto, directory: pathlib.Path, cases: int = 20) -> str:
    """Converts `model` to a C module with its golden test (seeded inputs, the reference's outputs, float32
    outputs compared bit for bit), compiles it with the host gcc and runs it; the program's summary."""
    path = directory / "model.onnx"
    path.write_bytes(model.SerializeToString())
    golden = directory / "golden.c"
    config = ConvertArgs(
        model=path, output_dir=directory / "module", prefix="m", golden_test=golden, golden_cases=cases
    )
    AotConverter(config, registry_context=CONTEXT).convert()
    if "FLOAT_ULP_TOLERANCE" in golden.read_text():
        golden.write_text(with_float_ulp_tolerance(golden.read_text(), 0))
    summary = run_golden_program(directory / "module", golden)
    assert f"{cases} cases" in summary and "0 failures" in summary, summary
    return summary


@pytest.mark.parametrize("op", sorted(QOPERATOR_STEPS))
@settings(max_examples=2, deadline=None)
@given(data=st.data())
def test_qoperator_ops_compile_to_c_equal_to_the_reference(op: str, data: st.DataObject, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    # The whole module (QuantizeLinear, QLinearConv, the op, DequantizeLinear) as the converter emits it:
    # the tables' GATHER with its int32 positions, the float32 islands, MEAN's float32 output stage.
    shape = [1, data.draw(st.integers(1, 5)), data.draw(st.integers(2, 6)), data.draw(st.sampled_from([4, 6, 7]))]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    spread = data.draw(st.sampled_from([0.5, 2.0, 8.0]))
    batches = [rng.normal(0, spread, shape).astype(np.float32) for _ in range(3)]
    model = quantize_qoperator(float_op_model(op, shape), batches, str(tmp_path_factory.mktemp("qop")))
    c_equals_reference(model, tmp_path_factory.mktemp("c"))


@st.composite
def qlinear_global_average_pools(draw: st.DrawFn) -> tuple[onnx.ModelProto, np.ndarray]:
    """A lone com.microsoft QLinearGlobalAveragePool: rank 3 to 5, channels first or last, drawn
    parameters (scale ratios onnxruntime accepts), int8 inputs over the whole range or near the zero point."""
    rank = draw(st.integers(3, 5))
    channels_last = draw(st.booleans())
    spatial = [draw(st.integers(1, {3: 40, 4: 9, 5: 4}[rank])) for _ in range(rank - 2)]
    channels, batch = draw(st.integers(1, 19)), draw(st.integers(1, 2))
    shape = [batch, *spatial, channels] if channels_last else [batch, channels, *spatial]
    x_scale = scales(draw, 1, 0.002, 0.2)[0]
    y_scale = np.float32(x_scale * draw(st.floats(0.01, 4.0)))
    x_zero, y_zero = np.int8(draw(st.integers(-128, 127))), np.int8(draw(st.integers(-128, 127)))
    node = helper.make_node(
        "QLinearGlobalAveragePool",
        ["x", "x_scale", "x_zero", "y_scale", "y_zero"],
        ["y"],
        domain="com.microsoft",
        channels_last=int(channels_last),
    )
    graph = helper.make_graph(
        [node],
        "qlinear_global_average_pool",
        [helper.make_tensor_value_info("x", TensorProto.INT8, shape)],
        [helper.make_tensor_value_info("y", TensorProto.INT8, None)],
        [
            constant("x_scale", np.array(x_scale, np.float32)),
            constant("x_zero", np.array(x_zero)),
            constant("y_scale", np.array(y_scale, np.float32)),
            constant("y_zero", np.array(y_zero)),
        ],
    )
    opsets = [helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)]
    x = int8_values(draw, tuple(shape))
    if draw(st.booleans()):  # near the zero point: sums of either sign, halves of the rescaled mean
        noise = np.random.default_rng(draw(st.integers(0, 2**32 - 1))).integers(-6, 7, size=shape)
        x = np.clip(int(x_zero) + noise, -128, 127).astype(np.int8)
    return helper.make_model(graph, opset_imports=opsets), x


@settings(max_examples=80, deadline=None)
@given(qlinear_global_average_pools())
def test_qlinear_global_average_pool_matches_onnxruntime_bit_for_bit(case: tuple[onnx.ModelProto, np.ndarray]) -> None:
    # onnxruntime: the int32 sum less the zero point's, times float32 x_scale / (y_scale * count), saturated,
    # halves to even (MLAS's requantization). opbridge: MEAN with Requantization.ONNX, the same arithmetic.
    model, x = case
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": x})
    graph = read_onnx_model(model.SerializeToString(), CONTEXT)
    (mean,) = [node for node in graph.nodes if node.op_type == "MEAN"]
    assert mean.attributes.requantization is Requantization.ONNX
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    np.testing.assert_array_equal(ours, theirs)
    # TFLite's fixed-point rescaling on request: within one step.
    tflite = read_onnx_model(model.SerializeToString(), CONTEXT, int8_arithmetic="tflite")
    (mean,) = [node for node in tflite.nodes if node.op_type == "MEAN"]
    assert mean.attributes.requantization is Requantization.TFLITE
    (fixed_point,) = ReferenceInterpreter(tflite, CONTEXT).run([x])
    assert np.abs(fixed_point.astype(np.int32) - theirs).max() <= 1


@settings(max_examples=6, deadline=None)
@given(case=qlinear_global_average_pools())
def test_qlinear_global_average_pool_compiles_to_c_equal_to_the_reference(
    case: tuple[onnx.ModelProto, np.ndarray], tmp_path_factory
) -> None:  # type: ignore[no-untyped-def]
    c_equals_reference(case[0], tmp_path_factory.mktemp("c"))


def test_every_unsupported_node_is_listed_at_once() -> None:
    # Two com.microsoft ops without a converter, a node of a domain nothing registers and a standard op
    # without a converter: one error names all five nodes, grouped by operator, with the reasons.
    from opbridge.schemas.opsets import UnknownSchemaError

    nodes = [
        helper.make_node("QLinearWhere", ["x"], ["a"], name="where_1", domain="com.microsoft"),
        helper.make_node("QLinearWhere", ["a"], ["b"], name="where_2", domain="com.microsoft"),
        helper.make_node("QLinearLayerNorm", ["b"], ["c"], name="norm", domain="com.microsoft"),
        helper.make_node("Scale", ["c"], ["d"], name="scale", domain="com.example"),
        helper.make_node("Hardmax", ["d"], ["y"], name="hardmax"),
    ]
    graph = helper.make_graph(
        nodes,
        "unsupported",
        [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 4])],
    )
    opsets = [
        helper.make_opsetid("", OPSET),
        helper.make_opsetid("com.microsoft", 1),
        helper.make_opsetid("com.example", 1),
    ]
    model = helper.make_model(graph, opset_imports=opsets)
    with pytest.raises(UnknownSchemaError, match=r"5 node\(s\) use 4 operator\(s\)") as error:
        read_onnx_model(model.SerializeToString(), CONTEXT)
    message = str(error.value)
    assert "com.microsoft.QLinearWhere x2 (where_1, where_2): domain 'com.microsoft' is not registered" in message
    assert "com.microsoft.QLinearLayerNorm x1 (norm)" in message
    assert "com.example.Scale x1 (scale): domain 'com.example' is not registered" in message
    assert "Hardmax x1 (hardmax)" in message
    assert "QLinearAdd" in error.value.hint and "QGemm" in error.value.hint
