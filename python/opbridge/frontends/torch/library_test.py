# SPDX-License-Identifier: Apache-2.0
"""Tests of the generated torch.library ops: schema strings, opcheck, torch.export, kernels and errors.

Three ops: SoftClip (examples/soft_clip), a two-input int8 op with an int attribute, and a float op
with an optional input, list/bool/str attributes and two outputs, defined here."""

import dataclasses
import enum
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch
from soft_clip.plugin import customize_registry as customize_soft_clip

from opbridge.errors import OperatorPluginError, UnsupportedTensorError
from opbridge.frontends.torch.library import (
    define_torch_ops,
    opbridge_dtype,
    register_torch_op,
    torch_dtype,
    torch_schema_string,
)
from opbridge.frontends.torch.spec import TorchOp
from opbridge.ir import DType, Graph, Node, Tensor
from opbridge.keyed_registry import RegistryError
from opbridge.ops.definition import OperatorDefinition, ReferenceCall
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    ShapeInferenceError,
    TensorType,
    TypeConstraint,
    same_as_input,
)

DOMAIN = "com.example.torch_library_test"
NAMESPACE = "opbridge_library_test"
SOFT_CLIP_QUALNAME = "opbridge_test::soft_clip"


# --- SHIFT_ADD: y = saturate((a + b) >> shift), int8, two inputs of one shape ---


@dataclasses.dataclass(frozen=True)
class ShiftAddAttributes:
    shift: int = 1


def shift_add_infer(ctx: InferenceContext) -> list[TensorType]:
    a, b = ctx.input(0), ctx.input(1)
    if tuple(a.shape) != tuple(b.shape):
        raise ctx.fail(f"a {list(a.shape)} and b {list(b.shape)} differ in shape")
    if not 0 <= ctx.attributes.shift <= 7:
        raise ctx.fail(f"shift {ctx.attributes.shift} is outside 0..7")
    return [TensorType(a.dtype, a.shape)]


def shift_add_reference(call: ReferenceCall) -> list[np.ndarray]:
    total = call.value(0).astype(np.int32) + call.value(1).astype(np.int32)
    return [np.clip(total >> call.attributes.shift, -128, 127).astype(np.int8)]


SHIFT_ADD_SCHEMA = OpSchema(
    domain=DOMAIN,
    name="ShiftAdd",
    since_version=1,
    inputs=(FormalParameter("a", "T"), FormalParameter("b", "T")),
    outputs=(FormalParameter("y", "T"),),
    type_constraints=(TypeConstraint("T", (DType.INT8,)),),
    infer=shift_add_infer,
    attributes_class=ShiftAddAttributes,
)


# --- SCALE_PAIR: (x * scales[0] + offset, x * scales[1] + offset), optional offset, two outputs ---


@dataclasses.dataclass(frozen=True)
class ScalePairAttributes:
    scales: tuple[float, ...] = (1.0, 2.0)
    negate: bool = False
    label: str = 'say "hi"'


def scale_pair_infer(ctx: InferenceContext) -> list[TensorType]:
    x = ctx.input(0)
    if len(ctx.attributes.scales) != 2:
        raise ctx.fail(f"scales {ctx.attributes.scales} is not two values")
    return [TensorType(x.dtype, x.shape), TensorType(x.dtype, x.shape)]


def scale_pair_reference(call: ReferenceCall) -> list[np.ndarray]:
    x = call.value(0)
    offset = call.values[1] if len(call.values) > 1 and call.values[1] is not None else np.float32(0)
    sign = np.float32(-1 if call.attributes.negate else 1)
    return [sign * (x * np.float32(scale) + offset) for scale in call.attributes.scales]


SCALE_PAIR_SCHEMA = OpSchema(
    domain=DOMAIN,
    name="ScalePair",
    since_version=1,
    inputs=(FormalParameter("x", "T"), FormalParameter("offset", "T", option=ParameterOption.OPTIONAL)),
    outputs=(FormalParameter("y0", "T"), FormalParameter("y1", "T")),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
    infer=scale_pair_infer,
    attributes_class=ScalePairAttributes,
)


def customize_test_ops(context: RegistryContext) -> None:
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1))
    context.operators.add(OperatorDefinition("TEST_SHIFT_ADD", shift_add_reference, schema=SHIFT_ADD_SCHEMA))
    context.operators.add(OperatorDefinition("TEST_SCALE_PAIR", scale_pair_reference, schema=SCALE_PAIR_SCHEMA))
    register_torch_op(context, TorchOp("TEST_SHIFT_ADD", f"{NAMESPACE}::shift_add"))
    register_torch_op(context, TorchOp("TEST_SCALE_PAIR", f"{NAMESPACE}::scale_pair"))


