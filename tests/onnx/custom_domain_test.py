# SPDX-License-Identifier: Apache-2.0
"""ONNX models with a custom-domain op: resolved only through a registered schema;
exported to the onnx package (checker, shape inference); inlined and run by onnxruntime."""

import dataclasses

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.errors import ModelFormatError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.ir import DType
from opbridge.ops.definition import OperatorDefinition
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import RegistryContext
from opbridge.schemas.function_body import function_body_reference
from opbridge.schemas.onnx_export import inline_custom_ops, register_onnx_schemas
from opbridge.schemas.opsets import OpsetDomain, UnknownSchemaError, schema_op_key
from opbridge.schemas.schema import (
    AttributeRef,
    FormalParameter,
    FunctionBody,
    FunctionNode,
    InferenceContext,
    OpSchema,
    ShapeInferenceError,
    TensorType,
    TypeConstraint,
)

DOMAIN = "com.example.scale"


@dataclasses.dataclass(frozen=True)
class ScaleAttributes:
    factor: float = 2.0  # y = x * factor


def infer_scale(ctx: InferenceContext) -> list[TensorType]:
    x = ctx.input(0)
    if ctx.attributes.factor == 0.0:
        raise ctx.fail("factor 0 would erase the input", hint="use a non-zero factor")
    return [TensorType(x.dtype, x.shape)]


def scale_schema(since_version: int = 1) -> OpSchema:
    return OpSchema(
        domain=DOMAIN,
        name="Scale",
        since_version=since_version,
        doc="y = x * factor",
        inputs=(FormalParameter("X", "T", "input"),),
        outputs=(FormalParameter("Y", "T", "X times factor"),),
        type_constraints=(TypeConstraint("T", (DType.FLOAT32,), "float"),),
        attributes_class=ScaleAttributes,
        infer=infer_scale,
        function_body=FunctionBody(
            nodes=(
                FunctionNode("Constant", (), ("factor",), attributes=(("value_float", AttributeRef("factor")),)),
                FunctionNode("Mul", ("X", "factor"), ("Y",)),
            ),
            opset_imports=(("", 13),),
        ),
    )


def register_scale(context: RegistryContext) -> None:
    schema = scale_schema()
    context.opset_domains.register(DOMAIN, OpsetDomain(DOMAIN, 1, 2))
    key = schema_op_key(DOMAIN, "Scale")
    context.operators.add(OperatorDefinition(op_type=key, reference=function_body_reference(schema), schema=schema))


def scale_model(version: int = 1, factor: float | None = None) -> onnx.ModelProto:
    attributes = {} if factor is None else {"factor": factor}
    node = helper.make_node("Scale", ["x"], ["y"], name="scale", domain=DOMAIN, **attributes)
    graph = helper.make_graph(
        [node],
        "scale_graph",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(DOMAIN, version)])


def test_a_custom_domain_is_rejected_until_its_schema_is_registered() -> None:
    data = scale_model().SerializeToString()
    with pytest.raises(UnknownSchemaError, match=r"domain 'com.example.scale' is not registered"):
        read_onnx_model(data, build_default_registry_context())
    graph = read_onnx_model(data, build_default_registry_context(customizers=[register_scale]))
    assert [n.op_type for n in graph.nodes] == ["COM_EXAMPLE_SCALE_SCALE"]
    assert graph.output_tensors()[0].shape == (2, 3)


def test_versions_select_the_highest_schema_not_above_the_import() -> None:
    def two_versions(context: RegistryContext) -> None:
        register_scale(context)
        schema = scale_schema(2)
        context.operators.add(
            OperatorDefinition(schema_op_key(DOMAIN, "Scale", 2), function_body_reference(schema), schema=schema)
        )

    context = build_default_registry_context(customizers=[two_versions])
    assert read_onnx_model(scale_model(1).SerializeToString(), context).nodes[0].op_type == "COM_EXAMPLE_SCALE_SCALE"
    assert read_onnx_model(scale_model(2).SerializeToString(), context).nodes[0].op_type == "COM_EXAMPLE_SCALE_SCALE_V2"
    with pytest.raises(UnknownSchemaError, match=r"covers versions 1..2"):
        read_onnx_model(scale_model(3).SerializeToString(), context)


def test_bad_attributes_and_inference_failures_name_the_node() -> None:
    context = build_default_registry_context(customizers=[register_scale])
    with pytest.raises(ShapeInferenceError, match=r'"scale".*factor 0 would erase the input'):
        read_onnx_model(scale_model(factor=0.0).SerializeToString(), context)
    model = scale_model()
    model.graph.node[0].attribute.append(helper.make_attribute("colour", 3))
    with pytest.raises(ModelFormatError, match=r"attribute 'colour'"):
        read_onnx_model(model.SerializeToString(), context)
    with pytest.raises(ModelFormatError, match=r"not a readable ONNX model"):
        read_onnx_model(b"\xff\xff garbage", context)


def test_exported_schema_passes_the_checker_and_inlined_model_matches_onnxruntime() -> None:
    import onnxruntime

    context = build_default_registry_context(customizers=[register_scale])
    model = scale_model(factor=-1.25)
    register_onnx_schemas(context)
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    output_type = inferred.graph.output[0].type.tensor_type
    assert output_type.elem_type == TensorProto.FLOAT
    assert [d.dim_value for d in output_type.shape.dim] == [2, 3]
    # The bad factor is caught by onnx's shape inference too, through the same inference function.
    with pytest.raises(onnx.shape_inference.InferenceError, match=r"factor 0"):
        onnx.shape_inference.infer_shapes(scale_model(factor=0.0), strict_mode=True)

    inlined = inline_custom_ops(model, context)
    assert [n.op_type for n in inlined.graph.node] == ["Constant", "Mul"]
    assert inlined.graph.node[0].attribute[0].f == -1.25
    onnx.checker.check_model(inlined, full_check=True)
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    session = onnxruntime.InferenceSession(inlined.SerializeToString(), providers=["CPUExecutionProvider"])
    (expected,) = session.run(None, {"x": x})
    graph = read_onnx_model(model.SerializeToString(), context)
    (actual,) = ReferenceInterpreter(graph, context).run([x])
    np.testing.assert_array_equal(actual, expected)
