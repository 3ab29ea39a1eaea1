# SPDX-License-Identifier: Apache-2.0
"""The per-kernel golden tests follow the registry: every built-in operator has a case builder and a
Bazel target, and each operator's graph covers its dtype paths."""

import pathlib

import pytest
from generate import operator_list_source
from kernel_cases import (
    CASES,
    DATA_INPUT,
    KERNEL_DTYPES,
    NODES_PER_PATH,
    PAIRED_OPERATORS,
    REGISTRY,
    case_builder,
    dtype_paths,
    is_elementwise_unary,
    operator_graph,
    registry_operators,
)
from opbridge.ir import DType
from opbridge.ops.builtin import BUILTIN_OPERATORS

OPERATOR_LIST = pathlib.Path("cc/kernels/kernel_tests/operators.bzl")
REGENERATE = (
    "bazel run //cc/kernels:kernel_golden_generator -- --write-operator-list cc/kernels/kernel_tests/operators.bzl"
)


def test_the_bazel_operator_list_is_the_registry() -> None:
    assert OPERATOR_LIST.read_text() == operator_list_source(), (
        f"{OPERATOR_LIST} differs from opbridge's registry; regenerate it: {REGENERATE}"
    )


def test_every_operator_has_a_case_builder() -> None:
    missing = []
    for op_type in registry_operators():
        try:
            case_builder(op_type)
        except KeyError:
            missing.append(op_type)
    stale = sorted(set(CASES) - set(registry_operators()))
    assert not missing, f"add case builders for {missing} to CASES in cc/kernels/kernel_tests/kernel_cases.py"
    assert not stale, f"remove {stale} from CASES: they are not built-in operators any more"


def test_the_paired_operators_are_built_ins() -> None:
    # A name left here after its operator is gone would mislead the reader.
    built_ins = {definition.op_type for definition in BUILTIN_OPERATORS}
    assert PAIRED_OPERATORS.issubset(built_ins), sorted(PAIRED_OPERATORS - built_ins)


@pytest.mark.parametrize("op_type", registry_operators())
def test_the_graph_covers_the_dtype_paths(op_type: str) -> None:
    paths = dtype_paths(REGISTRY[op_type])
    assert paths, f"{op_type} takes none of {[d.value for d in KERNEL_DTYPES]}"
    graph = operator_graph(op_type)
    assert [node.op_type for node in graph.nodes] == [op_type] * (len(paths) * NODES_PER_PATH)
    data_input = DATA_INPUT.get(op_type, 0)
    covered = {
        (graph.tensors[node.inputs[data_input]].dtype, graph.tensors[node.outputs[0]].dtype)  # type: ignore[index]
        for node in graph.nodes
    }
    assert covered == {(path.source, path.target) for path in paths}


def test_the_graphs_are_seeded() -> None:
    first, second = operator_graph("CONV_2D"), operator_graph("CONV_2D")
    assert [t.shape for t in first.tensors] == [t.shape for t in second.tensors]
    assert all(
        (a.data is None and b.data is None) or (a.data == b.data).all()
        for a, b in zip(first.tensors, second.tensors, strict=True)
    )


def test_one_input_elementwise_ops_need_no_entry() -> None:
    # RELU's own entry aside, the generic builder serves any op whose schema is one tensor to the same.
    assert "RELU" in CASES and case_builder("RELU") is CASES["RELU"]
    assert not is_elementwise_unary(REGISTRY["CONV_2D"]) and is_elementwise_unary(REGISTRY["RELU"])


def test_the_add_graph_covers_int8_int32_float32_and_int16() -> None:
    # int16 (16x8) last: ADD is in INT16_OPERATORS, and its int16 path comes after the others.
    paths = dtype_paths(REGISTRY["ADD"])
    assert [path.source for path in paths] == [DType.INT8, DType.INT32, DType.FLOAT32, DType.INT16]