def register_soft_clip(context: RegistryContext) -> None:
    register_torch_op(context, TorchOp("SOFT_CLIP", SOFT_CLIP_QUALNAME))


@pytest.fixture(scope="module")
def context() -> RegistryContext:
    return build_default_registry_context(customizers=[customize_soft_clip, register_soft_clip, customize_test_ops])


@pytest.fixture(scope="module")
def ops(context: RegistryContext) -> dict[str, torch._ops.OpOverload]:
    return define_torch_ops(context)


def int8(*shape: int, seed: int = 0) -> torch.Tensor:
    return torch.randint(-128, 128, shape, dtype=torch.int8, generator=torch.Generator().manual_seed(seed))


def floats(*shape: int, seed: int = 0) -> torch.Tensor:
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed)) * 3


def reference_outputs(
    context: RegistryContext, op_type: str, inputs: list[np.ndarray | None], attributes: object
) -> list[np.ndarray]:
    """The definition's reference run on a graph built by hand (not through the torch kernel)."""
    definition = context.operators[op_type]
    tensors = []
    node_inputs: list[int | None] = []
    for value in inputs:
        if value is None:
            node_inputs.append(None)
            continue
        tensors.append(Tensor(len(tensors), f"in{len(tensors)}", DType(value.dtype.name), value.shape))
        node_inputs.append(tensors[-1].index)
    graph_inputs = [t.index for t in tensors]
    outputs = []
    for parameter in definition.schema.outputs:
        tensors.append(Tensor(len(tensors), parameter.name, DType.FLOAT32, ()))
        outputs.append(tensors[-1].index)
    node = Node(0, "n", op_type, node_inputs, outputs, attributes)
    graph = Graph("g", tensors, [node], graph_inputs, outputs)
    values = [None if v is None else v for v in inputs]
    return definition.reference(ReferenceCall(graph, node, graph.node_inputs(node), graph.node_outputs(node), values))


# --- schema strings ---


def test_schema_strings(context: RegistryContext) -> None:
    def schema(key: str) -> str:
        return torch_schema_string(context.operators[key], context.torch_ops[key])

    assert schema("SOFT_CLIP") == "soft_clip(Tensor x, float limit=1.0) -> Tensor"
    assert schema("TEST_SHIFT_ADD") == "shift_add(Tensor a, Tensor b, int shift=1) -> Tensor"
    assert schema("TEST_SCALE_PAIR") == (
        "scale_pair(Tensor x, Tensor? offset=None, float[] scales=[1.0, 2.0], bool negate=False, "
        'str label="say \\"hi\\"") -> (Tensor, Tensor)'
    )


def test_generated_schemas_are_what_torch_holds(ops: dict[str, torch._ops.OpOverload]) -> None:
    assert str(ops["SOFT_CLIP"]._schema) == "opbridge_test::soft_clip(Tensor x, float limit=1.) -> Tensor"
    assert ops["TEST_SCALE_PAIR"]._schema.arguments[4].default_value == 'say "hi"'
    assert str(ops["SOFT_CLIP"]) == "opbridge_test.soft_clip.default"


def test_variadic_input_and_required_attribute() -> None:
    @dataclasses.dataclass(frozen=True)
    class Attributes:
        axis: int
        sizes: tuple[int, ...] = ()

    schema = OpSchema(
        DOMAIN,
        "Join",
        1,
        inputs=(FormalParameter("parts", "T", option=ParameterOption.VARIADIC),),
        outputs=(FormalParameter("y", "T"),),
        type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
        infer=same_as_input(),
        attributes_class=Attributes,
    )
    definition = OperatorDefinition("JOIN", lambda call: [], schema=schema)
    text = torch_schema_string(definition, TorchOp("JOIN", "ns::join"))
    assert text == "join(Tensor[] parts, int axis, int[] sizes=[]) -> Tensor"
    torch._C.parse_schema(f"ns::{text}")


