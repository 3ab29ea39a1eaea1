# SPDX-License-Identifier: Apache-2.0
"""Unsupported nodes are reported grouped by operator, by both frontends, with the same helper."""

from collections.abc import Sequence

import flatbuffers
import pytest
from ai_edge_litert import schema_py_generated as schema
from onnx import TensorProto, helper

from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.litert import read_litert_model
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.frontends.unsupported import UnsupportedNode, unsupported_operators_error
from opbridge.registry import default_registry_context

CONTEXT = default_registry_context()


def onnx_model(op_types: Sequence[str]) -> bytes:
    """One node per entry of `op_types`, named node_<position>, each reading a graph input
    (ConstantOfShape the int64 `shape`, the others the float32 `x`)."""
    nodes = [
        helper.make_node(op, ["shape" if op == "ConstantOfShape" else "x"], [f"y{i}"], name=f"node_{i}")
        for i, op in enumerate(op_types)
    ]
    graph = helper.make_graph(
        nodes,
        "unsupported",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
            helper.make_tensor_value_info("shape", TensorProto.INT64, [1]),
        ],
        [helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, None) for i in range(len(op_types))],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def litert_model(operators: Sequence[tuple[int, int]]) -> bytes:
    """A chain of float32[4] operators, one per (builtin code, version), written with LiteRT's schema code."""
    codes = sorted(set(operators))
    model = schema.ModelT()
    model.version = 3
    model.operatorCodes = []
    for builtin_code, version in codes:
        operator_code = schema.OperatorCodeT()
        operator_code.builtinCode = builtin_code
        operator_code.deprecatedBuiltinCode = min(builtin_code, 127)
        operator_code.version = version
        model.operatorCodes.append(operator_code)
    subgraph = schema.SubGraphT()
    subgraph.tensors = []
    for index in range(len(operators) + 1):
        tensor = schema.TensorT()
        tensor.name, tensor.shape, tensor.type, tensor.buffer = f"t{index}", [4], schema.TensorType.FLOAT32, 0
        subgraph.tensors.append(tensor)
    subgraph.operators = []
    for index, code in enumerate(operators):
        operator = schema.OperatorT()
        operator.opcodeIndex, operator.inputs, operator.outputs = codes.index(code), [index], [index + 1]
        subgraph.operators.append(operator)
    subgraph.inputs, subgraph.outputs, subgraph.name = [0], [len(operators)], "main"
    model.subgraphs = [subgraph]
    model.buffers = [schema.BufferT()]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def test_onnx_nodes_are_grouped_by_operator_with_counts_most_frequent_first() -> None:
    op_types = ["Relu", "Hardmax", *["ConstantOfShape"] * 5, "Hardmax", *["ConstantOfShape"] * 238, "Shrink"]
    with pytest.raises(UnsupportedOperatorError) as error:
        read_onnx_model(onnx_model(op_types), CONTEXT, source="many.onnx")
    assert error.value.message == (
        "many.onnx: 246 node(s) use 3 operator(s) opbridge does not support (most frequent first):\n"
        "    ConstantOfShape x243 (first: node_2, node_3, node_4, ...)\n"
        "    Hardmax x2 (node_1, node_7)\n"
        "    Shrink x1 (node_246)"
    )
    assert "node_5" not in str(error.value)
    assert "see docs/onnx.md to add one" in error.value.hint


def test_onnx_model_with_a_few_unsupported_nodes_names_each() -> None:
    with pytest.raises(UnsupportedOperatorError) as error:
        read_onnx_model(onnx_model(["Hardmax", "Relu", "Hardmax", "Hardmax"]), CONTEXT, source="few.onnx")
    assert error.value.message == (
        "few.onnx: 3 node(s) use 1 operator(s) opbridge does not support:\n    Hardmax x3 (node_0, node_2, node_3)"
    )


def test_litert_nodes_are_grouped_by_operator_and_version() -> None:
    sin, cos, relu = schema.BuiltinOperator.SIN, schema.BuiltinOperator.COS, schema.BuiltinOperator.RELU
    operators = [(cos, 1), (relu, 1), *[(sin, 1)] * 40, (relu, 99), (cos, 1), (relu, 99)]
    with pytest.raises(UnsupportedOperatorError) as error:
        read_litert_model(litert_model(operators), CONTEXT, "many.tflite")
    assert error.value.message == (
        "many.tflite: 44 node(s) use 3 operator(s) opbridge does not support (most frequent first):\n"
        "    SIN x40 (first: node 2, node 3, node 4, ...)\n"
        "    COS x2 (node 0, node 43)\n"
        "    RELU version 99 x2 (node 42, node 44): supported versions: [1, 2, 3]"
    )
    assert "write a plugin: `opbridge new-op KEY --format litert`" in error.value.hint


def test_groups_of_equal_size_keep_model_order_and_reasons_split_groups() -> None:
    nodes = [
        UnsupportedNode("B", "b0"),
        UnsupportedNode("A", "a0", "no parser registered"),
        UnsupportedNode("A", "a1", "its key is a builtin operator's key"),
        UnsupportedNode("A", "a2", "no parser registered"),
    ]
    error = unsupported_operators_error("m", nodes, hint="register a plugin")
    assert error.message.splitlines()[1:] == [
        "    A x2 (a0, a2): no parser registered",
        "    B x1 (b0)",
        "    A x1 (a1): its key is a builtin operator's key",
    ]
    assert error.hint == "register a plugin"
