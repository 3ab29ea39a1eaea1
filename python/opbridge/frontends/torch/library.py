# SPDX-License-Identifier: Apache-2.0
"""An opbridge operator as a torch.library op, generated from its one definition.

A plugin declares `TorchOp(op_type, "namespace::name")` with `register_torch_op` in its
`customize_registry` (torch is not imported: plugins load without it). `define_torch_ops`
then defines each declared op in torch with

- the schema `torch_schema_string` derives from the opbridge schema (inputs as Tensors,
  then the attributes with their defaults, in the attribute class's field order);
- a fake kernel that runs the schema's shape-and-dtype rule, so torch.export and
  torch.compile see the shapes opbridge will check later, and refuse what opbridge refuses;
- a CPU kernel that runs the NumPy reference, so eager torch computes what the C will.

Both kernels build a one-node opbridge graph of the call and check it with
`opbridge.schemas.inference.infer_node`, so a node that breaks the schema raises the same
ShapeInferenceError (naming the node) in torch as in a conversion.
"""

import dataclasses
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from opbridge.errors import OpbridgeError, OperatorPluginError, UnsupportedTensorError, nearest
from opbridge.frontends.torch.custom_ops import torch_op_converter
from opbridge.frontends.torch.spec import TorchOp
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.ir.attribute_specs import AttributeSpec, AttributeType
from opbridge.keyed_registry import RegistryError
from opbridge.ops.definition import OperatorDefinition, ReferenceCall
from opbridge.schemas.inference import infer_node, shapes_agree
from opbridge.schemas.schema import FormalParameter, OpSchema, ParameterOption, TensorType

if TYPE_CHECKING:
    import torch

    from opbridge.registry_context import RegistryContext

# torch's own namespaces; "onnx::" ops are also taken by the ONNX exporter as ONNX ops.
RESERVED_NAMESPACES = frozenset({"aten", "prim", "prims", "onnx", "quantized_decomposed"})

# Each half of a qualname "namespace::name" (also what `opbridge new-op --torch` checks).
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")

# opbridge DType <-> torch dtype, by the torch attribute name (torch is imported only when used).
_TORCH_DTYPE_NAMES: dict[DType, str] = {
    DType.BOOL: "bool",
    DType.INT8: "int8",
    DType.UINT8: "uint8",
    DType.INT16: "int16",
    DType.UINT16: "uint16",
    DType.INT32: "int32",
    DType.UINT32: "uint32",
    DType.INT64: "int64",
    DType.UINT64: "uint64",
    DType.FLOAT16: "float16",
    DType.BFLOAT16: "bfloat16",
    DType.FLOAT32: "float32",
    DType.FLOAT64: "float64",
}

# Attribute kinds torch schemas can carry, and their torch schema types.
_TORCH_ATTRIBUTE_TYPES: dict[AttributeType, str] = {
    AttributeType.INT: "int",
    AttributeType.FLOAT: "float",
    AttributeType.BOOL: "bool",
    AttributeType.STRING: "str",
    AttributeType.INTS: "int[]",
    AttributeType.FLOATS: "float[]",
}


def torch_dtype(dtype: DType) -> "torch.dtype":
    """The torch dtype of an opbridge DType."""
    import torch

    return getattr(torch, _TORCH_DTYPE_NAMES[dtype])


def opbridge_dtype(dtype: "torch.dtype") -> DType | None:
    """The opbridge DType of a torch dtype; None for dtypes opbridge has no counterpart of (complex, float8 ...)."""
    import torch

    for ours, name in _TORCH_DTYPE_NAMES.items():
        if getattr(torch, name) == dtype:
            return ours
    return None


