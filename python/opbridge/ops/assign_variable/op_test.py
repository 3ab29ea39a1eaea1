# SPDX-License-Identifier: Apache-2.0
"""ASSIGN_VARIABLE: what the LiteRT import builds and refuses (naming the variable), and how the graph
passes treat a node without outputs: dead-code elimination keeps it, every schedule keeps it after the
READ_VARIABLE of its variable, and the variable is planned once, as that READ's persistent bytes.
The reference and C against TFLite Micro over invocations: ops/read_variable/op_test.py."""

import dataclasses
import pathlib
import tempfile

import numpy as np
import pytest
from opbridge_testing import resource_variable_models as models
from opbridge_testing.activation_tests import REGISTRY
from opbridge_testing.resource_variable_models import FLOAT32, OPS, StatefulModelWriter

from opbridge.aot.compile import compile_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.aot.resolve import resolve_operators
from opbridge.backends.c.schedule import reorder
from opbridge.errors import ModelFormatError, SchemaError, UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import Graph
from opbridge.ops.assign_variable.litert import parse_litert_options
from opbridge.ops.assign_variable.schema import ASSIGN_VARIABLE_SCHEMA
from opbridge.ops.operation import validate_graph
from opbridge.ops.shared.variables import VariableAttributes
from opbridge.passes.rewrite import remove_dead_nodes

# Operators of the stateful models besides the variables' (tests/architecture/operator_deps.py).
USES_OPERATORS = ("add", "fully_connected", "mul", "read_variable", "tanh")


def imported(model: bytes) -> Graph:
    return read_litert_model(model, as_registry_context(REGISTRY), "stateful.tflite")


def writer(width: int = 3, init: bool = True) -> tuple[StatefulModelWriter, int, int]:
    """A model writer with CALL_ONCE, variable "v" initialised (when `init`), an input x and a tensor to read v into."""
    w = StatefulModelWriter()
    w.call_once()
    if init:
        w.initialise("v", np.ones((1, width), np.float32), FLOAT32)
    x = w.tensor("x", [1, width], FLOAT32, [], [])
    value = w.tensor("v/value", [1, width], FLOAT32, [], [])
    return w, x, value


def add(w: StatefulModelWriter, a: int, b: int, name: str = "sum") -> int:
    out = w.tensor(name, w.tensors[a].shape, FLOAT32, [], [])
    w.operator(OPS.ADD, 1, [a, b], [out], 0, None)
    return out


def test_the_pattern_becomes_one_read_and_one_assign_naming_the_variable() -> None:
    graph = imported(models.rnn_model(np.random.default_rng(0), 3, 4, second_read=True))
    validate_graph(graph, REGISTRY)
    reads = [n for n in graph.nodes if n.op_type == "READ_VARIABLE"]
    (assign,) = [n for n in graph.nodes if n.op_type == "ASSIGN_VARIABLE"]
    assert len(reads) == 1, "the second READ_VARIABLE of the variable becomes the first's output"
    assert reads[0].attributes == assign.attributes == VariableAttributes("rnn/state")
    assert assign.inputs[1] == reads[0].outputs[0] and assign.outputs == []
    initial = graph.tensors[reads[0].inputs[0]]
    assert initial.is_constant and initial.name == "rnn/state/initial_value"
    assert all(t.name != "rnn/state/handle" for t in graph.tensors), "the RESOURCE handles are dropped"
    assert {n.op_type for n in graph.nodes}.isdisjoint({"CALL_ONCE", "VAR_HANDLE"})
    assert graph.outputs[1] == reads[0].outputs[0], "a graph output read again is the first read's output"


def test_a_container_is_part_of_the_name() -> None:
    w, x, value = writer()
    handle = w.var_handle(w, "v", container="c")
    w.operator(OPS.READ_VARIABLE, 1, [handle], [value], 0, None)
    with pytest.raises(UnsupportedTensorError, match="variable 'c/v' has no initial value"):
        imported(w.finish([x], [value], "container"))


def test_dead_code_elimination_keeps_the_assignment() -> None:
    graph = imported(models.delay_model(3, np.zeros(3)))
    assert [n.op_type for n in remove_dead_nodes(graph, REGISTRY).nodes] == ["READ_VARIABLE", "ASSIGN_VARIABLE"]


def test_no_schedule_puts_the_assignment_before_its_read() -> None:
    graph = imported(models.delay_model(3, np.zeros(3)))
    with pytest.raises(ValueError, match=r"reads tensor .* before any node writes it"):
        reorder(graph, (1, 0))


def test_the_variable_is_planned_once_as_the_reads_persistent_bytes() -> None:
    graph = imported(models.moving_average_model(5, 0.5, np.arange(5)))
    resolved = resolve_operators(graph, as_registry_context(REGISTRY), "ema")
    (read,) = [n for n in graph.nodes if n.op_type == "READ_VARIABLE"]
    assert resolved.persistent_bytes == {read.index: 5 * 4}
    with tempfile.TemporaryDirectory() as scratch:
        module = pathlib.Path(scratch) / "module"
        compile_graph(graph, REGISTRY, "ema", module, bundle_kernels=False)
        sources = "\n".join(p.read_text() for p in (module / "src").glob("*.c"))
    assert "memcpy(((uint8_t *)(ctx->arena +" in sources and "ema_constant_" in sources


