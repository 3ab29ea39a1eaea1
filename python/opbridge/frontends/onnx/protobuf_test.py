"""The ONNX wire-format reader against models the onnx package writes, and fuzzed bytes."""

import contextlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import AttributeProto, TensorProto, helper

from opbridge.errors import ModelFormatError, OpbridgeError, UnsupportedTensorError
from opbridge.frontends.onnx.protobuf import read_model


def sample_model() -> bytes:
    node = helper.make_node(
        "Custom",
        ["a", "b"],
        ["c"],
        domain="my.domain",
        name="custom_node",
        f=1.5,
        i=-7,
        s="text",
        floats=[0.25, -1.0],
        ints=[3, -4, 1 << 40],
        strings=["p", "q"],
    )
    node.attribute.append(helper.make_attribute("empty_ints", [], attr_type=AttributeProto.INTS))
    graph = helper.make_graph(
        [node],
        "sample",
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT16, ["batch", 3]),
            helper.make_tensor_value_info("b", TensorProto.BFLOAT16, []),
        ],
        [helper.make_tensor_value_info("c", TensorProto.DOUBLE, None)],
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("my.domain", 4)], ir_version=10
    )
    return model.SerializeToString()


def test_reads_what_onnx_writes() -> None:
    model = read_model(sample_model())
    assert model.ir_version == 10
    assert model.opset_imports == {"": 21, "my.domain": 4}
    assert model.graph is not None
    graph = model.graph
    assert graph.name == "sample"
    (node,) = graph.nodes
    assert (node.name, node.op_type, node.domain, node.inputs, node.outputs) == (
        "custom_node",
        "Custom",
        "my.domain",
        ["a", "b"],
        ["c"],
    )
    assert node.attributes == {
        "f": 1.5,
        "i": -7,
        "s": "text",
        "floats": [0.25, -1.0],
        "ints": [3, -4, 1 << 40],
        "strings": ["p", "q"],
        "empty_ints": [],
    }
    assert [(v.name, v.elem_type, v.shape) for v in graph.inputs] == [
        ("a", TensorProto.FLOAT16, ["batch", 3]),
        ("b", TensorProto.BFLOAT16, []),
    ]
    assert [(v.name, v.elem_type, v.shape) for v in graph.outputs] == [("c", TensorProto.DOUBLE, None)]


def test_initializer_names_and_unsupported_values() -> None:
    graph = helper.make_graph(
        [helper.make_node("Custom", ["x", "w"], ["y"], domain="d")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
        initializer=[helper.make_tensor("w", TensorProto.FLOAT, [1], np.ones(1, np.float32))],
    )
    assert read_model(helper.make_model(graph).SerializeToString()).graph.initializer_names == ["w"]  # type: ignore[union-attr]
    sequence = helper.make_tensor_sequence_value_info("x", TensorProto.FLOAT, [1])
    graph = helper.make_graph([], "g", [sequence], [])
    with pytest.raises(UnsupportedTensorError, match='value "x" is not a dense tensor'):
        read_model(helper.make_model(graph).SerializeToString())


def test_type_denotation_is_ignored() -> None:
    value = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    value.type.denotation = "TENSOR"
    node = helper.make_node("Custom", ["x"], ["y"], domain="d")
    graph = helper.make_graph([node], "g", [value], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    model = read_model(helper.make_model(graph).SerializeToString())
    assert model.graph is not None and model.graph.inputs[0].shape == [2]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the model is empty"),
        (b"\x08", "truncated varint"),
        (b"\x3a\x05ab", "claims 5 bytes, 2 remain"),
        (b"\x0b", "wire type 3"),
        (b"\x08\x01", "the model has no graph"),
        (b"\x08" + b"\xff" * 11, "varint longer than 10 bytes"),
    ],
)
def test_damaged_bytes(data: bytes, message: str) -> None:
    with pytest.raises(ModelFormatError, match=message):
        read_model(data)


@settings(max_examples=300, deadline=None)
@given(
    cut=st.integers(min_value=0), flips=st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), max_size=4)
)
def test_truncated_and_mutated_models_raise_typed_errors(cut: int, flips: list[tuple[int, int]]) -> None:
    data = bytearray(sample_model())
    data = data[: cut % (len(data) + 1)]
    for position, value in flips:
        if data:
            data[position % len(data)] = value
    with contextlib.suppress(OpbridgeError):  # typed and explained; anything else fails the test
        read_model(bytes(data))