@dataclasses.dataclass(frozen=True)
class TorchArgument:
    """One argument of the generated torch schema: a schema input (`parameter`) or an attribute (`spec`).

    `default` is the Python value a caller may leave out (None for an omitted optional input);
    `has_default` says whether there is one."""

    name: str
    schema_type: str
    parameter: FormalParameter | None = None
    spec: AttributeSpec | None = None
    has_default: bool = False
    default: Any = None

    def declaration(self) -> str:
        """'float limit=1.0', as in a torch schema."""
        if not self.has_default:
            return f"{self.schema_type} {self.name}"
        text = "None" if self.parameter is not None else _default_text(self.spec, self.default)  # type: ignore[arg-type]
        return f"{self.schema_type} {self.name}={text}"


def _plugin_error(torch_op: TorchOp, problem: str, hint: str = "") -> OperatorPluginError:
    return OperatorPluginError(f"TorchOp {torch_op.qualname!r} (operator {torch_op.op_type!r}): {problem}", hint=hint)


def _default_text(spec: AttributeSpec, value: Any) -> str:
    """An attribute default in torch schema syntax (checked finite by torch_arguments)."""
    if spec.type is AttributeType.BOOL:
        return "True" if value else "False"
    if spec.type is AttributeType.INT:
        return str(int(value))
    if spec.type is AttributeType.FLOAT:
        return repr(float(value))
    if spec.type is AttributeType.STRING:
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{escaped}"'
    if spec.type is AttributeType.INTS:
        return "[" + ", ".join(str(int(v)) for v in value) + "]"
    return "[" + ", ".join(repr(float(v)) for v in value) + "]"


def _input_type(parameter: FormalParameter) -> str:
    return {
        ParameterOption.SINGLE: "Tensor",
        ParameterOption.OPTIONAL: "Tensor?",
        ParameterOption.VARIADIC: "Tensor[]",
    }[parameter.option]


def _schema_of(definition: OperatorDefinition, torch_op: TorchOp) -> OpSchema:
    if definition.schema is None:
        raise _plugin_error(
            torch_op,
            "its OperatorDefinition has no schema",
            hint="give the OperatorDefinition a schema: the torch op's signature and fake kernel come from it",
        )
    return definition.schema


def torch_arguments(definition: OperatorDefinition, torch_op: TorchOp) -> tuple[TorchArgument, ...]:
    """The torch schema's arguments: the schema's inputs, then its attributes in field order.

    An optional input defaults to None when every later argument has a default (torch schemas
    allow no required positional argument after a defaulted one). Attribute kinds torch schemas
    cannot carry (enums, string lists), non-finite float defaults and a required attribute after
    a defaulted one are OperatorPluginErrors naming the op and the attribute."""
    schema = _schema_of(definition, torch_op)
    arguments: list[TorchArgument] = [TorchArgument(p.name, _input_type(p), parameter=p) for p in schema.inputs]
    names = {p.name for p in schema.inputs}
    for spec in schema.attributes:
        where = f"attribute {spec.name!r} ({spec.type.value})"
        torch_type = _TORCH_ATTRIBUTE_TYPES.get(spec.type)
        if torch_type is None:
            raise _plugin_error(
                torch_op,
                f"{where} has no torch schema type",
                hint="torch ops take int, float, bool, str, tuple[int, ...] and tuple[float, ...] attributes; "
                "change the attribute's type in the attribute class",
            )
        if spec.name in names:
            raise _plugin_error(torch_op, f"{where} has the name of an input", hint="rename the attribute or the input")
        names.add(spec.name)
        if spec.required:
            arguments.append(TorchArgument(spec.name, torch_type, spec=spec))
            continue
        values = spec.default if isinstance(spec.default, tuple) else (spec.default,)
        if spec.type in (AttributeType.FLOAT, AttributeType.FLOATS) and not all(math.isfinite(v) for v in values):
            raise _plugin_error(
                torch_op,
                f"{where} defaults to {spec.default!r}; torch schemas have no infinite or NaN defaults",
                hint="give the attribute a finite default",
            )
        arguments.append(TorchArgument(spec.name, torch_type, spec=spec, has_default=True, default=spec.default))
    for position in range(len(arguments) - 1, -1, -1):
        argument = arguments[position]
        optional = argument.parameter is not None and argument.parameter.option is ParameterOption.OPTIONAL
        if optional and all(later.has_default for later in arguments[position + 1 :]):
            arguments[position] = dataclasses.replace(argument, has_default=True, default=None)
    seen_default = False
    for argument in arguments:
        if argument.has_default:
            seen_default = True
        elif seen_default:
            raise _plugin_error(
                torch_op,
                f"attribute {argument.name!r} is required but follows an argument with a default",
                hint="torch schemas have no required positional argument after a defaulted one; "
                "give the attribute a default or declare it before the defaulted ones",
            )
    return tuple(arguments)


