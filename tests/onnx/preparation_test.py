# SPDX-License-Identifier: Apache-2.0
"""What the ONNX frontend does before converting nodes (frontends/onnx/preparation.py): constant
subgraphs folded with onnx.reference (the shape arithmetic exporters write, Constant,
ConstantOfShape), QDQ weights left for the QDQ pass, Identity and Dropout gone; checked against
onnxruntime."""

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.registry import default_registry_context

CONTEXT = default_registry_context()


def model_of(nodes: list[onnx.NodeProto], initializers: list[onnx.TensorProto], shape: list[int]) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "prepared",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def check_against_onnxruntime(model: onnx.ModelProto, shape: list[int]):  # type: ignore[no-untyped-def]
    graph = read_onnx_model(model.SerializeToString(), CONTEXT, source="prepared.onnx")
    x = np.random.default_rng(0).uniform(-2, 2, size=shape).astype(np.float32)
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (theirs,) = session.run(None, {"x": x})
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    return graph


def test_shape_arithmetic_folds_into_a_constant_shape() -> None:
    # What torch.onnx.export writes for x.view(x.size(0), -1): Shape -> Gather -> Unsqueeze -> Concat -> Reshape.
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Shape", ["r"], ["shape"]),
        helper.make_node("Constant", [], ["zero"], value=numpy_helper.from_array(np.array(0, np.int64))),
        helper.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
        helper.make_node("Unsqueeze", ["batch", "axes"], ["batch_1d"]),
        helper.make_node("Concat", ["batch_1d", "minus_one"], ["target"], axis=0),
        helper.make_node("Reshape", ["r", "target"], ["y"]),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0], np.int64), "axes"),
        numpy_helper.from_array(np.array([-1], np.int64), "minus_one"),
    ]
    graph = check_against_onnxruntime(model_of(nodes, initializers, [2, 3, 4]), [2, 3, 4])
    assert [node.op_type for node in graph.nodes] == ["RELU", "RESHAPE"]
    assert graph.notes == (
        "import: 5 constant node(s) folded with onnx.reference (Concat x1, Constant x1, Gather x1, Shape x1, "
        "Unsqueeze x1)",
    )


def test_constant_of_shape_and_identity_like_nodes_vanish() -> None:
    nodes = [
        helper.make_node(
            "ConstantOfShape", ["shape"], ["halves"], value=numpy_helper.from_array(np.array([0.5], np.float32))
        ),
        helper.make_node("Identity", ["x"], ["same"]),
        helper.make_node("Dropout", ["same"], ["kept", "mask"], name="drop"),
        helper.make_node("Mul", ["kept", "halves"], ["y"]),
    ]
    shape = numpy_helper.from_array(np.array([1, 4], np.int64), "shape")
    graph = check_against_onnxruntime(model_of(nodes, [shape], [3, 4]), [3, 4])
    assert [node.op_type for node in graph.nodes] == ["MUL"]


def test_dropout_in_training_mode_is_refused_naming_the_node() -> None:
    nodes = [helper.make_node("Dropout", ["x", "ratio", "training"], ["y"], name="drop")]
    initializers = [
        numpy_helper.from_array(np.array(0.5, np.float32), "ratio"),
        numpy_helper.from_array(np.array(True), "training"),
    ]
    with pytest.raises(UnsupportedOperatorError, match=r'node 0 \(ai.onnx.Dropout "drop"\): training_mode is true'):
        read_onnx_model(model_of(nodes, initializers, [2, 2]).SerializeToString(), CONTEXT)


def test_a_constant_node_onnx_cannot_evaluate_is_left_to_its_converter() -> None:
    nodes = [
        helper.make_node("Reshape", ["weights", "bad_shape"], ["w"], name="reshape_weights"),
        helper.make_node("Add", ["x", "w"], ["y"]),
    ]
    initializers = [
        numpy_helper.from_array(np.zeros(6, np.float32), "weights"),
        numpy_helper.from_array(np.array([4, 4], np.int64), "bad_shape"),
    ]
    # onnx.reference fails on it, so it stays a node, and Reshape's converter names the problem.
    with pytest.raises(
        UnsupportedOperatorError,
        match=r'node 0 \(ai.onnx.Reshape "reshape_weights"\): cannot reshape \[6\] to \[4, 4\]',
    ):
        read_onnx_model(model_of(nodes, initializers, [4, 4]).SerializeToString(), CONTEXT, source="prepared.onnx")


def test_node_numbers_in_messages_are_the_file_s_after_folding() -> None:
    nodes = [
        helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(np.ones(2, np.float32))),
        helper.make_node("Add", ["x", "c"], ["s"]),
        helper.make_node("Hardmax", ["s"], ["y"]),
    ]
    with pytest.raises(UnsupportedOperatorError, match=r"Hardmax x1 \(Hardmax_2\)"):
        read_onnx_model(model_of(nodes, [], [2]).SerializeToString(), CONTEXT)


def test_a_constant_too_large_to_fold_is_never_built() -> None:
    # 10^10 float32 values (40 GB): shape inference knows the size, so onnx.reference never runs, and the
    # node, which no converter takes, is refused with its size and the setting that would fold it.
    nodes = [
        helper.make_node("ConstantOfShape", ["shape"], ["huge"], name="huge"),
        helper.make_node("Add", ["x", "huge"], ["y"]),
    ]
    shape = numpy_helper.from_array(np.array([100000, 100000], np.int64), "shape")
    with pytest.raises(UnsupportedOperatorError) as refused:
        read_onnx_model(model_of(nodes, [shape], [100000, 100000]).SerializeToString(), CONTEXT)
    assert 'node 0 (ai.onnx.ConstantOfShape "huge", 40,000,000,000 bytes)' in refused.value.message
    assert "67,108,864-byte limit" in refused.value.message
    assert "onnx_max_folded_bytes: 40000000000" in refused.value.hint
    assert "--onnx-max-folded-bytes 40000000000" in refused.value.hint
