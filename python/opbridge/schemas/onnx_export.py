# SPDX-License-Identifier: Apache-2.0
"""opbridge schemas in the `onnx` package: checker, shape inference and inlining.

`register_onnx_schemas(context)` registers every schema of a custom domain
(not opbridge's or ONNX's own) with onnx.defs.register_schema, including a
type-and-shape inference function that calls the schema's own, so
onnx.checker.check_model and onnx.shape_inference.infer_shapes accept and
type models that use the op. `inline_custom_ops(model, context)` adds the
schemas' function bodies to a model as local functions and inlines them,
giving a model of standard ops that onnxruntime runs.
"""

from typing import Any

from opbridge.errors import UnsupportedOperatorError
from opbridge.ir.onnx_dtypes import ONNX_DTYPES, ONNX_NUMBERS
from opbridge.schemas.function_body import to_onnx_function
from opbridge.schemas.onnx_attributes import ONNX_TYPE_STRINGS, attribute_from_onnx, onnx_attribute_proto
from opbridge.schemas.opsets import RESERVED_DOMAINS
from opbridge.schemas.schema import InferenceContext, InputInfo, OpSchema, ParameterOption, ShapeInferenceError

# (domain, name, since_version) registered by this process, so a re-export replaces them.
_REGISTERED: set[tuple[str, str, int]] = set()


def _inference_bridge(schema: OpSchema) -> Any:
    """onnx's inference callback, computed by the schema's own inference function."""
    import onnx

    def infer(ctx: Any) -> None:
        inputs: list[InputInfo | None] = []
        for position in range(ctx.get_num_inputs()):
            if not ctx.has_input(position):
                inputs.append(None)
                continue
            type_proto = ctx.get_input_type(position)
            if type_proto is None or not type_proto.HasField("tensor_type"):
                return  # nothing known yet: leave the outputs untyped
            tensor_type = type_proto.tensor_type
            dtype = ONNX_DTYPES.get(tensor_type.elem_type)
            if dtype is None or not tensor_type.HasField("shape"):
                return
            shape = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tensor_type.shape.dim)
            data = ctx.get_input_data(position)
            value = None if data is None else onnx.numpy_helper.to_array(data)
            inputs.append(InputInfo(dtype, shape, None, value))
        specs = schema.attributes
        values = {}
        for spec in specs:
            attribute = ctx.get_attribute(spec.name)
            if attribute is None:
                continue
            values[spec.name] = attribute_from_onnx(spec, onnx.helper.get_attribute_value(attribute), schema.name)
        try:
            attributes = None if schema.attributes_class is None else schema.attributes_class(**values)
            results = schema.infer(InferenceContext(f"{schema.domain}.{schema.name}", inputs, attributes))
        except ShapeInferenceError as error:
            raise onnx.shape_inference.InferenceError(error.message) from None
        for position, result in enumerate(results[: ctx.get_num_outputs()]):
            shape = [None if d < 0 else d for d in result.shape]
            ctx.set_output_type(position, onnx.helper.make_tensor_type_proto(ONNX_NUMBERS[result.dtype], shape))

    return infer


def onnx_schema(schema: OpSchema) -> Any:
    """The schema as an onnx.defs.OpSchema (with its inference function attached)."""
    import onnx

    options = onnx.defs.OpSchema.FormalParameterOption
    option = {
        ParameterOption.SINGLE: options.Single,
        ParameterOption.OPTIONAL: options.Optional,
        ParameterOption.VARIADIC: options.Variadic,
    }

    def parameters(formal: tuple) -> list[Any]:
        return [
            onnx.defs.OpSchema.FormalParameter(p.name, p.type_var, p.doc, param_option=option[p.option]) for p in formal
        ]

    exported = onnx.defs.OpSchema(
        schema.name,
        schema.domain,
        schema.since_version,
        schema.doc,
        inputs=parameters(schema.inputs),
        outputs=parameters(schema.outputs),
        type_constraints=[
            (c.type_var, [ONNX_TYPE_STRINGS[d.value] for d in c.allowed], c.doc) for c in schema.type_constraints
        ],
        attributes=[onnx_attribute_proto(spec) for spec in schema.attributes],
    )
    exported.set_type_and_shape_inference_function(_inference_bridge(schema))
    return exported


def custom_schemas(context: Any) -> list[OpSchema]:
    """The schemas of custom domains (opbridge's and ONNX's own domains are not exported)."""
    return [schema for schema, _ in context.schemas().schemas() if schema.domain not in RESERVED_DOMAINS]


def register_onnx_schemas(context: Any) -> list[OpSchema]:
    """Registers every custom schema of `context` in the onnx package (replacing earlier exports); returns them."""
    import onnx

    exported = custom_schemas(context)
    for schema in exported:
        key = (schema.domain, schema.name, schema.since_version)
        if key in _REGISTERED:
            onnx.defs.deregister_schema(schema.name, schema.since_version, schema.domain)
            _REGISTERED.discard(key)
        if onnx.defs.has(schema.name, schema.since_version, schema.domain):
            raise UnsupportedOperatorError(
                f"onnx already has a schema {schema.describe()} that opbridge did not register",
                hint="rename the domain or the op so it does not clash with another library's schema",
            )
        onnx.defs.register_schema(onnx_schema(schema))
        _REGISTERED.add(key)
    return exported


def inline_custom_ops(model: Any, context: Any) -> Any:
    """A copy of `model` where every custom-domain node with a function body is replaced by its body."""
    import onnx
    import onnx.inliner

    schemas = context.schemas()
    imports = {entry.domain: entry.version for entry in model.opset_import}
    functions = {}
    for node in model.graph.node:
        if node.domain in RESERVED_DOMAINS or (node.domain, node.op_type) in functions:
            continue
        schema, _ = schemas.select(node.domain, node.op_type, imports.get(node.domain, 0), f'node "{node.name}"')
        if schema.function_body is None:
            raise UnsupportedOperatorError(
                f'node "{node.name}" ({schema.describe()}) has no function body to inline',
                hint="give the schema a function_body, or run the model with opbridge instead",
            )

        functions[(node.domain, node.op_type)] = (schema, to_onnx_function(schema))
    with_functions = onnx.ModelProto()
    with_functions.CopyFrom(model)
    del with_functions.functions[:]
    for schema, function in functions.values():
        for entry in function.opset_import:
            present = {e.domain: e for e in with_functions.opset_import}
            if entry.domain not in present:
                with_functions.opset_import.append(onnx.helper.make_opsetid(entry.domain, entry.version))
            elif present[entry.domain].version != entry.version:
                # The inliner needs one version per domain: move the body to the model's
                # version when none of its ops changed in between.
                _check_body_ops_unchanged(schema, function, entry.domain, entry.version, present[entry.domain].version)
                entry.version = present[entry.domain].version
        with_functions.functions.append(function)
    return onnx.inliner.inline_local_functions(with_functions)


def _check_body_ops_unchanged(schema: OpSchema, function: Any, domain: str, body: int, model: int) -> None:
    import onnx

    for node in function.node:
        if node.domain != domain:
            continue
        try:
            same = (
                onnx.defs.get_schema(node.op_type, body, domain).since_version
                == onnx.defs.get_schema(node.op_type, model, domain).since_version
            )
        except onnx.defs.SchemaError:
            same = False
        if not same:
            raise UnsupportedOperatorError(
                f"{schema.describe()}'s body uses {domain or 'ai.onnx'}.{node.op_type} at version {body}, "
                f"which changed by version {model}, the model's",
                hint="export the model at the body's opset version, or give the schema a body for the newer opset",
            )
