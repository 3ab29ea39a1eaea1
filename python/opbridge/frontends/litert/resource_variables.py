# SPDX-License-Identifier: Apache-2.0
"""LiteRT resource variables, resolved at import into READ_VARIABLE and ASSIGN_VARIABLE nodes.

TFLite's converter writes a stateful model as: subgraph 0 starts with CALL_ONCE(init_subgraph_index);
the init subgraph runs VAR_HANDLE(container, shared_name) -> ASSIGN_VARIABLE(handle, constant) for
each variable; subgraph 0 then reads each variable (VAR_HANDLE -> READ_VARIABLE), computes, and
assigns the new value (ASSIGN_VARIABLE). The RESOURCE handles exist only to name the variable, so
this step resolves them here, once: each variable becomes one READ_VARIABLE node (its initial value,
the init subgraph's constant, as its input) and one ASSIGN_VARIABLE node (value, READ's output),
both naming the variable in their attributes. CALL_ONCE and VAR_HANDLE leave no node.

Supported: each variable of subgraph 0 read (once or more) before it is assigned once, and given a
constant by the init subgraph; the model holds subgraph 0 and that init subgraph only. Anything else
is refused naming the variable or the operator.
"""

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator

from opbridge.errors import ModelFormatError, UnsupportedOperatorError, UnsupportedTensorError
from opbridge.frontends.litert.nodes import builtin_operator_code
from opbridge.ir import Node, Tensor
from opbridge.ops.shared.variables import ASSIGN_VARIABLE, READ_VARIABLE, VariableAttributes

VARIABLE_CODES = frozenset(
    {
        BuiltinOperator.CALL_ONCE,
        BuiltinOperator.VAR_HANDLE,
        BuiltinOperator.READ_VARIABLE,
        BuiltinOperator.ASSIGN_VARIABLE,
    }
)
RESOURCE_TYPE = tflite.TensorType.RESOURCE
_OPERATOR_NAMES = {value: name for name, value in vars(BuiltinOperator).items() if not name.startswith("_")}

# (subgraph table, tensor index, RESOURCE allowed) -> the tensor as the reader reads it.
ReadTensor = Callable[[Any, int, bool], Tensor]


@dataclasses.dataclass
class ResourceVariables:
    """What the reader does with subgraph 0's variable operators."""

    # Subgraph-0 operator indices this step replaces (the reader resolves the others).
    operators: frozenset[int] = frozenset()
    # Subgraph-0 tensors of type RESOURCE (the handles): read as placeholders, dropped once unused.
    handles: frozenset[int] = frozenset()
    # The READ_VARIABLE and ASSIGN_VARIABLE nodes by operator index (their index is set by the reader).
    nodes: dict[int, Node] = dataclasses.field(default_factory=dict)
    # Each variable's initial value, a constant tensor (its index is set by add_initial_values).
    initial_values: list[Tensor] = dataclasses.field(default_factory=list)
    # A later READ_VARIABLE's output -> the first READ's output of the same variable.
    aliases: dict[int, int] = dataclasses.field(default_factory=dict)

    @property
    def present(self) -> bool:
        return bool(self.operators)


def _builtin_code(reader: Any, model: Any, operator: Any, code_count: int, where: str) -> int:
    code_index = reader.read(f"{where}'s code index", operator.OpcodeIndex)
    if not 0 <= code_index < code_count:
        raise ModelFormatError(
            f"{reader.source}: {where} uses operator code {code_index}, but the model has {code_count}",
            hint="the file is damaged",
        )
    operator_code = reader.read(f"operator code {code_index}", lambda: model.OperatorCodes(code_index))
    return reader.read("a builtin code", lambda: builtin_operator_code(operator_code))


def _indices(reader: Any, what: str, read: Callable[[], Any], tensor_count: int) -> list[int]:
    values = reader.read(what, read)
    indices = [] if isinstance(values, int) else [int(v) for v in np.atleast_1d(values).tolist()]
    for value in indices:
        if not -1 <= value < tensor_count:  # -1: an omitted optional input
            raise ModelFormatError(
                f"{reader.source}: {what} names tensor {value}, but the subgraph has {tensor_count} tensors",
                hint="the file is damaged",
            )
    return indices