def torch_schema_string(definition: OperatorDefinition, torch_op: TorchOp) -> str:
    """The torch schema of the op without its namespace: "soft_clip(Tensor x, float limit=1.0) -> Tensor"."""
    schema = _schema_of(definition, torch_op)
    if any(p.option is ParameterOption.VARIADIC for p in schema.outputs):
        raise _plugin_error(
            torch_op,
            f"{schema.describe()} has a variadic output; a torch op has a fixed number of outputs",
            hint="declare the outputs one by one",
        )
    arguments = ", ".join(argument.declaration() for argument in torch_arguments(definition, torch_op))
    returns = "Tensor" if len(schema.outputs) == 1 else "(" + ", ".join("Tensor" for _ in schema.outputs) + ")"
    return f"{torch_op.name}({arguments}) -> {returns}"


def _check_qualname(torch_op: TorchOp) -> None:
    namespace, separator, name = torch_op.qualname.partition("::")
    hint = 'write it "namespace::name", both ASCII identifiers, e.g. "my_plugin::soft_clip"'
    if not separator or not IDENTIFIER.fullmatch(namespace) or not IDENTIFIER.fullmatch(name):
        raise _plugin_error(torch_op, "the qualname is not namespace::name", hint=hint)
    if namespace in RESERVED_NAMESPACES:
        raise _plugin_error(
            torch_op,
            f"namespace {namespace!r} belongs to torch",
            hint=f"use a namespace of your own; reserved: {', '.join(sorted(RESERVED_NAMESPACES))}",
        )


def _checked_definition(context: "RegistryContext", torch_op: TorchOp) -> OperatorDefinition:
    definition = context.operators.get(torch_op.op_type)
    if definition is None:
        suggestion = nearest(torch_op.op_type, context.operators)
        raise RegistryError(
            f"TorchOp {torch_op.qualname!r}: operator {torch_op.op_type!r} is not registered in operators",
            hint=(f"{suggestion} Otherwise, " if suggestion else "")
            + "add its OperatorDefinition (context.operators.add) before register_torch_op",
        )
    _schema_of(definition, torch_op)
    if not callable(definition.reference):
        raise _plugin_error(
            torch_op,
            "its OperatorDefinition has no reference",
            hint="give the OperatorDefinition a reference: the torch op's CPU kernel runs it",
        )
    return definition


def register_torch_op(context: "RegistryContext", torch_op: TorchOp) -> None:
    """Declares `torch_op` in context.torch_ops, after checking it (without torch) so that a plugin
    fails when it loads rather than when a model is converted."""
    if not isinstance(torch_op, TorchOp):
        raise OperatorPluginError(
            f"register_torch_op takes a TorchOp, got {type(torch_op).__name__}",
            hint='register_torch_op(context, TorchOp("MY_OP", "my_plugin::my_op"))',
        )
    _check_qualname(torch_op)
    if torch_op.defined_by is not None and not _MODULE.fullmatch(torch_op.defined_by):
        raise _plugin_error(
            torch_op,
            f"defined_by={torch_op.defined_by!r} is not a module name",
            hint='name the Python module that defines the op with torch.library, e.g. defined_by="mylib.ops"',
        )
    definition = _checked_definition(context, torch_op)
    torch_schema_string(definition, torch_op)
    for key in context.torch_ops:
        other = context.torch_ops.get(key)
        if isinstance(other, TorchOp) and other.qualname == torch_op.qualname and key != torch_op.op_type:
            raise RegistryError(
                f"torch_ops: {torch_op.qualname!r} is already the torch op of operator {key!r} "
                f"(registered by {context.torch_ops.origin(key)})",
                hint="give each operator a torch op of its own",
            )
    context.torch_ops.register(torch_op.op_type, torch_op)
    # Its nodes in torch.export graphs convert onto the operator (arguments in the generated schema's order).
    context.torch_converters.register(torch_op.target, torch_op_converter(torch_op, definition.schema))


