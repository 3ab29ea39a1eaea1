# SPDX-License-Identifier: Apache-2.0
"""Seeded graphs of one operator each, for the per-kernel golden tests (cc/kernels/BUILD.bazel).

Each operator folder that has its C kernels tested keeps its case builders in
python/opbridge/ops/<op>/kernel_cases.py: a CASES dict of KernelCases by operator
(opbridge_testing.kernel_case_builders). `discovered_cases()` reads them from the registered
folders (ops/builtin.py).

`operator_graph(op_type)` builds, for one built-in operator, a graph of
independent nodes of that operator only: NODES_PER_PATH nodes for each
dtype path its schema allows among int8, int32 and float32 (CAST, QUANTIZE
and DEQUANTIZE: each allowed input and output pair), and int16 for the operators
whose KernelCases say `int16` (TFLite's 16x8 quantization), whose int16 paths come after the
others so that adding them left the other paths' draws as they were. Shapes, quantization
and attributes come from a generator seeded by the operator's name, so a
graph changes only when its case builder does. generate.py emits each graph as a
C module with its golden test (expected outputs from the NumPy reference).

The operators are the registry's (opbridge.ops.builtin.builtin_operators()) but PAIRED_OPERATORS;
kernel_cases_test.py fails when one has no case or when operators.bzl (the names Bazel needs)
drifts from the cases.
"""

import dataclasses
import functools
import importlib
import importlib.util
import zlib
from collections.abc import Sequence

import numpy as np
from opbridge.ir import DType, Graph, Node
from opbridge.ops.builtin import BUILTIN_OPERATOR_FOLDERS, builtin_operators, folder_definitions
from opbridge.ops.definition import OperatorDefinition
from opbridge.schemas.schema import InferenceContext, InputInfo, ShapeInferenceError
from opbridge_testing.kernel_case_builders import (
    REGISTRY,
    CaseBuilder,
    DTypePath,
    InvalidDrawError,
    KernelCases,
    NodeSpec,
)
from opbridge_testing.single_op import GraphBuilder

# The element types the kernels take; an operator is tested on those its schema allows.
KERNEL_DTYPES = (DType.INT8, DType.INT32, DType.FLOAT32)
# Nodes per dtype path; case builders use the node's variant (0 or 1) to cover both settings of a
# two-way attribute (requantization, bias present or not, PAD or PADV2).
NODES_PER_PATH = 2
# Draws of one node until its shapes are valid (non-empty output) before giving up.
MAX_DRAWS = 100
# The module of an operator folder's kernel-test cases.
CASES_MODULE = "opbridge.ops.{folder}.kernel_cases"


def operator_seed(op_type: str) -> int:
    """The seed of an operator's graph (a CRC of its name: stable across runs and machines)."""
    return zlib.crc32(op_type.encode())


def folder_cases(folder: str) -> dict[str, KernelCases]:
    """The CASES of ops/<folder>/kernel_cases.py; empty when the folder has none."""
    name = CASES_MODULE.format(folder=folder)
    if importlib.util.find_spec(name) is None:
        return {}
    cases = getattr(importlib.import_module(name), "CASES", None)
    if not isinstance(cases, dict) or not all(isinstance(case, KernelCases) for case in cases.values()):
        raise TypeError(f"{name}.CASES must be a dict of KernelCases by operator, got {cases!r}")
    return cases


@functools.cache
def discovered_cases() -> dict[str, KernelCases]:
    """Every registered operator folder's cases, by operator; an operator may only have cases in its own folder."""
    found: dict[str, KernelCases] = {}
    for folder in BUILTIN_OPERATOR_FOLDERS:
        cases = folder_cases(folder)
        own = {definition.op_type for definition in folder_definitions(folder)}
        strays = sorted(set(cases) - own)
        if strays:
            raise ValueError(f"ops/{folder}/kernel_cases.py has cases of {strays}, which ops/{folder}/ does not define")
        found.update(cases)
    return found


def operator_cases(op_type: str) -> KernelCases:
    """The op's KernelCases, from its folder's kernel_cases.py."""
    cases = discovered_cases()
    if op_type not in cases:
        raise KeyError(f"{op_type} has no kernel-test cases; add them to CASES in its folder's kernel_cases.py")
    return cases[op_type]


def case_builder(op_type: str) -> CaseBuilder:
    return operator_cases(op_type).build


def dtype_paths(definition: OperatorDefinition) -> list[DTypePath]:
    """The kernel dtype paths of an operator, from its schema's type constraints and its KernelCases."""
    schema = definition.schema
    if schema is None:
        raise ValueError(f"{definition.op_type} has no schema to read its dtypes from")
    cases = operator_cases(definition.op_type)
    paths = schema_paths(definition, KERNEL_DTYPES, cases.data_input)
    if cases.int16:
        paths += [
            path
            for path in schema_paths(definition, (*KERNEL_DTYPES, DType.INT16), cases.data_input)
            if path not in paths
        ]
    mixed = cases.mixed_paths
    if mixed is not None:
        paths = [path for path in paths if path.source is path.target or (path.source, path.target) in mixed]
    if cases.only_paths is not None:
        paths = [path for path in paths if (path.source, path.target) in cases.only_paths]
    return paths