def _options(reader: Any, operator: Any, options_class: Any, where: str) -> Any:
    table = reader.read(f"{where}'s options", operator.BuiltinOptions)
    if table is None:
        return None
    # Options of another type would be read as this one's fields (TFLite Micro takes them as absent).
    expected = getattr(tflite.BuiltinOptions, options_class.__name__)
    found = reader.read(f"{where}'s options type", operator.BuiltinOptionsType)
    if found != expected:
        names = {value: name for name, value in vars(tflite.BuiltinOptions).items() if not name.startswith("_")}
        raise ModelFormatError(
            f"{reader.source}: {where} has options of type {names.get(found, found)}, not {options_class.__name__}",
            hint="the file is damaged: re-export the model",
        )
    options = options_class()
    options.Init(table.Bytes, table.Pos)
    return options


def _variable_name(reader: Any, operator: Any, where: str) -> str:
    options = _options(reader, operator, tflite.VarHandleOptions, where)
    if options is None:
        raise ModelFormatError(f"{reader.source}: {where} (VAR_HANDLE) has no options", hint="the file is damaged")
    shared = (reader.read(f"{where}'s shared_name", options.SharedName) or b"").decode(errors="replace")
    container = (reader.read(f"{where}'s container", options.Container) or b"").decode(errors="replace")
    if not shared:
        raise UnsupportedOperatorError(
            f"{reader.source}: {where} (VAR_HANDLE) has no shared_name", hint="name each resource variable"
        )
    return f"{container}/{shared}" if container else shared


@dataclasses.dataclass(frozen=True)
class _Operator:
    index: int
    code: int
    table: Any
    inputs: list[int]
    outputs: list[int]


def _operators(reader: Any, model: Any, subgraph: Any, code_count: int, what: str) -> list[_Operator]:
    tensor_count = reader.length(f"{what}'s tensor list", subgraph.TensorsLength)
    operators = []
    for index in range(reader.length(f"{what}'s operator list", subgraph.OperatorsLength)):
        where = f"{what} operator {index}"
        table = reader.read(where, lambda index=index: subgraph.Operators(index))
        code = _builtin_code(reader, model, table, code_count, where)
        inputs = _indices(reader, f"{where}'s inputs", table.InputsAsNumpy, tensor_count)
        outputs = _indices(reader, f"{where}'s outputs", table.OutputsAsNumpy, tensor_count)
        operators.append(_Operator(index, code, table, inputs, outputs))
    return operators


def _handle_names(reader: Any, operators: list[_Operator], what: str) -> dict[int, str]:
    """Each VAR_HANDLE's output tensor -> its variable's name."""
    names = {}
    for operator in operators:
        if operator.code == BuiltinOperator.VAR_HANDLE:
            where = f"{what} operator {operator.index}"
            if len(operator.outputs) != 1:
                raise ModelFormatError(f"{reader.source}: {where} (VAR_HANDLE) needs one output", hint="damaged")
            names[operator.outputs[0]] = _variable_name(reader, operator.table, where)
    return names


def _named(reader: Any, names: dict[int, str], operator: _Operator, what: str, op_name: str) -> str:
    where = f"{what} operator {operator.index} ({op_name})"
    if not operator.inputs or operator.inputs[0] not in names:
        raise UnsupportedOperatorError(
            f"{reader.source}: {where}: its resource handle is not made by a VAR_HANDLE of the same subgraph",
            hint="opbridge resolves each variable by the VAR_HANDLE's shared_name",
        )
    return names[operator.inputs[0]]


