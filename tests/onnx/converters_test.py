# SPDX-License-Identifier: Apache-2.0
"""ONNX ops that convert onto existing kernels (Slice, Split, Pad in its three modes, ReduceMean, Sum,
Gemm / MatMul with a computed B, pools with explicit pads and dilations, int64 and float64
arithmetic): opbridge's reference against onnxruntime on drawn inputs, and the emitted C against the
reference with the host gcc."""

import pathlib

import numpy as np
import onnx
import onnxruntime
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.errors import UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.registry import default_registry_context
from opbridge_testing.single_op import run_golden_program

CONTEXT = default_registry_context()
ELEMENT = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.int64: TensorProto.INT64}


def one_node_model(
    node: onnx.NodeProto,
    inputs: dict[str, tuple[type, list[int]]],
    initializers: dict[str, np.ndarray] | None = None,
    outputs: tuple[str, ...] = ("y",),
) -> onnx.ModelProto:
    graph = helper.make_graph(
        [node],
        "one_node",
        [helper.make_tensor_value_info(name, ELEMENT[dtype], shape) for name, (dtype, shape) in inputs.items()],
        [helper.make_empty_tensor_value_info(name) for name in outputs],
        [numpy_helper.from_array(value, name) for name, value in (initializers or {}).items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def check(model: onnx.ModelProto, feeds: dict[str, np.ndarray], tmp_path: pathlib.Path | None = None) -> list[str]:
    """Reference == onnxruntime (integers exactly, floats within 1e-5 relative); with `tmp_path`,
    the emitted C == the reference. Returns the converted graph's ops."""
    graph = read_onnx_model(model.SerializeToString(), CONTEXT, source="one_node.onnx")
    ours = ReferenceInterpreter(graph, CONTEXT).run([feeds[t.name] for t in graph.input_tensors()])
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    theirs = session.run(None, feeds)
    for mine, expected in zip(ours, theirs, strict=True):
        assert mine.shape == expected.shape
        if mine.dtype.kind == "f":  # summation orders differ (pools, Gemm)
            np.testing.assert_allclose(mine, expected, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_array_equal(mine, expected)
    if tmp_path is not None:
        path = tmp_path / "model.onnx"
        path.write_bytes(model.SerializeToString())
        golden = tmp_path / "golden.c"
        config = ConvertArgs(model=path, output_dir=tmp_path / "module", prefix="m", golden_test=golden)
        AotConverter(config, registry_context=CONTEXT).convert()
        assert "0 failures" in run_golden_program(tmp_path / "module", golden)
    return [node.op_type for node in graph.nodes]


def floats(shape: list[int], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-4, 4, size=shape).astype(np.float32)


@settings(max_examples=30, deadline=None)
@given(
    size=st.integers(1, 7),
    start=st.integers(-9, 9),
    end=st.one_of(st.integers(-9, 9), st.sampled_from([2**63 - 1, -(2**63)])),
    step=st.sampled_from([1, 2, 3, -1, -2]),
)
def test_slice_matches_onnxruntime(size: int, start: int, end: int, step: int) -> None:
    node = helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])
    constants = {
        "starts": np.array([start], np.int64),
        "ends": np.array([end], np.int64),
        "axes": np.array([1], np.int64),
        "steps": np.array([step], np.int64),
    }
    model = one_node_model(node, {"x": (np.float32, [2, size, 3])}, constants)
    x = floats([2, size, 3])
    (specified,) = ReferenceEvaluator(model).run(None, {"x": x})
    if specified.size == 0:
        return  # an empty result: opbridge has no zero-sized tensors
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    if session.run(None, {"x": x})[0].shape != specified.shape:
        # onnxruntime 1.32 takes one element for an INT64_MAX end with a negative step, where the
        # ONNX spec (and onnx.reference) clamp the end to size - 1: an empty slice, skipped above.
        pytest.fail(f"onnxruntime and onnx.reference disagree on {start}:{end}:{step} over {size}")
    assert check(model, {"x": x}) == ["STRIDED_SLICE"]


@pytest.mark.parametrize(("sizes", "count"), [(None, 2), (None, 3), ([1, 4, 1], 3)])
def test_split_matches_onnxruntime_and_compiles(sizes: list[int] | None, count: int, tmp_path: pathlib.Path) -> None:
    outputs = tuple(f"y{i}" for i in range(count))
    inputs = ["x", "split"] if sizes else ["x"]
    node = helper.make_node("Split", inputs, list(outputs), axis=-1)
    constants = {"split": np.array(sizes, np.int64)} if sizes else {}
    model = one_node_model(node, {"x": (np.float32, [2, 6])}, constants, outputs)
    assert check(model, {"x": floats([2, 6])}, tmp_path) == ["STRIDED_SLICE"] * count


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge"])
def test_pad_matches_onnxruntime_and_compiles(mode: str, tmp_path: pathlib.Path) -> None:
    inputs = ["x", "pads", "value"] if mode == "constant" else ["x", "pads"]
    node = helper.make_node("Pad", inputs, ["y"], mode=mode)
    constants = {"pads": np.array([0, 1, 2, 0, 0, 2, 1, 0], np.int64), "value": np.array(1.5, np.float32)}
    if mode != "constant":
        del constants["value"]
    model = one_node_model(node, {"x": (np.float32, [1, 3, 4, 2])}, constants)
    ops = check(model, {"x": floats([1, 3, 4, 2])}, tmp_path)
    assert sorted(ops) == (["PADV2"] if mode == "constant" else ["CONCATENATION"] * 2 + ["STRIDED_SLICE"] * 4)


def test_reflect_pads_wider_than_the_axis_are_refused() -> None:
    node = helper.make_node("Pad", ["x", "pads"], ["y"], mode="reflect", name="pad")
    model = one_node_model(node, {"x": (np.float32, [2, 3])}, {"pads": np.array([0, 3, 0, 0], np.int64)})
    with pytest.raises(UnsupportedOperatorError, match=r'"pad"\): reflect pads 3, 0 on axis 1 of size 3 \(at most 2\)'):
        read_onnx_model(model.SerializeToString(), CONTEXT)


@pytest.mark.parametrize(("axes", "keepdims"), [([1], 1), ([0, 2], 0), ([-1], 0), (None, 1)])
def test_reduce_mean_matches_onnxruntime(axes: list[int] | None, keepdims: int) -> None:
    node = helper.make_node("ReduceMean", ["x"], ["y"], keepdims=keepdims, **({"axes": axes} if axes else {}))
    model = one_node_model(node, {"x": (np.float32, [2, 3, 4])})
    model.opset_import[0].version = 17  # axes is an attribute up to opset 17
    assert check(model, {"x": floats([2, 3, 4])}) == ["MEAN"]


def test_sum_of_three_matches_onnxruntime() -> None:
    node = helper.make_node("Sum", ["a", "b", "c"], ["y"])
    model = one_node_model(node, {"a": (np.float32, [2, 3]), "b": (np.float32, [3]), "c": (np.float32, [2, 1])})
    feeds = {"a": floats([2, 3], 1), "b": floats([3], 2), "c": floats([2, 1], 3)}
    assert check(model, feeds) == ["ADD", "ADD"]


@pytest.mark.parametrize("trans_b", [0, 1])
def test_gemm_of_two_activations_matches_onnxruntime_and_compiles(trans_b: int, tmp_path: pathlib.Path) -> None:
    node = helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=trans_b)
    b_shape = [4, 3] if trans_b else [3, 4]
    model = one_node_model(node, {"a": (np.float32, [2, 3]), "b": (np.float32, b_shape), "c": (np.float32, [4])})
    feeds = {"a": floats([2, 3], 1), "b": floats(b_shape, 2), "c": floats([4], 3)}
    ops = check(model, feeds, tmp_path)
    assert ops == (["FULLY_CONNECTED", "ADD"] if trans_b else ["TRANSPOSE", "FULLY_CONNECTED", "ADD"])