def test_register_and_schema_string_do_not_import_torch() -> None:
    """Plugins register TorchOps in customize_registry, where torch may not be installed."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["torch"] = None  # any import of torch now fails
        from soft_clip.plugin import customize_registry
        from opbridge.frontends.torch.library import register_torch_op, torch_schema_string
        from opbridge.frontends.torch.spec import TorchOp
        from opbridge.registry import build_default_registry_context
        context = build_default_registry_context(
            customizers=[customize_registry, lambda c: register_torch_op(c, TorchOp("SOFT_CLIP", "ns::soft_clip"))]
        )
        print(torch_schema_string(context.operators["SOFT_CLIP"], context.torch_ops["SOFT_CLIP"]))
        """
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, env=environment
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "soft_clip(Tensor x, float limit=1.0) -> Tensor"


# --- opcheck ---

SAMPLES = [
    ("SOFT_CLIP", (floats(2, 3),), {}),
    ("SOFT_CLIP", (floats(4),), {"limit": 0.25}),
    ("SOFT_CLIP", (floats(1, 2, 3, 4), 3.0), {}),
    ("TEST_SHIFT_ADD", (int8(2, 5), int8(2, 5, seed=1)), {}),
    ("TEST_SHIFT_ADD", (int8(3, 4), int8(3, 4, seed=2), 0), {}),
    ("TEST_SHIFT_ADD", (int8(7), int8(7, seed=3)), {"shift": 3}),
    ("TEST_SCALE_PAIR", (floats(2, 3),), {}),
    ("TEST_SCALE_PAIR", (floats(2, 3), floats(2, 3, seed=1)), {"scales": [0.5, -4.0], "negate": True}),
    ("TEST_SCALE_PAIR", (floats(5), None, [3.0, 1.0]), {}),
]


@pytest.mark.parametrize(("key", "args", "kwargs"), SAMPLES, ids=[f"{s[0]}-{i}" for i, s in enumerate(SAMPLES)])
def test_opcheck(ops: dict[str, torch._ops.OpOverload], key: str, args: tuple, kwargs: dict) -> None:
    torch.library.opcheck(ops[key], args, kwargs)


# --- kernels ---


def test_cpu_kernel_equals_reference(context: RegistryContext, ops: dict[str, torch._ops.OpOverload]) -> None:
    soft_clip_attributes = context.operators["SOFT_CLIP"].schema.attributes_class
    x = floats(3, 4)
    (expected,) = reference_outputs(context, "SOFT_CLIP", [x.numpy()], soft_clip_attributes(limit=2.0))
    result = ops["SOFT_CLIP"](x, 2.0)
    assert result.dtype == torch.float32
    np.testing.assert_array_equal(result.numpy(), expected)

    a, b = int8(4, 4), int8(4, 4, seed=1)
    (expected,) = reference_outputs(context, "TEST_SHIFT_ADD", [a.numpy(), b.numpy()], ShiftAddAttributes(shift=2))
    result = torch.ops.opbridge_library_test.shift_add(a, b, shift=2)
    assert result.dtype == torch.int8
    np.testing.assert_array_equal(result.numpy(), expected)
    wide = (a.to(torch.int32) + b.to(torch.int32)) >> 2
    np.testing.assert_array_equal(result.numpy(), wide.clamp(-128, 127).to(torch.int8).numpy())

    x, offset = floats(2, 2), floats(2, 2, seed=5)
    attributes = ScalePairAttributes(scales=(3.0, -1.0), negate=True)
    expected = reference_outputs(context, "TEST_SCALE_PAIR", [x.numpy(), offset.numpy()], attributes)
    y0, y1 = ops["TEST_SCALE_PAIR"](x, offset, [3.0, -1.0], True)
    np.testing.assert_array_equal(y0.numpy(), expected[0])
    np.testing.assert_array_equal(y1.numpy(), expected[1])


def test_outputs_do_not_alias_inputs(ops: dict[str, torch._ops.OpOverload]) -> None:
    x = floats(3)
    (y0, _) = ops["TEST_SCALE_PAIR"](x, None, [1.0, 1.0])
    assert y0.data_ptr() != x.data_ptr()
    torch.testing.assert_close(y0, x)