def _initial_values(
    reader: Any, model: Any, code_count: int, init_index: int, read_tensor: ReadTensor
) -> dict[str, Tensor]:
    """Each variable's constant from the init subgraph (VAR_HANDLE and ASSIGN_VARIABLE only)."""
    subgraph = reader.read(f"subgraph {init_index}", lambda: model.Subgraphs(init_index))
    what = f"init subgraph {init_index}"
    operators = _operators(reader, model, subgraph, code_count, what)
    names = _handle_names(reader, operators, what)
    values: dict[str, Tensor] = {}
    for operator in operators:
        if operator.code == BuiltinOperator.VAR_HANDLE:
            continue
        if operator.code != BuiltinOperator.ASSIGN_VARIABLE:
            raise UnsupportedOperatorError(
                f"{reader.source}: {what} operator {operator.index} is "
                f"{_OPERATOR_NAMES.get(operator.code, f'builtin operator {operator.code}')}; "
                "an init subgraph may only assign constants to variables (VAR_HANDLE, ASSIGN_VARIABLE)",
                hint="fold the initial values to constants when exporting the model",
            )
        name = _named(reader, names, operator, what, "ASSIGN_VARIABLE")
        if len(operator.inputs) != 2:
            raise ModelFormatError(f"{reader.source}: {what} ASSIGN_VARIABLE needs 2 inputs", hint="damaged")
        value = read_tensor(subgraph, operator.inputs[1], False)
        if not value.is_constant:
            raise UnsupportedTensorError(
                f"{reader.source}: variable {name!r} is initialised with {value.describe()}, which is not a constant",
                hint="opbridge initialises each variable from a constant of the init subgraph",
            )
        if name in values:
            raise UnsupportedOperatorError(
                f"{reader.source}: variable {name!r} is assigned twice by {what}", hint="assign each variable once"
            )
        values[name] = value
    return values