# --- torch: the ops, their kernels, and the Library objects that keep them defined ---

# torch.library.Library (FRAGMENT) by namespace: the definitions and kernels last as long as they do.
_LIBRARIES: dict[str, Any] = {}


@dataclasses.dataclass(frozen=True)
class _Binding:
    definition: OperatorDefinition
    torch_op: TorchOp
    arguments: tuple[TorchArgument, ...]


# What each generated op's kernels run, by qualname. The kernels look it up on every call, so a later
# define_torch_ops (another context, the same schema) rebinds them without registering new kernels.
_BINDINGS: dict[str, _Binding] = {}


def define_torch_ops(
    context: "RegistryContext", *, keys: Sequence[str] | None = None
) -> "dict[str, torch._ops.OpOverload]":
    """Defines the TorchOps of context.torch_ops (or those of `keys`, operator keys) in torch;
    returns their default overloads by operator key. Idempotent: an op already defined with the
    same schema is reused (and its kernels run the definition given last).

    An op that torch already has and that this module did not define (a torch.library op of the
    user's, imported first or named by `TorchOp.defined_by`, which is imported here) is adopted: its
    schema must equal the generated one, argument names, types, defaults, keyword-only status and
    return types included (else an OperatorPluginError names every difference); its own kernels are
    kept, and the generated fake or CPU kernel is registered only where it has none."""
    selected = list(context.torch_ops) if keys is None else list(keys)
    overloads = {}
    for key in selected:
        torch_op = context.torch_ops[key]
        definition = _checked_definition(context, torch_op)
        binding = _Binding(definition, torch_op, torch_arguments(definition, torch_op))
        if torch_op.defined_by is not None:
            _import_defining_module(torch_op)
        overloads[key] = _define(torch_op, torch_schema_string(definition, torch_op))
        _BINDINGS[torch_op.qualname] = binding
    return overloads


# The qualnames this module defined in torch (the others it found defined were adopted).
_DEFINED_HERE: set[str] = set()


def _import_defining_module(torch_op: TorchOp) -> None:
    import importlib

    module = torch_op.defined_by
    assert module is not None
    try:
        importlib.import_module(module)
    except ImportError as error:
        raise _plugin_error(
            torch_op,
            f"defined_by={module!r} cannot be imported: {error}",
            hint="make the module importable where the plugin is used: on PYTHONPATH outside Bazel, a dep of "
            "the py_binary or test (its py_library) in Bazel",
        ) from error
    if _find_overload(torch_op) is None:
        raise _plugin_error(
            torch_op,
            f"module {module!r} was imported but torch has no op {torch_op.qualname}",
            hint="define the op in that module (torch.library.custom_op or torch.library.define), "
            "or fix TorchOp's qualname or defined_by",
        )


def _find_overload(torch_op: TorchOp) -> "torch._ops.OpOverload | None":
    import torch

    packet = getattr(getattr(torch.ops, torch_op.namespace), torch_op.name, None)
    if packet is None or "default" not in packet.overloads():
        return None
    return packet.default