def test_shape_rule_violation_raises_the_opbridge_error(ops: dict[str, torch._ops.OpOverload]) -> None:
    with pytest.raises(ShapeInferenceError, match=r'node 0 \(SOFT_CLIP "opbridge_test::soft_clip"\): limit -1.0'):
        ops["SOFT_CLIP"](floats(2), -1.0)
    with pytest.raises(ShapeInferenceError, match=r"limit 0\.0 is not positive"):
        ops["SOFT_CLIP"](floats(2), limit=0.0)
    with pytest.raises(ShapeInferenceError, match=r"differ in shape"):
        ops["TEST_SHIFT_ADD"](int8(2), int8(3))
    # The schema's dtype constraint: T is int8 only.
    with pytest.raises(ShapeInferenceError, match=r"allows T in \{int8\}"):
        ops["TEST_SHIFT_ADD"](floats(2), floats(2))
    # The fake kernel runs the same rule.
    with torch._subclasses.fake_tensor.FakeTensorMode() as mode:
        fake = mode.from_tensor(floats(2))
        with pytest.raises(ShapeInferenceError, match=r"limit -1\.0 is not positive"):
            ops["SOFT_CLIP"](fake, -1.0)


def test_unsupported_torch_dtype(ops: dict[str, torch._ops.OpOverload]) -> None:
    with pytest.raises(UnsupportedTensorError, match=r"input 'x' is torch.complex64"):
        ops["SOFT_CLIP"](torch.zeros(2, dtype=torch.complex64))


def test_dtype_table_round_trips() -> None:
    for dtype in DType:
        assert opbridge_dtype(torch_dtype(dtype)) is dtype
    for name in ("float32", "int8", "int16", "int32", "int64", "uint8", "bool", "float64"):
        assert torch_dtype(DType(name)) == getattr(torch, name)
    assert opbridge_dtype(torch.complex64) is None


# --- torch.export ---


