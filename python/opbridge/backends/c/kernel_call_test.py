# SPDX-License-Identifier: Apache-2.0
"""The parameter structs the emitters write against the typedefs in cc/kernels/*.h: the same
fields (names, order, count), nested structs included. The headers are parsed, searched by type
name in every cc/kernels/*.h (the files may be split or renamed)."""

import ast
import dataclasses
import pathlib
import re
import tempfile
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opbridge_testing import conv_tests, lstm_sequence, mul_sub_tests, strategies, svdf_keyword
from opbridge_testing.pool_2d_tests import pool_2d_graph
from opbridge_testing.single_op import GraphBuilder, broadcast_binary_graph

import opbridge.ops
from opbridge.aot.compile import compile_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.aot.operators import NodeCodeOperator
from opbridge.backends.c.emit_context import NodeCode
from opbridge.backends.c.kernel_call import (
    ArrayValue,
    CExpression,
    Field,
    FloatValue,
    KernelCall,
    ParamStruct,
    StructValue,
    fields,
    render_definition,
    render_statement,
)
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph, Quantization
from opbridge.ir.attribute_types import Activation, Requantization
from opbridge.ops.add.attributes import AddAttributes
from opbridge.ops.batch_matmul.attributes import BatchMatMulAttributes
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.fully_connected.attributes import FullyConnectedAttributes
from opbridge.ops.softmax.attributes import SoftmaxAttributes

KERNEL_HEADERS = sorted(pathlib.Path("cc/kernels").glob("*.h"))
EMITTERS = sorted(pathlib.Path(opbridge.ops.__file__).parent.glob("**/*.py"))
REGISTRY = build_builtin_registry()


def c_structs(text: str) -> dict[str, list[str]]:
    """Member names, in order, of every `typedef struct [tag] { ... } name;` in C source text."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#[^\n]*", " ", text, flags=re.MULTILINE)
    structs = {}
    for match in re.finditer(r"typedef\s+struct\s*\w*\s*\{([^{}]*)\}\s*(\w+)\s*;", text):
        members = []
        for declaration in match.group(1).split(";"):
            declaration = declaration.strip()
            if not declaration:
                continue
            base = re.match(r"((?:const\s+|volatile\s+|struct\s+|unsigned\s+|signed\s+)*\w+)\s+(.*)", declaration)
            assert base is not None, f"cannot read the member declaration {declaration!r}"
            for declarator in base.group(2).split(","):
                name = re.fullmatch(r"(?:[\s*]|const\b)*(\w+)\s*(?:\[[^\]]*\]\s*)*", declarator)
                assert name is not None, f"cannot read the declarator {declarator!r}"
                members.append(name.group(1))
        structs[match.group(2)] = members
    return structs


def kernel_structs() -> dict[str, list[str]]:
    assert KERNEL_HEADERS, "cc/kernels/*.h not found; add //cc/kernels:sources to the test's data"
    structs: dict[str, list[str]] = {}
    for header in KERNEL_HEADERS:
        for name, members in c_structs(header.read_text(encoding="utf-8")).items():
            assert name not in structs or structs[name] == members, f"{name} is declared twice, differently"
            structs[name] = members
    return structs


STRUCTS = kernel_structs()


def mismatches(c_type: str, emitted: tuple[Field, ...]) -> list[str]:
    """How `emitted` differs from the header's `c_type` (nested struct values included); empty if it does not."""
    if c_type not in STRUCTS:
        return [f"{c_type} is not a typedef struct in cc/kernels/*.h"]
    names = [field.name for field in emitted]
    problems = []
    if names != STRUCTS[c_type]:
        problems.append(f"{c_type}: emitted fields {names}, the header declares {STRUCTS[c_type]}")
    for field in emitted:
        values = field.value.values if isinstance(field.value, ArrayValue) else (field.value,)
        for value in values:
            if isinstance(value, StructValue):
                problems += mismatches(value.c_type, value.fields)
    return problems