def test_a_variable_assigned_twice_is_refused() -> None:
    w, x, value = writer()
    w.read("v", value)
    first = add(w, value, x)
    w.assign("v", first)
    w.assign("v", x)
    with pytest.raises(UnsupportedOperatorError, match="variable 'v' is assigned twice in a run"):
        imported(w.finish([x], [first], "twice"))


def test_a_variable_read_but_never_assigned_is_refused() -> None:
    w, x, value = writer()
    w.read("v", value)
    out = add(w, value, x)
    with pytest.raises(UnsupportedOperatorError, match=r"variable\(s\) 'v' read but never assigned"):
        imported(w.finish([x], [out], "never assigned"))


def test_a_variable_assigned_but_not_read_first_is_refused() -> None:
    w, x, value = writer()
    w.assign("v", x)
    w.read("v", value)
    with pytest.raises(UnsupportedOperatorError, match="variable 'v' is assigned but not read before it"):
        imported(w.finish([x], [value], "assign first"))


def test_a_read_after_the_assignment_is_refused() -> None:
    w, x, value = writer()
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    again = w.tensor("again", [1, 3], FLOAT32, [], [])
    w.read("v", again)
    with pytest.raises(UnsupportedOperatorError, match=r"reads variable 'v' after operator .* assigned it"):
        imported(w.finish([x], [out, again], "read after"))


def test_a_variable_without_initial_value_is_refused() -> None:
    w, x, value = writer(init=False)
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    with pytest.raises(UnsupportedTensorError, match="variable 'v' has no initial value"):
        imported(w.finish([x], [out], "no init"))


def test_a_non_constant_initial_value_is_refused() -> None:
    w, x, value = writer(init=False)
    computed = w.init.tensor("computed", [1, 3], FLOAT32, [], [])
    w.assign("v", computed, w.init)
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    with pytest.raises(UnsupportedTensorError, match=r"variable 'v' is initialised with .*computed.* not a constant"):
        imported(w.finish([x], [out], "computed init"))


def test_an_initial_value_of_another_shape_is_refused() -> None:
    w, x, value = writer(width=3, init=False)
    w.initialise("v", np.ones((1, 4), np.float32), FLOAT32)
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    with pytest.raises(UnsupportedTensorError, match=r"variable 'v' is read as .*float32\[1, 3\].*initialised with"):
        imported(w.finish([x], [out], "shape"))


def test_an_assigned_value_of_another_shape_is_refused() -> None:
    w, x, value = writer()
    w.read("v", value)
    wide = w.tensor("wide", [1, 6], FLOAT32, [], [])
    w.operator(OPS.CONCATENATION, 1, [value, x], [wide], 0, None)
    w.assign("v", wide)
    with pytest.raises(UnsupportedTensorError, match=r"variable 'v' is float32\[1, 3\], assigned"):
        imported(w.finish([x], [wide], "assigned shape"))


def test_another_subgraph_is_refused() -> None:
    w, x, value = writer()
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    w.extra_subgraphs.append(models.ModelWriter())
    with pytest.raises(UnsupportedOperatorError, match="the model has 3 subgraphs"):
        imported(w.finish([x], [out], "extra subgraph"))


def test_two_call_once_operators_are_refused() -> None:
    w, x, value = writer()
    w.call_once()
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    with pytest.raises(UnsupportedOperatorError, match="2 CALL_ONCE operators"):
        imported(w.finish([x], [out], "two call_once"))


def test_a_call_once_of_a_missing_subgraph_is_refused() -> None:
    w = StatefulModelWriter()
    w.call_once(init_index=5)
    w.initialise("v", np.ones((1, 3), np.float32), FLOAT32)
    x = w.tensor("x", [1, 3], FLOAT32, [], [])
    value = w.tensor("v/value", [1, 3], FLOAT32, [], [])
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    with pytest.raises(ModelFormatError, match=r"CALL_ONCE .* runs subgraph 5, but the model has 2"):
        imported(w.finish([x], [out], "missing init"))


def test_other_operators_in_the_init_subgraph_are_refused() -> None:
    w, x, value = writer(init=False)
    one = w.init.tensor("one", [1, 3], FLOAT32, [], [], np.ones((1, 3), np.float32))
    two = w.init.tensor("two", [1, 3], FLOAT32, [], [])
    w.init.operator(OPS.ADD, 1, [one, one], [two], 0, None)
    w.assign("v", two, w.init)
    w.read("v", value)
    out = add(w, value, x)
    w.assign("v", out)
    with pytest.raises(
        UnsupportedOperatorError, match="init subgraph 1 operator 0 is ADD; an init subgraph may only assign constants"
    ):
        imported(w.finish([x], [out], "init computes"))


def test_an_operator_without_outputs_must_say_it_only_writes_state() -> None:
    assert ASSIGN_VARIABLE_SCHEMA.state_only and not ASSIGN_VARIABLE_SCHEMA.outputs
    with pytest.raises(SchemaError, match="an operator has at least one output"):
        dataclasses.replace(ASSIGN_VARIABLE_SCHEMA, state_only=False)


def test_the_litert_parser_alone_refuses() -> None:
    """READ_VARIABLE and ASSIGN_VARIABLE are built by the resource-variable import, never by their parsers."""
    with pytest.raises(UnsupportedOperatorError, match="without resolving its resource variable"):
        parse_litert_options(None)