@pytest.mark.parametrize(
    ("op", "attributes"),
    [
        ("MaxPool", {"kernel_shape": [3, 2], "pads": [1, 0, 2, 1], "strides": [2, 1]}),
        ("AveragePool", {"kernel_shape": [3, 3], "pads": [0, 1, 2, 1], "count_include_pad": 1}),
        ("MaxPool", {"kernel_shape": [2, 3], "dilations": [2, 3], "strides": [2, 3], "pads": [1, 1, 0, 2]}),
        ("MaxPool", {"kernel_shape": [3], "dilations": [2], "strides": [4]}),
    ],
)
def test_pools_with_explicit_pads_and_dilations_match_onnxruntime(op: str, attributes: dict, tmp_path) -> None:  # type: ignore[no-untyped-def]
    shape = [1, 2, 11, 12] if len(attributes["kernel_shape"]) == 2 else [1, 2, 15]
    model = one_node_model(helper.make_node(op, ["x"], ["y"], **attributes), {"x": (np.float32, shape)})
    check(model, {"x": floats(shape)}, tmp_path)


def test_a_dilation_the_strides_are_not_multiples_of_is_refused() -> None:
    node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2], dilations=[2], strides=[3], name="pool")
    model = one_node_model(node, {"x": (np.float32, [1, 1, 9])})
    with pytest.raises(UnsupportedOperatorError, match=r"dilations=\[2\] with strides=\[3\]"):
        read_onnx_model(model.SerializeToString(), CONTEXT)


