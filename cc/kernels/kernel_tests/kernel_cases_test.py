# SPDX-License-Identifier: Apache-2.0
"""The per-kernel golden tests follow the operator folders: every built-in operator but the paired ones
has kernel-test cases in its folder's kernel_cases.py and a Bazel target, and each operator's graph covers
its dtype paths."""

import pathlib

import pytest
from generate import operator_list_source
from kernel_cases import (
    KERNEL_DTYPES,
    NODES_PER_PATH,
    PAIRED_OPERATORS,
    REGISTRY,
    discovered_cases,
    dtype_paths,
    operator_cases,
    operator_graph,
    registry_operators,
    tested_operators,
)
from opbridge.ir import DType
from opbridge.ops.builtin import builtin_operators
from opbridge_testing.kernel_case_builders import elementwise_unary, is_elementwise_unary

OPERATOR_LIST = pathlib.Path("cc/kernels/kernel_tests/operators.bzl")
REGENERATE = (
    "bazel run //cc/kernels:kernel_golden_generator -- --write-operator-list cc/kernels/kernel_tests/operators.bzl"
)


def test_the_bazel_operator_list_is_the_operator_folders_cases() -> None:
    assert OPERATOR_LIST.read_text() == operator_list_source(), (
        f"{OPERATOR_LIST} differs from the operator folders' kernel_cases.py; regenerate it: {REGENERATE}"
    )


def test_every_operator_but_the_paired_ones_has_cases() -> None:
    missing = [op_type for op_type in registry_operators() if op_type not in discovered_cases()]
    assert not missing, f"add kernel-test cases for {missing} to CASES in their folders' kernel_cases.py"
    assert tested_operators() == registry_operators()


def test_the_paired_operators_are_built_ins_without_cases() -> None:
    # A name left here after its operator is gone, or after it got cases of its own, would mislead the reader.
    built_ins = {definition.op_type for definition in builtin_operators()}
    assert PAIRED_OPERATORS.issubset(built_ins), sorted(PAIRED_OPERATORS - built_ins)
    assert not PAIRED_OPERATORS & set(discovered_cases())


@pytest.mark.parametrize("op_type", registry_operators())
def test_the_graph_covers_the_dtype_paths(op_type: str) -> None:
    paths = dtype_paths(REGISTRY[op_type])
    assert paths, f"{op_type} takes none of {[d.value for d in KERNEL_DTYPES]}"
    graph = operator_graph(op_type)
    assert [node.op_type for node in graph.nodes] == [op_type] * (len(paths) * NODES_PER_PATH)
    data_input = operator_cases(op_type).data_input
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


def test_the_generic_builder_takes_only_one_input_elementwise_ops() -> None:
    assert is_elementwise_unary(REGISTRY["RELU"]) and not is_elementwise_unary(REGISTRY["CONV_2D"])
    elementwise_unary("ABS")
    with pytest.raises(ValueError, match="CONV_2D is not a one-input element-wise operator"):
        elementwise_unary("CONV_2D")


def test_the_add_graph_covers_int8_int32_float32_and_int16() -> None:
    # int16 (16x8) last: ADD's cases ask for int16, and its int16 path comes after the others.
    paths = dtype_paths(REGISTRY["ADD"])
    assert [path.source for path in paths] == [DType.INT8, DType.INT32, DType.FLOAT32, DType.INT16]