def schema_paths(definition: OperatorDefinition, dtypes: Sequence[DType], data_input: int) -> list[DTypePath]:
    """The paths among `dtypes` that the operator's schema allows, from its input `data_input`."""
    schema = definition.schema
    assert schema is not None
    source_var, target_var = schema.inputs[data_input].type_var, schema.outputs[0].type_var
    sources = [d for d in dtypes if d in schema.constraint(source_var).allowed]
    if source_var == target_var:
        return [DTypePath(d, d) for d in sources]
    targets = [d for d in dtypes if d in schema.constraint(target_var).allowed]
    return [DTypePath(source, target) for source in sources for target in targets]


# -- graphs ----------------------------------------------------------------------------


# Operators that only work as a pair, so a graph of one operator cannot hold them: ASSIGN_VARIABLE
# writes the state its variable's READ_VARIABLE owns. Their golden tests are the resource-variable
# models' (tests/models:stateful_rnn, int8_accumulator, two_variables), on the same four platforms.
PAIRED_OPERATORS = frozenset({"READ_VARIABLE", "ASSIGN_VARIABLE"})


def registry_operators() -> list[str]:
    """The built-in operators' names, in the registry's order, but for PAIRED_OPERATORS."""
    return [d.op_type for d in builtin_operators() if d.op_type not in PAIRED_OPERATORS]


def tested_operators() -> list[str]:
    """The operators whose folders have kernel-test cases, in the registry's order: those that get a
    per-kernel golden test."""
    cases = discovered_cases()
    return [d.op_type for d in builtin_operators() if d.op_type in cases]


def operator_target_name(op_type: str) -> str:
    """The operator's name in Bazel targets and C prefixes: ADD -> add."""
    return op_type.lower()


class OneOperatorGraph:
    """Independent nodes of one operator, built tensor by tensor (GraphBuilder); the graph is named
    `name` (default: the operator's target name)."""

    def __init__(self, op_type: str, name: str | None = None) -> None:
        self.op_type = op_type
        self.name = operator_target_name(op_type) if name is None else name
        self.schema = REGISTRY[op_type].schema
        self.builder = GraphBuilder()
        self.nodes: list[Node] = []
        self.inputs: list[int] = []

    def output_types(self, spec: NodeSpec, name: str) -> list[tuple[DType, tuple[int, ...]]]:
        """Each output's dtype and shape by the schema (SPLIT and UNPACK have several); InvalidDrawError
        unless valid and non-empty."""
        assert self.schema is not None
        infos = [None if t is None else InputInfo(t.dtype, t.shape, t.quantization, t.data) for t in spec.inputs]
        try:
            outputs = self.schema.infer(InferenceContext(name, infos, spec.attributes))
        except ShapeInferenceError as error:
            raise InvalidDrawError(str(error)) from error
        for output in outputs:
            if any(size <= 0 for size in output.shape):
                raise InvalidDrawError(f"{name}: empty output {output.shape}")
        return [(output.dtype, tuple(output.shape)) for output in outputs]

    def add(self, spec: NodeSpec, name: str) -> None:
        output_types = self.output_types(spec, name)
        inputs: list[int | None] = []
        for tensor in spec.inputs:
            if tensor is None:
                inputs.append(None)
                continue
            index = self.builder.tensor(
                f"{name}_{tensor.name}", tensor.dtype, tensor.shape, tensor.quantization, tensor.data
            )
            if tensor.is_variable:
                self.builder.tensors[index] = dataclasses.replace(self.builder.tensors[index], is_variable=True)
            elif tensor.data is None:
                self.inputs.append(index)
            inputs.append(index)
        single = len(output_types) == 1
        outputs = [
            self.builder.tensor(
                f"{name}_output" if single else f"{name}_output_{position}", dtype, shape, spec.output_quantization
            )
            for position, (dtype, shape) in enumerate(output_types)
        ]
        self.nodes.append(Node(len(self.nodes), name, self.op_type, inputs, outputs, spec.attributes))

    def graph(self) -> Graph:
        outputs = [output for node in self.nodes for output in node.outputs]
        return Graph(self.name, self.builder.tensors, self.nodes, self.inputs, outputs)


def operator_graph(op_type: str) -> Graph:
    """The seeded graph of `op_type`: NODES_PER_PATH nodes per dtype path, named <path>_<variant>."""
    build = case_builder(op_type)
    rng = np.random.default_rng(operator_seed(op_type))
    graph = OneOperatorGraph(op_type)
    for path in dtype_paths(REGISTRY[op_type]):
        for variant in range(NODES_PER_PATH):
            name = f"{path.describe()}_{variant}"
            for _ in range(MAX_DRAWS):
                try:
                    graph.add(build(rng, path, variant), name)
                    break
                except InvalidDrawError:
                    continue
            else:
                raise RuntimeError(f"{op_type} {name}: no valid node in {MAX_DRAWS} draws; fix its case builder")
    return graph.graph()