def emitted_structs(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> list[ParamStruct]:
    """The parameter structs of every node of `graph`, as compile_graph emits them."""
    structs: list[ParamStruct] = []
    node_files = NodeCodeOperator.node_files

    def recording(operator: NodeCodeOperator, code: NodeCode) -> tuple[str, str]:
        structs.extend(code.param_structs())
        return node_files(operator, code)

    with monkeypatch.context() as patch, tempfile.TemporaryDirectory() as scratch:
        patch.setattr(NodeCodeOperator, "node_files", recording)
        compile_graph(graph, REGISTRY, "check", pathlib.Path(scratch) / "module", bundle_kernels=False)
    return structs


def check_graph(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Asserts that the graph's parameter structs match the headers; returns their types."""
    structs = emitted_structs(graph, monkeypatch)
    assert structs, f"{graph.nodes[0].describe()} emitted no parameter struct"
    for params in structs:
        problems = mismatches(params.c_type, params.fields)
        assert not problems, "\n".join(problems)
    return {params.c_type for params in structs}


def test_the_parser_reads_members_in_order_with_arrays_pointers_and_comments() -> None:
    text = """
    #define X 1
    typedef struct {
      const int32_t *multipliers; /* [channels] */
      int32_t a, b[4]; // two
      opbridge_dims input;
      const float *const scales;
    } example_params;
    typedef struct tag { int8_t x; } tagged;
    """
    assert c_structs(text) == {
        "example_params": ["multipliers", "a", "b", "input", "scales"],
        "tagged": ["x"],
    }


def test_the_headers_declare_the_shared_structs() -> None:
    assert STRUCTS["opbridge_dims"] == ["batches", "height", "width", "channels"]
    assert STRUCTS["opbridge_requantization"] == ["multipliers", "shifts", "count", "scales"]


def test_a_renamed_missing_or_extra_field_is_reported() -> None:
    header = tuple(Field(name, 0) for name in STRUCTS["opbridge_requantization"])
    assert mismatches("opbridge_requantization", header) == []
    renamed = (Field("multiplier", 0), *header[1:])
    assert mismatches("opbridge_requantization", renamed)
    assert mismatches("opbridge_requantization", header[:-1])
    assert mismatches("opbridge_requantization", (*header, Field("extra", 0)))
    assert mismatches("opbridge_requantization", (header[1], header[0], *header[2:]))
    nested = StructValue("opbridge_dims", fields(batches=1, height=2, width=3))
    assert mismatches("opbridge_conv_s8_folded_params", (Field("input", nested),))
    assert mismatches("no_such_params", header)


def test_the_call_renders_as_the_emitters_wrote_it() -> None:
    params = ParamStruct(
        "example_params",
        "m_node_0_params",
        fields(
            size=3,
            scale=FloatValue(0.1),
            table=CExpression("m_table"),
            shape=ArrayValue((1, 2)),
            dims=StructValue("opbridge_dims", fields(batches=1, height=2, width=3, channels=4)),
        ),
    )
    assert render_definition(params) == (
        "static const example_params m_node_0_params = {\n"
        "    .size = 3,\n"
        "    .scale = 0.10000000149011612f,\n"
        "    .table = m_table,\n"
        "    .shape = {1, 2},\n"
        "    .dims = {1, 2, 3, 4},\n"
        "};"
    )
    call = KernelCall("example", params, ("a", "b"))
    assert render_statement(call) == "status = example(&m_node_0_params, a, b);"
    assert render_statement(call.replace_arguments({"a": "row"}), "&params") == "status = example(&params, row, b);"
    assert render_statement(dataclasses.replace(call, params=None)) == "status = example(a, b);"
    with pytest.raises(KeyError):
        params.replace(no_such_field=1)


CONVOLUTIONS = [
    (depthwise, dtype, requantization)
    for depthwise in (False, True)
    for dtype, requantization in (
        (DType.INT8, Requantization.TFLITE),
        (DType.INT8, Requantization.ONNX),
        (DType.FLOAT32, Requantization.TFLITE),
    )
]


@pytest.mark.parametrize(("depthwise", "dtype", "requantization"), CONVOLUTIONS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_convolution_structs_match_the_headers(
    data: st.DataObject,
    depthwise: bool,
    dtype: DType,
    requantization: Requantization,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    graph = conv_tests.draw_graph(data, depthwise, dtype, requantization=requantization)
    check_graph(graph, monkeypatch)


def fully_connected_graph(dtype: DType, depth: int, units: int, requantization: Requantization) -> Graph:
    """A FULLY_CONNECTED of two rows, with a bias; int8 weights for int8 and int16 activations."""
    builder = GraphBuilder()
    if dtype is DType.FLOAT32:
        x = builder.tensor("input", dtype, (2, depth))
        w = builder.tensor("filter", dtype, (units, depth), data=np.full((units, depth), 0.5, np.float32))
        b = builder.tensor("bias", dtype, (units,), data=np.full(units, 0.25, np.float32))
        y = builder.tensor("output", dtype, (2, units))
    else:
        zero = 0 if dtype is DType.INT16 else 3
        x = builder.tensor("input", dtype, (2, depth), Quantization((0.5,), (zero,)))
        filter_q = Quantization((0.25,), (0,))
        w = builder.tensor("filter", DType.INT8, (units, depth), filter_q, np.ones((units, depth), np.int8))
        bias_type = DType.INT64 if dtype is DType.INT16 else DType.INT32
        bias = np.full(units, 2, bias_type.numpy)
        b = builder.tensor("bias", bias_type, (units,), Quantization((0.125,), (0,)), bias)
        y = builder.tensor("output", dtype, (2, units), Quantization((1.0,), (0 if dtype is DType.INT16 else -1,)))
    attributes = FullyConnectedAttributes(activation=Activation.NONE, requantization=requantization)
    return builder.single_node_graph("FULLY_CONNECTED", [x, w, b], [y], attributes)


@pytest.mark.parametrize(
    ("dtype", "depth", "units", "requantization", "c_type"),
    [
        (DType.INT8, 4, 3, Requantization.TFLITE, "opbridge_fully_connected_s8_params"),
        (DType.INT8, 64, 32, Requantization.TFLITE, "opbridge_fully_connected_s8_folded_params"),
        (DType.INT8, 4, 3, Requantization.ONNX, "opbridge_fully_connected_s8_params"),
        (DType.INT16, 4, 3, Requantization.TFLITE, "opbridge_fully_connected_s8_params"),
        (DType.FLOAT32, 4, 3, Requantization.TFLITE, "opbridge_fully_connected_f32_params"),
    ],
)
def test_fully_connected_structs_match_the_headers(
    dtype: DType, depth: int, units: int, requantization: Requantization, c_type: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = fully_connected_graph(dtype, depth, units, requantization)
    assert check_graph(graph, monkeypatch) == {c_type}


def softmax_graph(data: st.DataObject, dtype: DType) -> Graph:
    rows, depth = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 40))
    builder = GraphBuilder()
    if dtype is DType.FLOAT32:
        x = builder.tensor("logits", dtype, (rows, depth))
        y = builder.tensor("probabilities", dtype, (rows, depth))
    else:
        x = builder.tensor("logits", dtype, (rows, depth), data.draw(strategies.per_tensor(0.01, 0.5)))
        y = builder.tensor("probabilities", dtype, (rows, depth), Quantization((1.0 / 256.0,), (-128,)))
    return builder.single_node_graph("SOFTMAX", [x], [y], SoftmaxAttributes(beta=1.0))


# Drawn single-operator graphs of the converted operators (the op tests' graphs), by name.
DRAWN_GRAPHS: dict[str, Callable[[st.DataObject], Graph]] = {
    "AVERAGE_POOL_2D int8": lambda data: pool_2d_graph(data, "AVERAGE_POOL_2D"),
    "AVERAGE_POOL_2D float32": lambda data: pool_2d_graph(data, "AVERAGE_POOL_2D", DType.FLOAT32),
    "MAX_POOL_2D int8": lambda data: pool_2d_graph(data, "MAX_POOL_2D"),
    "ADD int8": lambda data: mul_sub_tests.int8_graph(data, "ADD"),
    "ADD float32": lambda data: mul_sub_tests.float32_graph(data, "ADD"),
    "ADD int32": lambda data: broadcast_binary_graph(data, "ADD", DType.INT32, AddAttributes()),
    "ADD int64": lambda data: broadcast_binary_graph(data, "ADD", DType.INT64, AddAttributes()),
    "MUL int8": lambda data: mul_sub_tests.int8_graph(data, "MUL"),
    "SUB int8": lambda data: mul_sub_tests.int8_graph(data, "SUB"),
    "SOFTMAX int8": lambda data: softmax_graph(data, DType.INT8),
    "SOFTMAX float32": lambda data: softmax_graph(data, DType.FLOAT32),
}


@pytest.mark.parametrize("name", sorted(DRAWN_GRAPHS))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_drawn_operator_structs_match_the_headers(
    data: st.DataObject, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_graph(DRAWN_GRAPHS[name](data), monkeypatch)


def written_structs(source: str) -> list[tuple[int, str, list[str]]]:
    """(line, type, field names) of each ParamStruct("type", symbol, fields(a=..., ...)) and
    StructValue("type", fields(...)) in Python source whose type is a string and whose fields are
    one fields(...) call of keywords; those built otherwise are left to the drawn graphs above."""
    found = []
    for call in ast.walk(ast.parse(source)):
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
            continue
        position = {"ParamStruct": 2, "StructValue": 1}.get(call.func.id)
        if position is None or len(call.args) <= position:
            continue
        c_type, members = call.args[0], call.args[position]
        if not isinstance(c_type, ast.Constant) or not isinstance(c_type.value, str):
            continue
        if not (isinstance(members, ast.Call) and isinstance(members.func, ast.Name) and members.func.id == "fields"):
            continue
        if members.args or any(keyword.arg is None for keyword in members.keywords):
            continue
        found.append((call.lineno, c_type.value, [str(keyword.arg) for keyword in members.keywords]))
    return found


def test_every_struct_written_in_the_emitters_matches_the_headers() -> None:
    problems, count = [], 0
    for path in EMITTERS:
        for line, c_type, names in written_structs(path.read_text(encoding="utf-8")):
            count += 1
            problems += [
                f"{path}:{line}: {problem}" for problem in mismatches(c_type, fields(**dict.fromkeys(names, 0)))
            ]
    assert count >= 40, f"only {count} parameter structs found in {len(EMITTERS)} files"
    assert not problems, "\n".join(problems)


def test_the_source_scan_sees_a_renamed_field() -> None:
    source = 'ParamStruct("opbridge_dims", symbol, fields(batches=1, height=2, width=3, channel=4))'
    ((_, c_type, names),) = written_structs(source)
    assert mismatches(c_type, fields(**dict.fromkeys(names, 0)))


@pytest.mark.parametrize(
    ("model", "c_types"),
    [
        (lstm_sequence.lstm_sequence_int8, {"opbridge_lstm_s8_params"}),
        (lstm_sequence.lstm_sequence_float32, {"opbridge_lstm_f32_params"}),
        (svdf_keyword.svdf_keyword_int8, {"opbridge_svdf_s8_params"}),
        (svdf_keyword.svdf_keyword_float32, {"opbridge_svdf_f32_params"}),
    ],
)
def test_recurrent_model_structs_match_the_headers(
    model: Callable[[], bytes], c_types: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = read_litert_model(model(), as_registry_context(REGISTRY), "model.tflite")
    assert c_types <= check_graph(graph, monkeypatch)


def squared_difference_int8_graph() -> Graph:
    builder = GraphBuilder()
    a = builder.tensor("a", DType.INT8, (1, 2, 3, 4), Quantization((0.05,), (3,)))
    b = builder.tensor("b", DType.INT8, (1, 1, 3, 1), Quantization((0.1,), (-2,)))
    y = builder.tensor("y", DType.INT8, (1, 2, 3, 4), Quantization((0.2,), (-128,)))
    return builder.single_node_graph("SQUARED_DIFFERENCE", [a, b], [y], None)


def batch_matmul_graph(dtype: DType) -> Graph:
    builder = GraphBuilder()
    quantization = None if dtype is DType.FLOAT32 else Quantization((0.05,), (0,))
    x = builder.tensor("x", dtype, (2, 3, 4), quantization)
    w = builder.tensor("w", dtype, (1, 4, 5), quantization)
    y = builder.tensor("y", dtype, (2, 3, 5), None if dtype is DType.FLOAT32 else Quantization((0.5,), (0,)))
    return builder.single_node_graph("BATCH_MATMUL", [x, w], [y], BatchMatMulAttributes(adj_x=False, adj_y=False))


@pytest.mark.parametrize(
    ("graph", "c_types"),
    [
        (squared_difference_int8_graph, {"opbridge_squared_difference_s8_params"}),
        (lambda: batch_matmul_graph(DType.FLOAT32), {"opbridge_batch_matmul_shape"}),
        (lambda: batch_matmul_graph(DType.INT8), {"opbridge_batch_matmul_quantized_params"}),
    ],
)
def test_nested_struct_values_match_the_headers(
    graph: Callable[[], Graph], c_types: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert check_graph(graph(), monkeypatch) == c_types