def _define(torch_op: TorchOp, schema_string: str) -> "torch._ops.OpOverload":
    import torch

    wanted = torch._C.parse_schema(f"{torch_op.namespace}::{schema_string}")
    existing = _find_overload(torch_op)
    if existing is not None and torch_op.qualname not in _DEFINED_HERE:
        _check_adopted_schema(torch_op, existing._schema, wanted)
        _add_missing_kernels(torch_op, existing)
        return existing
    if existing is not None:
        if str(existing._schema) != str(wanted):
            raise _plugin_error(
                torch_op,
                f"torch already has {existing._schema}, not {wanted}",
                hint="a torch op cannot be redefined in a process: restart it, or give the op another qualname",
            )
        if torch_op.qualname in _BINDINGS:
            return existing
    library = _LIBRARIES.get(torch_op.namespace)
    if library is None:
        library = _LIBRARIES[torch_op.namespace] = torch.library.Library(torch_op.namespace, "FRAGMENT")
    try:
        if existing is None:
            library.define(schema_string)
        library.impl(torch_op.name, _cpu_kernel(torch_op.qualname), "CPU")
        torch.library.register_fake(torch_op.qualname, _fake_kernel(torch_op.qualname), lib=library)
    except RuntimeError as error:
        raise _plugin_error(
            torch_op,
            f"torch refused its definition or kernels: {error}",
            hint="another library defines this op with kernels of its own; give the op another qualname",
        ) from error
    _DEFINED_HERE.add(torch_op.qualname)
    overload = _find_overload(torch_op)
    assert overload is not None
    return overload


def _argument_text(argument: Any) -> str:
    text = f"{argument.type} {argument.name}"
    return text + (f"={argument.default_value!r}" if argument.has_default_value() else "")


def _check_adopted_schema(torch_op: TorchOp, found: Any, wanted: Any) -> None:
    """An op torch already has must take the arguments the plugin's schema gives, by name, type, default and
    keyword-only status, and return what it returns: a .pt2 file records each call's arguments by the op's
    schema (keyword-only ones as keywords), and the converter reads them by the plugin's. Every difference
    is named."""
    problems = []
    if len(found.arguments) != len(wanted.arguments):
        names = ", ".join(a.name for a in found.arguments)
        ours = ", ".join(a.name for a in wanted.arguments)
        problems.append(
            f"torch's takes {len(found.arguments)} arguments ({names}), the plugin's {len(wanted.arguments)} ({ours})"
        )
    for position, (theirs, ours) in enumerate(zip(found.arguments, wanted.arguments, strict=False)):
        if theirs.name != ours.name:
            problems.append(f"argument {position} is {theirs.name!r} in torch, {ours.name!r} in the plugin")
            continue
        if str(theirs.type) != str(ours.type):
            problems.append(f"argument {position} {ours.name!r} is {theirs.type} in torch, {ours.type} in the plugin")
        if theirs.has_default_value() != ours.has_default_value() or (
            theirs.has_default_value() and theirs.default_value != ours.default_value
        ):
            theirs_default = repr(theirs.default_value) if theirs.has_default_value() else "no default"
            ours_default = repr(ours.default_value) if ours.has_default_value() else "no default"
            problems.append(
                f"argument {position} {ours.name!r} defaults to {theirs_default} in torch, {ours_default} in the plugin"
            )
        if theirs.kwarg_only != ours.kwarg_only:
            where = "torch" if theirs.kwarg_only else "the plugin"
            other = "the plugin" if theirs.kwarg_only else "torch"
            problems.append(
                f"argument {position} {ours.name!r} is keyword-only (after '*') in {where}, positional in {other}"
            )
    if len(found.returns) != len(wanted.returns):
        problems.append(f"torch's returns {len(found.returns)} values, the plugin's {len(wanted.returns)}")
    for position, (theirs, ours) in enumerate(zip(found.returns, wanted.returns, strict=False)):
        if str(theirs.type) != str(ours.type):
            problems.append(f"return {position} is {theirs.type} in torch, {ours.type} in the plugin")
    if problems:
        raise _plugin_error(
            torch_op,
            f"torch already has {found}, which differs from the plugin's schema ({wanted}): " + "; ".join(problems),
            hint="give the plugin's schema the op's arguments: the inputs in order, then the Attributes "
            "class's fields with the op's names, types and defaults, none keyword-only, and one Tensor per "
            "output (a .pt2 file records the calls by them)",
        )