def test_int64_arithmetic_wraps_in_the_reference_and_in_c(tmp_path: pathlib.Path) -> None:
    node = helper.make_node("Mul", ["a", "b"], ["y"])
    model = one_node_model(node, {"a": (np.int64, [3, 2]), "b": (np.int64, [2])})
    big = np.array([[2**62, -(2**62)], [3, -7], [2**40, 2**40]], np.int64)
    check(model, {"a": big, "b": np.array([4, 3], np.int64)}, tmp_path)


def test_float64_runs_on_the_host_and_is_refused_for_c(tmp_path: pathlib.Path) -> None:
    node = helper.make_node("Add", ["a", "b"], ["y"], name="add")
    model = one_node_model(node, {"a": (np.float64, [2, 3]), "b": (np.float64, [3])})
    check(model, {"a": np.linspace(-1, 1, 6).reshape(2, 3), "b": np.array([1e-300, 1e300, 0.1])})
    path = tmp_path / "double.onnx"
    path.write_bytes(model.SerializeToString())
    config = ConvertArgs(model=path, output_dir=tmp_path / "module", prefix="m")
    refusal = r'node 0 \(ADD "add"\): tensor \d+ "a" float64\[2, 3\] is float64'
    with pytest.raises(UnsupportedTensorError, match=refusal):
        AotConverter(config, registry_context=CONTEXT).convert()
    assert not (tmp_path / "module").exists()


@pytest.mark.parametrize("op", ["Max", "Min", "Sum"])
@pytest.mark.parametrize("count", [1, 2, 3])
def test_variadic_ops_match_onnxruntime(op: str, count: int) -> None:
    names = [f"x{i}" for i in range(count)]
    model = one_node_model(helper.make_node(op, names, ["y"]), {n: (np.float32, [2, 3]) for n in names})
    check(model, {n: floats([2, 3], i) for i, n in enumerate(names)})


@pytest.mark.parametrize(
    ("op", "attributes"),
    [("Softsign", {}), ("HardSigmoid", {}), ("HardSigmoid", {"alpha": 0.3, "beta": 0.4}), ("HardSwish", {})],
)
def test_composite_activations_match_onnxruntime_and_compile(op: str, attributes: dict, tmp_path) -> None:  # type: ignore[no-untyped-def]
    model = one_node_model(helper.make_node(op, ["x"], ["y"], **attributes), {"x": (np.float32, [3, 7])})
    check(model, {"x": floats([3, 7]) * 2}, tmp_path)


