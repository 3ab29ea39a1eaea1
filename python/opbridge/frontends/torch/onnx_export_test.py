# SPDX-License-Identifier: Apache-2.0
"""Tests of the ONNX export of generated torch ops: torch.onnx.export(dynamo=True) writes each as a
node of its operator's own domain, at the right opset import, and opbridge's ONNX frontend reads it back."""

import dataclasses
import pathlib

import numpy as np
import onnx
import pytest
import torch
from soft_clip.plugin import customize_registry as customize_soft_clip

from opbridge.errors import OperatorPluginError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.frontends.torch.library import define_torch_ops, register_torch_op
from opbridge.frontends.torch.onnx_export import custom_opsets, custom_translation_table
from opbridge.frontends.torch.spec import TorchOp
from opbridge.ir import DType
from opbridge.ops.definition import OperatorDefinition, ReferenceCall
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge.schemas.onnx_export import register_onnx_schemas
from opbridge.schemas.opsets import OpsetDomain
from opbridge.schemas.schema import (
    FormalParameter,
    InferenceContext,
    OpSchema,
    ParameterOption,
    TensorType,
    TypeConstraint,
    same_as_input,
)

DOMAIN = "com.example.torch_onnx_test"
NAMESPACE = "opbridge_onnx_test"


@dataclasses.dataclass(frozen=True)
class ShiftAddAttributes:
    shift: int = 1


def shift_add_reference(call: ReferenceCall) -> list[np.ndarray]:
    total = call.value(0).astype(np.int32) + call.value(1).astype(np.int32)
    return [np.clip(total >> call.attributes.shift, -128, 127).astype(np.int8)]


# Version 2 of the domain introduced ShiftAdd: the model must import the domain at 2.
SHIFT_ADD_SCHEMA = OpSchema(
    domain=DOMAIN,
    name="ShiftAdd",
    since_version=2,
    inputs=(FormalParameter("a", "T"), FormalParameter("b", "T")),
    outputs=(FormalParameter("y", "T"),),
    type_constraints=(TypeConstraint("T", (DType.INT8,)),),
    infer=same_as_input(),
    attributes_class=ShiftAddAttributes,
)


@dataclasses.dataclass(frozen=True)
class PairScaleAttributes:
    scales: tuple[float, ...] = (1.0, 2.0)
    negate: bool = False


def pair_scale_infer(ctx: InferenceContext) -> list[TensorType]:
    x = ctx.input(0)
    return [TensorType(x.dtype, x.shape), TensorType(x.dtype, x.shape)]


def pair_scale_reference(call: ReferenceCall) -> list[np.ndarray]:
    x = call.value(0)
    offset = call.values[1] if len(call.values) > 1 and call.values[1] is not None else np.float32(0)
    sign = np.float32(-1 if call.attributes.negate else 1)
    return [sign * (x * np.float32(scale) + offset) for scale in call.attributes.scales]


PAIR_SCALE_SCHEMA = OpSchema(
    domain=DOMAIN,
    name="PairScale",
    since_version=1,
    inputs=(FormalParameter("x", "T"), FormalParameter("offset", "T", option=ParameterOption.OPTIONAL)),
    outputs=(FormalParameter("y0", "T"), FormalParameter("y1", "T")),
    type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
    infer=pair_scale_infer,
    attributes_class=PairScaleAttributes,
)


def customize_test_ops(context: RegistryContext) -> None:
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 2))
    context.operators.add(OperatorDefinition("ONNX_TEST_SHIFT_ADD", shift_add_reference, schema=SHIFT_ADD_SCHEMA))
    context.operators.add(OperatorDefinition("ONNX_TEST_PAIR_SCALE", pair_scale_reference, schema=PAIR_SCALE_SCHEMA))
    register_torch_op(context, TorchOp("ONNX_TEST_SHIFT_ADD", f"{NAMESPACE}::shift_add"))
    register_torch_op(context, TorchOp("ONNX_TEST_PAIR_SCALE", f"{NAMESPACE}::pair_scale"))


def register_torch_ops(context: RegistryContext) -> None:
    register_torch_op(context, TorchOp("SOFT_CLIP", "opbridge_test::soft_clip"))
    # A built-in (opbridge domain): a torch op, but no ONNX node of its own to export.
    register_torch_op(context, TorchOp("RELU", f"{NAMESPACE}::relu"))


@pytest.fixture(scope="module")
def context() -> RegistryContext:
    return build_default_registry_context(customizers=[customize_soft_clip, customize_test_ops, register_torch_ops])


def export(context: RegistryContext, module: torch.nn.Module, args: tuple, directory: pathlib.Path) -> bytes:
    """torch.onnx.export with the context's table, written to a file and read back as bytes."""
    path = directory / "model.onnx"
    torch.onnx.export(
        module.eval(),
        args,
        str(path),
        dynamo=True,
        external_data=False,
        custom_translation_table=custom_translation_table(context),
    )
    return path.read_bytes()


def attributes(node: onnx.NodeProto) -> dict[str, object]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def imports(model: onnx.ModelProto) -> dict[str, int]:
    return {entry.domain: entry.version for entry in model.opset_import}


class SoftClipModule(torch.nn.Module):
    def __init__(self, limit: float | None) -> None:
        super().__init__()
        self.limit = limit

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.limit is None:
            return torch.ops.opbridge_test.soft_clip(x)
        return torch.ops.opbridge_test.soft_clip(x, self.limit)