def _add_missing_kernels(torch_op: TorchOp, overload: Any) -> None:
    """An adopted op keeps its own kernels; it gets the generated fake kernel (for torch.export) and CPU
    kernel (the reference) only where it has none."""
    import torch
    from torch._library.utils import has_fake_kernel

    name = torch_op.qualname
    has_cpu = any(
        torch._C._dispatch_has_kernel_for_dispatch_key(name, key)
        for key in ("CPU", "CompositeExplicitAutograd", "CompositeImplicitAutograd")
    )
    needs_fake = not has_fake_kernel(overload)
    if has_cpu and not needs_fake:
        return
    library = _LIBRARIES.get(torch_op.namespace)
    if library is None:
        library = _LIBRARIES[torch_op.namespace] = torch.library.Library(torch_op.namespace, "FRAGMENT")
    try:
        if not has_cpu:
            library.impl(torch_op.name, _cpu_kernel(name), "CPU")
        if needs_fake:
            torch.library.register_fake(name, _fake_kernel(name), lib=library)
    except RuntimeError as error:
        raise _plugin_error(
            torch_op,
            f"torch refused the generated kernels for the adopted op: {error}",
            hint="give the op its own CPU and fake kernels (torch.library.register_fake) where it defines it",
        ) from error


@dataclasses.dataclass
class _Call:
    """One call of a generated op as a one-node opbridge graph; `inputs` are the torch tensors in node input order."""

    graph: Graph
    node: Node
    inputs: list[Any]


def _attribute_value(spec: AttributeSpec, value: Any) -> Any:
    """A torch argument as the attribute class holds it (lists as tuples)."""
    if spec.type is AttributeType.FLOAT:
        return float(value)
    if spec.type is AttributeType.INTS:
        return tuple(int(v) for v in value)
    if spec.type is AttributeType.FLOATS:
        return tuple(float(v) for v in value)
    return value


def bind_arguments(arguments: Sequence[TorchArgument], args: Sequence[Any], kwargs: dict[str, Any]) -> list[Any]:
    """The value of each argument of a call (positional, by name, or its default), in schema order."""
    values = list(args)
    for argument in arguments[len(values) :]:
        if argument.name in kwargs:
            values.append(kwargs[argument.name])
        elif argument.has_default:
            values.append(argument.default)
        else:
            raise TypeError(f"missing argument {argument.name!r}")
    return values


def _call(binding: _Binding, args: Sequence[Any], kwargs: dict[str, Any]) -> _Call:
    definition, torch_op = binding.definition, binding.torch_op
    tensors: list[Tensor] = []
    node_inputs: list[int | None] = []
    inputs: list[Any] = []
    attributes: dict[str, Any] = {}

    def add_input(name: str, value: Any) -> None:
        if value is None:
            node_inputs.append(None)
            inputs.append(None)
            return
        dtype = opbridge_dtype(value.dtype)
        if dtype is None:
            raise UnsupportedTensorError(
                f"{torch_op.qualname} (operator {torch_op.op_type}): input {name!r} is {value.dtype}, "
                "which opbridge has no dtype for",
                hint=f"opbridge dtypes: {', '.join(d.value for d in _TORCH_DTYPE_NAMES)}",
            )
        tensor = Tensor(len(tensors), name, dtype, tuple(value.shape))
        tensors.append(tensor)
        node_inputs.append(tensor.index)
        inputs.append(value)

    for argument, value in zip(binding.arguments, bind_arguments(binding.arguments, args, kwargs), strict=True):
        if argument.spec is not None:
            attributes[argument.name] = _attribute_value(argument.spec, value)
        elif argument.parameter is not None and argument.parameter.option is ParameterOption.VARIADIC:
            for position, item in enumerate(value):
                add_input(f"{argument.name}[{position}]", item)
        else:
            add_input(argument.name, value)
    schema = definition.schema
    assert schema is not None
    outputs = []
    for parameter in schema.outputs:
        # Placeholders until the schema's rule gives their dtypes and shapes.
        tensors.append(Tensor(len(tensors), parameter.name, DType.FLOAT32, ()))
        outputs.append(tensors[-1].index)
    node_attributes = None if schema.attributes_class is None else schema.attributes_class(**attributes)
    node = Node(0, torch_op.qualname, definition.op_type, node_inputs, outputs, node_attributes)
    graph_inputs = [i for i in node_inputs if i is not None]
    return _Call(Graph(torch_op.qualname, tensors, [node], graph_inputs, outputs), node, inputs)