class SoftClipModule(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.opbridge_test.soft_clip(torch.relu(x), 2.0) * 2


class ShiftAddModule(torch.nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.ops.opbridge_library_test.shift_add(a, b, shift=2)


class ScalePairModule(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return torch.ops.opbridge_library_test.scale_pair(x, None, [2.0, 0.5])


def custom_nodes(program: torch.export.ExportedProgram, op: torch._ops.OpOverload) -> list[torch.fx.Node]:
    return [n for n in program.graph.nodes if n.op == "call_function" and n.target is op]


@pytest.mark.parametrize("decompose", [False, True])
def test_export_keeps_the_op_with_fake_shapes(ops: dict[str, torch._ops.OpOverload], decompose: bool) -> None:
    cases = [
        (SoftClipModule(), (floats(2, 3, 4),), ops["SOFT_CLIP"], [((2, 3, 4), torch.float32)]),
        (ShiftAddModule(), (int8(5, 6), int8(5, 6, seed=1)), ops["TEST_SHIFT_ADD"], [((5, 6), torch.int8)]),
        (ScalePairModule(), (floats(7),), ops["TEST_SCALE_PAIR"], [((7,), torch.float32)] * 2),
    ]
    for module, args, op, expected in cases:
        program = torch.export.export(module, args)
        if decompose:
            program = program.run_decompositions()
        (node,) = custom_nodes(program, op)
        assert node.target is getattr(getattr(torch.ops, op.namespace), op._opname).default
        values = node.meta["val"] if isinstance(node.meta["val"], tuple | list) else [node.meta["val"]]
        assert [(tuple(v.shape), v.dtype) for v in values] == expected
        torch.testing.assert_close(program.module()(*args), module(*args))


def test_export_with_dynamic_shapes_runs_the_rule_on_symbols(ops: dict[str, torch._ops.OpOverload]) -> None:
    batch = torch.export.Dim("batch", min=2, max=64)
    program = torch.export.export(SoftClipModule(), (floats(4, 3),), dynamic_shapes=({0: batch},))
    (node,) = custom_nodes(program, ops["SOFT_CLIP"])
    (placeholder,) = program.graph.find_nodes(op="placeholder")
    size = node.meta["val"].shape[0]
    assert isinstance(size, torch.SymInt)
    assert str(size) == str(placeholder.meta["val"].shape[0])
    assert node.meta["val"].shape[1] == 3


def test_export_of_a_shape_rule_violation_raises_the_opbridge_error() -> None:
    class Bad(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.ops.opbridge_test.soft_clip(x, -2.0)

    with pytest.raises(ShapeInferenceError, match=r"limit -2\.0 is not positive"):
        torch.export.export(Bad(), (floats(3),))


# --- define_torch_ops: idempotence ---


def test_define_is_idempotent_and_rebinds(context: RegistryContext, ops: dict[str, torch._ops.OpOverload]) -> None:
    again = define_torch_ops(context, keys=["SOFT_CLIP"])
    assert again == {"SOFT_CLIP": ops["SOFT_CLIP"]}
    # Another context with the same schema: the kernels run its reference from now on.
    halved = dataclasses.replace(
        context.operators["SOFT_CLIP"], reference=lambda call: [call.value(0) * np.float32(0.5)]
    )
    other = RegistryContext()
    other.operators.add(halved)
    register_soft_clip(other)
    try:
        assert define_torch_ops(other) == {"SOFT_CLIP": ops["SOFT_CLIP"]}
        torch.testing.assert_close(ops["SOFT_CLIP"](torch.full((2,), 2.0)), torch.full((2,), 1.0))
    finally:
        define_torch_ops(context, keys=["SOFT_CLIP"])
    torch.testing.assert_close(ops["SOFT_CLIP"](torch.full((2,), 2.0)), torch.full((2,), 2.0 / 3.0))


def test_redefinition_with_another_schema_is_refused() -> None:
    def context_with(attributes_class: type) -> RegistryContext:
        schema = OpSchema(
            DOMAIN,
            "Conflict",
            1,
            inputs=(FormalParameter("x", "T"),),
            outputs=(FormalParameter("y", "T"),),
            type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
            infer=same_as_input(),
            attributes_class=attributes_class,
        )
        context = RegistryContext()
        context.operators.add(OperatorDefinition("CONFLICT", lambda call: [call.value(0)], schema=schema))
        register_torch_op(context, TorchOp("CONFLICT", f"{NAMESPACE}::conflict"))
        return context

    @dataclasses.dataclass(frozen=True)
    class First:
        alpha: float = 1.0

    @dataclasses.dataclass(frozen=True)
    class Second:
        alpha: int = 1

    define_torch_ops(context_with(First))
    with pytest.raises(OperatorPluginError, match=r"torch already has .*conflict\(Tensor x, float alpha=1\.\)"):
        define_torch_ops(context_with(Second))


def test_define_unknown_key(context: RegistryContext) -> None:
    with pytest.raises(RegistryError, match=r"torch_ops: 'SOFT_CLIPP' is not registered[\s\S]*SOFT_CLIP"):
        define_torch_ops(context, keys=["SOFT_CLIPP"])


# --- register_torch_op errors ---


def bare_context() -> RegistryContext:
    context = RegistryContext()
    customize_soft_clip(context)
    return context


@pytest.mark.parametrize(
    "qualname",
    ["soft_clip", "ns:soft_clip", "ns::", "::soft_clip", "my-ns::soft_clip", "ns::soft.clip", "ns::a::b", "ns::1op"],
)
def test_bad_qualname(qualname: str) -> None:
    with pytest.raises(OperatorPluginError, match=r"is not namespace::name"):
        register_torch_op(bare_context(), TorchOp("SOFT_CLIP", qualname))


def test_reserved_namespace() -> None:
    with pytest.raises(OperatorPluginError, match=r"namespace 'aten' belongs to torch"):
        register_torch_op(bare_context(), TorchOp("SOFT_CLIP", "aten::soft_clip"))


def test_unknown_operator_key() -> None:
    with pytest.raises(RegistryError, match=r"operator 'SOFT_CLP' is not registered[\s\S]*did you mean 'SOFT_CLIP'"):
        register_torch_op(bare_context(), TorchOp("SOFT_CLP", "ns::soft_clip"))


def test_missing_schema_or_reference() -> None:
    context = bare_context()
    context.operators.add(OperatorDefinition("NO_SCHEMA", lambda call: []))
    with pytest.raises(OperatorPluginError, match=r"'NO_SCHEMA'.*has no schema"):
        register_torch_op(context, TorchOp("NO_SCHEMA", "ns::no_schema"))
    no_reference = dataclasses.replace(context.operators["SOFT_CLIP"], op_type="NO_REFERENCE", reference=None)
    context.operators.add(no_reference)
    with pytest.raises(OperatorPluginError, match=r"'NO_REFERENCE'.*has no reference"):
        register_torch_op(context, TorchOp("NO_REFERENCE", "ns::no_reference"))


def test_one_qualname_per_operator() -> None:
    context = bare_context()
    context.operators.add(dataclasses.replace(context.operators["SOFT_CLIP"], op_type="SOFT_CLIP_2"))
    register_torch_op(context, TorchOp("SOFT_CLIP", "ns::soft_clip"))
    with pytest.raises(RegistryError, match=r"'ns::soft_clip' is already the torch op of operator 'SOFT_CLIP'"):
        register_torch_op(context, TorchOp("SOFT_CLIP_2", "ns::soft_clip"))
    with pytest.raises(RegistryError, match=r"'SOFT_CLIP' is already registered"):
        register_torch_op(context, TorchOp("SOFT_CLIP", "ns::soft_clip_again"))


class Mode(enum.Enum):
    FAST = 0


@dataclasses.dataclass(frozen=True)
class EnumAttributes:
    mode: Mode = Mode.FAST


@dataclasses.dataclass(frozen=True)
class StringsAttributes:
    names: tuple[str, ...] = ("a",)


@dataclasses.dataclass(frozen=True)
class InfiniteAttributes:
    bound: float = float("inf")


@dataclasses.dataclass(frozen=True, kw_only=True)
class RequiredAfterDefaultAttributes:
    alpha: float = 1.0
    beta: int


@pytest.mark.parametrize(
    ("attributes_class", "message"),
    [
        (EnumAttributes, r"attribute 'mode' \(enum\) has no torch schema type"),
        (StringsAttributes, r"attribute 'names' \(strings\) has no torch schema type"),
        (InfiniteAttributes, r"attribute 'bound' \(float\) defaults to inf"),
        (RequiredAfterDefaultAttributes, r"attribute 'beta' is required but follows an argument with a default"),
    ],
)
def test_unsupported_attribute(attributes_class: type, message: str) -> None:
    schema = OpSchema(
        DOMAIN,
        "Odd",
        1,
        inputs=(FormalParameter("x", "T"),),
        outputs=(FormalParameter("y", "T"),),
        type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
        infer=same_as_input(),
        attributes_class=attributes_class,
    )
    context = bare_context()
    context.operators.add(OperatorDefinition("ODD", lambda call: [], schema=schema))
    with pytest.raises(OperatorPluginError, match=r"TorchOp 'ns::odd' \(operator 'ODD'\): " + message):
        register_torch_op(context, TorchOp("ODD", "ns::odd"))
    assert "ODD" not in context.torch_ops


def test_variadic_output_is_refused() -> None:
    schema = OpSchema(
        DOMAIN,
        "Split",
        1,
        inputs=(FormalParameter("x", "T"),),
        outputs=(FormalParameter("parts", "T", option=ParameterOption.VARIADIC),),
        type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
        infer=same_as_input(),
    )
    context = bare_context()
    context.operators.add(OperatorDefinition("SPLIT_N", lambda call: [], schema=schema))
    with pytest.raises(OperatorPluginError, match="variadic output"):
        register_torch_op(context, TorchOp("SPLIT_N", "ns::split_n"))


# --- a torch.library op of the user's, adopted ---


@dataclasses.dataclass(frozen=True)
class SoftThresholdAttributes:
    threshold: float = 0.5


def soft_threshold_reference(call: ReferenceCall) -> list[np.ndarray]:
    x = call.value(0)
    shrunk = np.maximum(np.abs(x) - np.float32(call.attributes.threshold), np.float32(0))
    return [(np.sign(x) * shrunk).astype(np.float32)]


SOFT_THRESHOLD_SCHEMA = OpSchema(
    DOMAIN,
    "SoftThreshold",
    1,
    inputs=(FormalParameter("x", "T"),),
    outputs=(FormalParameter("y", "T"),),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
    infer=same_as_input(),
    attributes_class=SoftThresholdAttributes,
)

USER_MODULE = """
import torch

CALLS = []


@torch.library.custom_op("{namespace}::soft_threshold", mutates_args=())
def soft_threshold(x: torch.Tensor, {star}{argument}: float = {default}) -> {returns}:
    CALLS.append(x.shape)
    return torch.sign(x) * torch.clamp(torch.abs(x) - {argument}, min=0)


@soft_threshold.register_fake
def _(x, {star}{argument}={default}):
    return torch.empty_like(x)
"""


def user_op_context(namespace: str, defined_by: str | None) -> RegistryContext:
    def customize(context: RegistryContext) -> None:
        context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 1))
        context.operators.add(
            OperatorDefinition("SOFT_THRESHOLD", soft_threshold_reference, schema=SOFT_THRESHOLD_SCHEMA)
        )
        register_torch_op(context, TorchOp("SOFT_THRESHOLD", f"{namespace}::soft_threshold", defined_by=defined_by))

    return build_default_registry_context(customizers=[customize])


def write_user_module(tmp_path, monkeypatch: pytest.MonkeyPatch, name: str, **fields: object) -> None:  # type: ignore[no-untyped-def]
    values = {"namespace": name, "argument": "threshold", "default": "0.5", "star": "", "returns": "torch.Tensor"}
    values.update(fields)
    (tmp_path / f"{name}.py").write_text(USER_MODULE.format(**values))
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.parametrize("order", ["plugin_first", "user_first"])
def test_a_users_own_torch_library_op_is_adopted_in_either_import_order(
    tmp_path, monkeypatch: pytest.MonkeyPatch, order: str
) -> None:  # type: ignore[no-untyped-def]
    """The plugin names the module that defines the op (TorchOp.defined_by): define_torch_ops imports it and
    adopts its op, whichever comes first; the op keeps its own kernels, and a .pt2 of a model calling it
    converts."""
    import importlib

    from opbridge.backends.reference import ReferenceInterpreter
    from opbridge.frontends.torch.program import load_torch_program

    name = f"user_ops_{order}"
    write_user_module(tmp_path, monkeypatch, name)
    context = user_op_context(name, defined_by=name)
    if order == "user_first":
        user = importlib.import_module(name)
        define_torch_ops(context)
    else:
        define_torch_ops(context)
        user = importlib.import_module(name)  # before: torch's "Tried to register an operator ... multiple times"
    op = getattr(torch.ops, name).soft_threshold
    x = floats(2, 5)
    y = op(x, 0.25)
    assert [x.shape] == user.CALLS  # the user's own CPU kernel ran, not the generated one
    (expected,) = reference_outputs(context, "SOFT_THRESHOLD", [x.numpy()], SoftThresholdAttributes(0.25))
    torch.testing.assert_close(y, torch.from_numpy(expected))

    class Model(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return op(x * 2.0, 0.75)

    path = tmp_path / "model.pt2"
    torch.export.save(torch.export.export(Model(), (x,)), str(path))
    graph = load_torch_program(path, context)
    assert [node.op_type for node in graph.nodes] == ["MUL", "SOFT_THRESHOLD"]
    (ours,) = ReferenceInterpreter(graph, context).run([x.numpy()])
    torch.testing.assert_close(torch.from_numpy(ours), Model()(x))


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"argument": "t"}, r"argument 1 is 't' in torch, 'threshold' in the plugin"),
        ({"default": "0.25"}, r"argument 1 'threshold' defaults to 0\.25 in torch, 0\.5 in the plugin"),
        ({"star": "*, "}, r"argument 1 'threshold' is keyword-only \(after '\*'\) in torch, positional in the plugin"),
        ({"returns": "list[torch.Tensor]"}, r"return 0 is List\[Tensor\] in torch, Tensor in the plugin"),
        (
            {"star": "*, ", "default": "0.25"},
            r"defaults to 0\.25 in torch, 0\.5 in the plugin; argument 1 'threshold' is keyword-only",
        ),
    ],
)
def test_an_adopted_op_whose_arguments_differ_from_the_plugin_s_schema_is_refused_naming_the_difference(
    tmp_path, monkeypatch: pytest.MonkeyPatch, fields: dict[str, str], problem: str
) -> None:  # type: ignore[no-untyped-def]
    name = f"user_ops_{'_'.join(fields)}"
    write_user_module(tmp_path, monkeypatch, name, **fields)
    with pytest.raises(OperatorPluginError, match=problem) as raised:
        define_torch_ops(user_op_context(name, defined_by=name))
    assert "Attributes class's fields with the op's names, types and defaults" in raised.value.hint


def test_defined_by_a_module_that_is_missing_or_defines_no_op_is_named(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(OperatorPluginError, match=r"defined_by='no_such_user_module' cannot be imported") as raised:
        define_torch_ops(user_op_context("user_ops_missing", defined_by="no_such_user_module"))
    assert "PYTHONPATH" in raised.value.hint
    (tmp_path / "user_ops_empty.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(OperatorPluginError, match=r"'user_ops_empty' was imported but torch has no op"):
        define_torch_ops(user_op_context("user_ops_empty", defined_by="user_ops_empty"))
    with pytest.raises(OperatorPluginError, match=r"defined_by='my ops' is not a module name"):
        user_op_context("user_ops_bad", defined_by="my ops")