@pytest.mark.parametrize(("limit", "expected"), [(2.5, 2.5), (None, 1.0)])
def test_soft_clip_exports_to_its_domain(
    context: RegistryContext, tmp_path: pathlib.Path, limit: float | None, expected: float
) -> None:
    data = export(context, SoftClipModule(limit), (torch.randn(1, 8),), tmp_path)
    model = onnx.load_model_from_string(data)
    (node,) = model.graph.node
    assert (node.domain, node.op_type) == ("com.example.soft_clip", "SoftClip")
    assert attributes(node) == {"limit": pytest.approx(expected)}
    assert imports(model)["com.example.soft_clip"] == 1

    graph = read_onnx_model(data, context)
    assert [n.op_type for n in graph.nodes] == ["SOFT_CLIP"]
    assert graph.nodes[0].attributes.limit == pytest.approx(expected)
    assert [(t.dtype, t.shape) for t in graph.output_tensors()] == [(DType.FLOAT32, (1, 8))]


class CustomOpsModule(torch.nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        y = torch.ops.opbridge_onnx_test.shift_add(a, b, 3)
        y0, y1 = torch.ops.opbridge_onnx_test.pair_scale(x, None, [0.5, -2.0], negate=True)
        return y, y0, y1


def test_two_ops_of_a_versioned_domain(context: RegistryContext, tmp_path: pathlib.Path) -> None:
    args = (
        torch.randint(-128, 128, (2, 4), dtype=torch.int8),
        torch.randint(-128, 128, (2, 4), dtype=torch.int8),
        torch.randn(3),
    )
    data = export(context, CustomOpsModule(), args, tmp_path)
    model = onnx.load_model_from_string(data)
    nodes = {node.op_type: node for node in model.graph.node}
    assert set(nodes) == {"ShiftAdd", "PairScale"}
    assert all(node.domain == DOMAIN for node in nodes.values())
    assert attributes(nodes["ShiftAdd"]) == {"shift": 3}
    assert attributes(nodes["PairScale"]) == {"scales": [0.5, -2.0], "negate": 1}
    assert len(nodes["PairScale"].input) == 1  # the omitted optional input is left off
    assert len(nodes["PairScale"].output) == 2
    # One import of the domain, at the version where every node finds its own schema.
    assert imports(model)[DOMAIN] == 2 == custom_opsets(context)[DOMAIN]

    # onnx's checker and shape inference, with the schemas registered, agree with the exported types.
    register_onnx_schemas(context)
    onnx.checker.check_model(model, full_check=True)

    graph = read_onnx_model(data, context)
    by_type = {node.op_type: node for node in graph.nodes}
    assert set(by_type) == {"ONNX_TEST_SHIFT_ADD", "ONNX_TEST_PAIR_SCALE"}
    assert by_type["ONNX_TEST_SHIFT_ADD"].attributes == ShiftAddAttributes(shift=3)
    assert by_type["ONNX_TEST_PAIR_SCALE"].attributes == PairScaleAttributes(scales=(0.5, -2.0), negate=True)
    assert [(t.dtype, t.shape) for t in graph.output_tensors()] == [
        (DType.INT8, (2, 4)),
        (DType.FLOAT32, (3,)),
        (DType.FLOAT32, (3,)),
    ]


def test_table_covers_custom_domains_only(context: RegistryContext) -> None:
    ops = define_torch_ops(context)
    table = custom_translation_table(context, ops)
    assert set(table) == {ops["SOFT_CLIP"], ops["ONNX_TEST_SHIFT_ADD"], ops["ONNX_TEST_PAIR_SCALE"]}
    assert ops["RELU"] not in table
    assert custom_opsets(context) == {"com.example.soft_clip": 1, DOMAIN: 2}
    # Only the ops asked for.
    some = {"SOFT_CLIP": ops["SOFT_CLIP"]}
    assert set(custom_translation_table(context, some)) == {ops["SOFT_CLIP"]}
    assert custom_opsets(context, ["SOFT_CLIP", "RELU"]) == {"com.example.soft_clip": 1}


def test_an_older_version_shadowed_by_a_newer_one_is_refused() -> None:
    domain = "com.example.torch_onnx_shadow"

    def schema(name: str, since_version: int) -> OpSchema:
        return OpSchema(
            domain,
            name,
            since_version,
            inputs=(FormalParameter("x", "T"),),
            outputs=(FormalParameter("y", "T"),),
            type_constraints=(TypeConstraint("T", (DType.FLOAT32,)),),
            infer=same_as_input(),
        )

    def customize(context: RegistryContext) -> None:
        context.opset_domains.register(domain, OpsetDomain(domain, 1, 2))
        for key, name, version in (("TWICE_V1", "Twice", 1), ("TWICE_V2", "Twice", 2), ("NEWER", "Newer", 2)):
            context.operators.add(OperatorDefinition(key, lambda call: [call.value(0)], schema=schema(name, version)))
        register_torch_op(context, TorchOp("TWICE_V1", f"{NAMESPACE}::twice_v1"))
        register_torch_op(context, TorchOp("NEWER", f"{NAMESPACE}::newer"))

    context = build_default_registry_context(customizers=[customize])
    with pytest.raises(OperatorPluginError, match=r"at version 2 selects operator 'TWICE_V2' for Twice"):
        custom_translation_table(context)
    # Alone, version 1 exports at version 1.
    assert set(custom_translation_table(context, define_torch_ops(context, keys=["TWICE_V1"])))
    assert custom_opsets(context, ["TWICE_V1"]) == {domain: 1}