def _infer(binding: _Binding, call: _Call) -> list[TensorType]:
    schema = binding.definition.schema
    assert schema is not None
    inferred = infer_node(call.graph, call.node, schema)
    for tensor, result in zip(call.graph.node_outputs(call.node), inferred, strict=True):
        tensor.dtype, tensor.shape = result.dtype, tuple(result.shape)
    return inferred


def _fake_kernel(qualname: str) -> Any:
    def fake(*args: Any, **kwargs: Any) -> Any:
        """The schema's shape-and-dtype rule on the call (dims unknown until run time: unbacked sizes)."""
        import torch

        binding = _BINDINGS[qualname]
        call = _call(binding, args, kwargs)
        inferred = _infer(binding, call)
        like = next((t for t in call.inputs if t is not None), None)
        results = []
        for result in inferred:
            shape = [torch.library.get_ctx().new_dynamic_size() if size == -1 else size for size in result.shape]
            dtype = torch_dtype(result.dtype)
            results.append(torch.empty(shape, dtype=dtype) if like is None else like.new_empty(shape, dtype=dtype))
        return results[0] if len(results) == 1 else tuple(results)

    return fake


def to_numpy(tensor: "torch.Tensor") -> np.ndarray:
    """A NumPy copy of a CPU tensor (bfloat16 through ml_dtypes)."""
    import torch

    tensor = tensor.detach().cpu().contiguous()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(DType.BFLOAT16.numpy).copy()
    return tensor.numpy().copy()


def to_torch(array: np.ndarray, dtype: DType) -> "torch.Tensor":
    """A torch tensor owning a copy of `array` (never aliasing a kernel input)."""
    import torch

    array = np.array(array, dtype=dtype.numpy, order="C", copy=True)
    if dtype is DType.BFLOAT16:
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def _cpu_kernel(qualname: str) -> Any:
    def cpu(*args: Any, **kwargs: Any) -> Any:
        """The NumPy reference on the call, checked against the schema's rule as a conversion would."""
        binding = _BINDINGS[qualname]
        definition = binding.definition
        call = _call(binding, args, kwargs)
        inferred = _infer(binding, call)
        graph, node = call.graph, call.node
        values = [None if t is None else to_numpy(t) for t in call.inputs]
        reference_call = ReferenceCall(graph, node, graph.node_inputs(node), graph.node_outputs(node), values)
        reference = definition.reference
        fix = f"fix {getattr(reference, '__module__', '?')}.{getattr(reference, '__qualname__', reference)}"
        try:
            results = definition.reference(reference_call)
        except OpbridgeError:
            raise
        except Exception as error:
            raise OperatorPluginError(
                f"{node.describe()}: the reference implementation failed: {type(error).__name__}: {error}", hint=fix
            ) from error
        if len(results) != len(inferred):
            raise OperatorPluginError(
                f"{node.describe()}: the reference returned {len(results)} values for {len(inferred)} outputs", hint=fix
            )
        outputs = []
        for position, (result, expected) in enumerate(zip(results, inferred, strict=True)):
            array = np.asarray(result)
            if array.dtype != expected.dtype.numpy or not shapes_agree(tuple(expected.shape), array.shape):
                raise OperatorPluginError(
                    f"{node.describe()}: the reference's output {position} is {array.dtype}{list(array.shape)}; "
                    f"the schema infers {expected.dtype.value}{list(expected.shape)}",
                    hint=fix + " (or the schema's inference function) so that they agree",
                )
            outputs.append(to_torch(array, expected.dtype))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    return cpu