def read_resource_variables(
    reader: Any, model: Any, subgraph: Any, code_count: int, read_tensor: ReadTensor
) -> ResourceVariables:
    """The READ_VARIABLE and ASSIGN_VARIABLE nodes of subgraph 0, with their variables' initial values."""
    operators = _operators(reader, model, subgraph, code_count, "subgraph 0")
    variable_ops = [op for op in operators if op.code in VARIABLE_CODES]
    if not variable_ops:
        return ResourceVariables()
    calls = [op for op in variable_ops if op.code == BuiltinOperator.CALL_ONCE]
    subgraph_count = reader.length("the subgraph list", model.SubgraphsLength)
    initial: dict[str, Tensor] = {}
    if len(calls) > 1:
        raise UnsupportedOperatorError(
            f"{reader.source}: subgraph 0 has {len(calls)} CALL_ONCE operators (operators "
            f"{', '.join(str(c.index) for c in calls)}); opbridge supports one init subgraph",
            hint="export the model with its variables initialised by one CALL_ONCE",
        )
    if calls:
        options = _options(reader, calls[0].table, tflite.CallOnceOptions, f"subgraph 0 operator {calls[0].index}")
        init_index = (
            int(reader.read("CALL_ONCE's init subgraph", options.InitSubgraphIndex)) if options is not None else -1
        )
        if not 0 < init_index < subgraph_count:
            raise ModelFormatError(
                f"{reader.source}: CALL_ONCE (subgraph 0 operator {calls[0].index}) runs subgraph {init_index}, "
                f"but the model has {subgraph_count}",
                hint="the file is damaged",
            )
        initial = _initial_values(reader, model, code_count, init_index, read_tensor)
    if subgraph_count != (2 if calls else 1):
        raise UnsupportedOperatorError(
            f"{reader.source}: the model has {subgraph_count} subgraphs; with resource variables opbridge reads "
            "subgraph 0 and one CALL_ONCE init subgraph only",
            hint="export the model without control flow (WHILE, IF) or other subgraphs",
        )
    names = _handle_names(reader, operators, "subgraph 0")
    result = ResourceVariables(
        operators=frozenset(op.index for op in variable_ops),
        handles=frozenset(
            i
            for i in range(reader.length("the tensor list", subgraph.TensorsLength))
            if reader.read(f"tensor {i}'s type", lambda i=i: subgraph.Tensors(i).Type()) == RESOURCE_TYPE
        ),
    )
    first_read: dict[str, tuple[int, Tensor]] = {}  # name -> (READ's output, that tensor)
    assigned: dict[str, int] = {}
    for operator in variable_ops:
        if operator.code == BuiltinOperator.READ_VARIABLE:
            name = _named(reader, names, operator, "subgraph 0", "READ_VARIABLE")
            where = f"subgraph 0 operator {operator.index} (READ_VARIABLE of {name!r})"
            if len(operator.outputs) != 1:
                raise ModelFormatError(f"{reader.source}: {where} needs one output", hint="the file is damaged")
            if name in assigned:
                raise UnsupportedOperatorError(
                    f"{reader.source}: {where} reads variable {name!r} after operator {assigned[name]} assigned it",
                    hint="opbridge supports reading a variable before its one assignment in each run",
                )
            if name in first_read:
                result.aliases[operator.outputs[0]] = first_read[name][0]
                continue
            output = read_tensor(subgraph, operator.outputs[0], False)
            value = initial.get(name)
            if value is None:
                raise UnsupportedTensorError(
                    f"{reader.source}: {where}: variable {name!r} has no initial value "
                    f"({'the init subgraph does not assign it' if calls else 'the model has no CALL_ONCE'})",
                    hint="initialise each variable with a constant in CALL_ONCE's init subgraph",
                )
            if value.dtype is not output.dtype or value.shape != output.shape:
                raise UnsupportedTensorError(
                    f"{reader.source}: variable {name!r} is read as {output.describe()} but initialised with "
                    f"{value.describe()}",
                    hint="a variable keeps the dtype and shape of its initial value",
                )
            first_read[name] = (operator.outputs[0], output)
            initial_tensor = dataclasses.replace(
                value, name=f"{name}/initial_value", quantization=output.quantization, is_variable=False
            )
            result.initial_values.append(initial_tensor)
            result.nodes[operator.index] = Node(
                index=-1, name=output.name, op_type=READ_VARIABLE, inputs=[-len(result.initial_values)],
                outputs=[operator.outputs[0]], attributes=VariableAttributes(name),
            )  # fmt: skip
        elif operator.code == BuiltinOperator.ASSIGN_VARIABLE:
            name = _named(reader, names, operator, "subgraph 0", "ASSIGN_VARIABLE")
            where = f"subgraph 0 operator {operator.index} (ASSIGN_VARIABLE of {name!r})"
            if len(operator.inputs) != 2:
                raise ModelFormatError(f"{reader.source}: {where} needs 2 inputs", hint="the file is damaged")
            if name in assigned:
                raise UnsupportedOperatorError(
                    f"{reader.source}: {where}: variable {name!r} is assigned twice in a run "
                    f"(operators {assigned[name]} and {operator.index})",
                    hint="assign each variable once per run",
                )
            if name not in first_read:
                raise UnsupportedOperatorError(
                    f"{reader.source}: {where}: variable {name!r} is assigned but not read before it",
                    hint="opbridge keeps a variable that is read, then assigned, in each run",
                )
            assigned[name] = operator.index
            value = read_tensor(subgraph, operator.inputs[1], False)
            variable = first_read[name][1]
            if value.dtype is not variable.dtype or value.shape != variable.shape:
                raise UnsupportedTensorError(
                    f"{reader.source}: {where}: variable {name!r} is {variable.dtype.value}{list(variable.shape)}, "
                    f"assigned {value.describe()}",
                    hint="assign a value of the variable's dtype and shape",
                )
            result.nodes[operator.index] = Node(
                index=-1, name=f"{name}/assign", op_type=ASSIGN_VARIABLE,
                inputs=[operator.inputs[1], first_read[name][0]], outputs=[], attributes=VariableAttributes(name),
            )  # fmt: skip
    never = sorted(set(first_read) - set(assigned))
    if never:
        raise UnsupportedOperatorError(
            f"{reader.source}: variable(s) {', '.join(repr(n) for n in never)} read but never assigned in subgraph 0",
            hint="a variable that is never assigned is a constant: export it as one",
        )
    return result


def add_initial_values(variables: ResourceVariables, tensors: list[Tensor]) -> None:
    """Appends the initial values to the tensor list and points each READ_VARIABLE at its own."""
    first = len(tensors)
    for offset, tensor in enumerate(variables.initial_values):
        tensors.append(dataclasses.replace(tensor, index=first + offset))
    for node in variables.nodes.values():
        if node.op_type == READ_VARIABLE:
            node.inputs = [first + (-node.inputs[0] - 1)]