@pytest.mark.parametrize(("shape", "target"), [([3, 1], [2, 3, 4]), ([1], [5]), ([2, 1, 3], [2, 4, 3]), ([4], [4])])
def test_expand_matches_onnxruntime(shape: list[int], target: list[int]) -> None:
    node = helper.make_node("Expand", ["x", "shape"], ["y"])
    model = one_node_model(node, {"x": (np.float32, shape)}, {"shape": np.array(target, np.int64)})
    check(model, {"x": floats(shape)})


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space_matches_onnxruntime_and_compiles(mode: str, tmp_path: pathlib.Path) -> None:
    node = helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode=mode)
    model = one_node_model(node, {"x": (np.float32, [1, 8, 2, 3])})
    check(model, {"x": floats([1, 8, 2, 3])}, tmp_path)


@pytest.mark.parametrize("constant_b", [True, False])
def test_a_vector_times_a_matrix_drops_the_row_axis(constant_b: bool) -> None:
    node = helper.make_node("MatMul", ["a", "b"], ["y"])
    b = floats([3, 4], 1)
    inputs = {"a": (np.float32, [3])} | ({} if constant_b else {"b": (np.float32, [3, 4])})
    model = one_node_model(node, inputs, {"b": b} if constant_b else {})
    check(model, {"a": floats([3], 2)} | ({} if constant_b else {"b": b}))


def test_slice_clamps_a_start_before_the_axis_for_negative_steps() -> None:
    node = helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"], ["y"])
    constants = {
        "starts": np.array([-10], np.int64),
        "ends": np.array([-(2**63)], np.int64),
        "axes": np.array([1], np.int64),
        "steps": np.array([-1], np.int64),
    }
    model = one_node_model(node, {"x": (np.float32, [1, 4])}, constants)
    check(model, {"x": floats([1, 4])})


def test_average_pool_counting_symmetric_pads_matches_onnxruntime(tmp_path: pathlib.Path) -> None:
    # PyTorch's AvgPool2d(3, 1, padding=1) default: the pads equal SAME, and count_include_pad=1.
    node = helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1)
    model = one_node_model(node, {"x": (np.float32, [1, 2, 5, 6])})
    check(model, {"x": floats([1, 2, 5, 6])}, tmp_path)


@pytest.mark.parametrize(
    ("op", "extra", "attributes"),
    [
        ("Slice", {"starts": [1], "ends": [3], "axes": [2]}, {}),
        ("Tile", {"repeats": [1, 2, 1, 2]}, {}),
        ("Gather", {"indices": [2, 0]}, {"axis": 1}),
        ("Unsqueeze", {"axes": [0]}, {}),
        ("Expand", {"shape": [2, 4, 3, 4]}, {}),
        ("DepthToSpace", {}, {"blocksize": 2}),
    ],
)
def test_qdq_value_movers_run_on_int8_and_match_onnxruntime(op: str, extra: dict, attributes: dict) -> None:
    """DequantizeLinear -> op -> QuantizeLinear with one scale and zero point: the op on int8 values,
    bit-exact with onnxruntime (moving values never rounds)."""
    scale = numpy_helper.from_array(np.array(0.05, np.float32), "scale")
    zero = numpy_helper.from_array(np.array(3, np.int8), "zero")
    constants = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in extra.items()]
    nodes = [
        helper.make_node("DequantizeLinear", ["q", "scale", "zero"], ["x"]),
        helper.make_node(op, ["x", *extra], ["moved"], **attributes),
        helper.make_node("QuantizeLinear", ["moved", "scale", "zero"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "qdq_mover",
        [helper.make_tensor_value_info("q", TensorProto.INT8, [1, 4, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, None)],
        [scale, zero, *constants],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    converted = read_onnx_model(model.SerializeToString(), CONTEXT)
    assert all(CONTEXT.operators.get(n.op_type) is not None for n in converted.nodes)
    assert all(converted.tensor(i).dtype.value == "int8" for n in converted.nodes for i in n.outputs), [
        n.op_type for n in converted.nodes
    ]
    q = np.random.default_rng(4).integers(-128, 128, size=(1, 4, 3, 4)).astype(np.int8)
    (ours,) = ReferenceInterpreter(converted, CONTEXT).run([q])
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_array_equal(ours, session.run(None, {"q": q})[0])
