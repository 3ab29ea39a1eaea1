# SPDX-License-Identifier: Apache-2.0
"""Float32 ONNX models (an MLP and a CNN, built with onnx.helper) through opbridge's
ONNX frontend: the reference interpreter matches onnxruntime within FLOAT_TOLERANCE,
on drawn inputs, for every opset version 13..21. (The emitted C is checked against the
reference on all four platforms by the aot_model golden tests in this package.)"""

import numpy as np
import onnx
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from models import MODELS
from onnx import TensorProto, helper
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ops.definition import MAX_OPSET, MIN_OPSET
from opbridge.registry import default_registry_context

# float32 results of different summation orders and libm's expf: relative and absolute.
FLOAT_TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}
CONTEXT = default_registry_context()


def convert(model: onnx.ModelProto):  # type: ignore[no-untyped-def]
    return read_onnx_model(model.SerializeToString(), CONTEXT)


def onnxruntime_outputs(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"input": x})[0]


@pytest.mark.parametrize("name", sorted(MODELS))
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_reference_matches_onnxruntime(name: str, data: st.DataObject) -> None:
    model = MODELS[name]()
    graph = convert(model)
    shape = tuple(d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim)
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-4, 4, width=32)))
    (actual,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    np.testing.assert_allclose(actual, onnxruntime_outputs(model, x), **FLOAT_TOLERANCE)


@pytest.mark.parametrize("opset", range(MIN_OPSET, MAX_OPSET + 1))
def test_every_declared_opset_converts(opset: int) -> None:
    for name, build in MODELS.items():
        model = build(opset=opset)
        x = np.linspace(-3, 3, num=int(np.prod([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim])))
        x = x.astype(np.float32).reshape([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim])
        (actual,) = ReferenceInterpreter(convert(model), CONTEXT).run([x])
        np.testing.assert_allclose(actual, onnxruntime_outputs(model, x), **FLOAT_TOLERANCE, err_msg=name)


def test_transposes_between_nhwc_ops_cancel() -> None:
    graph = convert(MODELS["cnn"]())
    ops = [node.op_type for node in graph.nodes]
    # Without the pass there are two per convolution or pool (14). Left: one into NHWC at the input,
    # the chain conv1 .. both pools (relu, relu6 read by both pools, add included) in NHWC, and the
    # two that the Flattens (NCHW readers) after the pools need.
    assert ops.count("TRANSPOSE") == 3, ops
    assert ops[:8] == ["TRANSPOSE", "CONV_2D", "RELU", "MAX_POOL_2D", "CONV_2D", "CONV_2D", "ADD", "DEPTHWISE_CONV_2D"]


# The MLP's Clip takes its bounds as inputs from opset 11; conformance_test reads opset 6 models.
@pytest.mark.parametrize("opset", [11, 12])
def test_older_opsets_are_upgraded_and_the_summary_says_so(opset: int, tmp_path) -> None:  # type: ignore[no-untyped-def]
    model = MODELS["mlp"](opset=opset)
    graph = convert(model)
    assert graph.notes == (f"import: ONNX opset {opset} upgraded to 13 with onnx.version_converter",)
    x = np.linspace(-3, 3, num=20, dtype=np.float32).reshape(1, 20)
    (actual,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    np.testing.assert_allclose(actual, onnxruntime_outputs(model, x), **FLOAT_TOLERANCE)
    path = tmp_path / "mlp.onnx"
    path.write_bytes(model.SerializeToString())
    config = ConvertArgs(model=path, output_dir=tmp_path / "out", prefix="mlp", bundle_kernels=False)
    result = AotConverter(config, CONTEXT).convert()
    assert f"import: ONNX opset {opset} upgraded to 13 with onnx.version_converter" in result.summary()


def test_an_op_the_version_converter_cannot_upgrade_is_named() -> None:
    nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("ImageScaler", ["r"], ["y"], scale=2.0)]
    graph = helper.make_graph(
        nodes,
        "old",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 4, 4])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)])
    with pytest.raises(
        UnsupportedOperatorError,
        match=r'node 1 \(ai.onnx.ImageScaler "ImageScaler_1"\): onnx.version_converter cannot convert the model '
        r"from ONNX opset 7 to 13: Op .* has no registered schema",
    ) as error:
        read_onnx_model(model.SerializeToString(), CONTEXT, source="old.onnx")
    assert "opset_version=13" in error.value.hint


def test_opsets_outside_the_range_and_unknown_ops_are_refused() -> None:
    with pytest.raises(UnsupportedOperatorError, match=r"opset 22; opbridge converts opsets up to 21"):
        read_onnx_model(MODELS["mlp"](opset=22).SerializeToString(), CONTEXT)
    model = MODELS["mlp"]()
    model.graph.node[1].op_type = "Hardmax"
    with pytest.raises(
        UnsupportedOperatorError, match=r"1 node\(s\) use 1 operator\(s\) opbridge does not support:\n    Hardmax x1 \("
    ):
        read_onnx_model(model.SerializeToString(), CONTEXT)


def batch_norm_model(opset: int = 17) -> onnx.ModelProto:
    """Conv -> BatchNormalization (folded) -> Relu -> GlobalAveragePool -> Squeeze -> BatchNormalization
    (MUL and ADD) -> Unsqueeze."""
    rng = np.random.default_rng(5)

    def constant(name: str, shape: tuple[int, ...], low: float = -1.0, high: float = 1.0) -> onnx.TensorProto:
        return onnx.numpy_helper.from_array(rng.uniform(low, high, shape).astype(np.float32), name)

    def batch_norm(prefix: str, channels: int) -> list[onnx.TensorProto]:
        return [
            constant(f"{prefix}_scale", (channels,), 0.5, 2.0),
            constant(f"{prefix}_bias", (channels,)),
            constant(f"{prefix}_mean", (channels,)),
            constant(f"{prefix}_var", (channels,), 0.1, 3.0),
        ]

    def batch_norm_node(prefix: str, x: str, y: str) -> onnx.NodeProto:
        names = [x] + [f"{prefix}_{n}" for n in ("scale", "bias", "mean", "var")]
        return onnx.helper.make_node("BatchNormalization", names, [y], epsilon=1e-3)

    axes = [onnx.numpy_helper.from_array(np.array(a, np.int64), n) for n, a in (("hw", [2, 3]), ("last", [-1]))]
    graph = onnx.helper.make_graph(
        [
            onnx.helper.make_node("Conv", ["input", "w", "b"], ["conv"], pads=[1, 1, 1, 1]),
            batch_norm_node("bn1", "conv", "normalized"),
            onnx.helper.make_node("Relu", ["normalized"], ["relu"]),
            onnx.helper.make_node("GlobalAveragePool", ["relu"], ["pooled"]),
            onnx.helper.make_node("Squeeze", ["pooled", "hw"], ["features"]),
            batch_norm_node("bn2", "features", "scaled"),
            onnx.helper.make_node("Unsqueeze", ["scaled", "last"], ["output"]),
        ],
        "batch_norm",
        [onnx.helper.make_tensor_value_info("input", onnx.TensorProto.FLOAT, [1, 3, 8, 8])],
        [onnx.helper.make_tensor_value_info("output", onnx.TensorProto.FLOAT, [1, 4, 1])],
        [constant("w", (4, 3, 3, 3)), constant("b", (4,)), *batch_norm("bn1", 4), *batch_norm("bn2", 4), *axes],
    )
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", opset)])
    onnx.checker.check_model(model, full_check=True)
    return model


@settings(max_examples=10, deadline=None)
@given(x=hnp.arrays(np.float32, (1, 3, 8, 8), elements=st.floats(-4, 4, width=32)))
def test_batch_normalization_squeeze_and_unsqueeze_match_onnxruntime(x: np.ndarray) -> None:
    model = batch_norm_model()
    graph = convert(model)
    ops = [node.op_type for node in graph.nodes]
    # The first BatchNormalization is folded into the Conv's weights and bias; the second,
    # after the pool, is a MUL and an ADD; Squeeze and Unsqueeze are RESHAPEs.
    assert ops.count("MUL") == 1 and ops.count("ADD") == 1 and ops.count("RESHAPE") == 2, ops
    (actual,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    np.testing.assert_allclose(actual, onnxruntime_outputs(model, x), **FLOAT_TOLERANCE)


def test_batch_normalization_in_training_mode_is_refused() -> None:
    model = batch_norm_model(opset=15)
    model.graph.node[5].attribute.append(onnx.helper.make_attribute("training_mode", 1))
    model.graph.node[5].output.extend(["running_mean", "running_var"])  # as ONNX requires in training mode
    with pytest.raises(UnsupportedOperatorError, match=r"training_mode=1") as error:
        read_onnx_model(model.SerializeToString(), CONTEXT)
    assert "inference" in str(error.value.hint)
