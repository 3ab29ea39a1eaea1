# SPDX-License-Identifier: Apache-2.0
"""Function bodies: a schema's decomposition of its op into ONNX ops.

`to_onnx_function` gives the body as an onnx.FunctionProto in the op's own
domain, which is what a model carries (ModelProto.functions) so that
onnx.inliner can replace the custom node by standard ops and onnxruntime
can run it. `function_body_reference` runs that same body with the onnx
package's reference evaluator; it is the reference implementation of an op
that has a body and no NumPy reference of its own (e.g. one registered from
a shared library).
"""

from collections.abc import Callable
from typing import Any

import numpy as np

from opbridge.errors import OperatorPluginError
from opbridge.schemas.onnx_attributes import onnx_attribute_type, onnx_attribute_value
from opbridge.schemas.schema import AttributeRef, OpSchema, SchemaError


def _onnx() -> Any:
    import onnx  # imported on use: the compiler runs without the onnx package otherwise

    return onnx


def to_onnx_function(schema: OpSchema) -> Any:
    """The schema's body as an onnx.FunctionProto named (domain, name)."""
    if schema.function_body is None:
        raise SchemaError(f"schema {schema.describe()} has no function body")

    onnx = _onnx()
    specs = {spec.name: spec for spec in schema.attributes}
    nodes = []
    for node in schema.function_body.nodes:
        literals = {k: v for k, v in node.attributes if not isinstance(v, AttributeRef)}
        made = onnx.helper.make_node(
            node.op_type, list(node.inputs), list(node.outputs), domain=node.domain, **literals
        )
        for key, value in node.attributes:
            if isinstance(value, AttributeRef):
                reference = onnx.AttributeProto(name=key, ref_attr_name=value.name)
                reference.type = onnx_attribute_type(specs[value.name])
                made.attribute.append(reference)
        nodes.append(made)
    imports = [onnx.helper.make_opsetid(domain, version) for domain, version in schema.function_body.opset_imports]
    required = [spec.name for spec in schema.attributes if spec.required]
    defaults = [
        onnx.helper.make_attribute(spec.name, onnx_attribute_value(spec, spec.default))
        for spec in schema.attributes
        if not spec.required
    ]
    return onnx.helper.make_function(
        schema.domain,
        schema.name,
        [p.name for p in schema.inputs],
        [p.name for p in schema.outputs],
        nodes,
        imports,
        attributes=required,
        attribute_protos=defaults,
        doc_string=schema.doc,
    )


def single_node_model(
    schema: OpSchema, input_arrays: list[np.ndarray | None], output_count: int, attributes: Any = None
) -> Any:
    """A model of one node of `schema` (inputs typed like the arrays), carrying the body as a local function."""
    onnx = _onnx()
    graph_inputs, node_inputs = [], []
    for position, array in enumerate(input_arrays):
        if array is None:
            node_inputs.append("")
            continue
        name = f"input_{position}"
        element = onnx.helper.np_dtype_to_tensor_dtype(array.dtype)
        graph_inputs.append(onnx.helper.make_tensor_value_info(name, element, list(array.shape)))
        node_inputs.append(name)
    outputs = [f"output_{i}" for i in range(output_count)]

    values = {
        spec.name: onnx_attribute_value(spec, getattr(attributes, spec.name))
        for spec in schema.attributes
        if attributes is not None
    }
    node = onnx.helper.make_node(schema.name, node_inputs, outputs, domain=schema.domain, **values)
    graph = onnx.helper.make_graph(
        [node], schema.name, graph_inputs, [onnx.helper.make_empty_tensor_value_info(n) for n in outputs]
    )
    imports = dict(schema.function_body.opset_imports if schema.function_body else ())
    imports[schema.domain] = schema.since_version
    return onnx.helper.make_model(
        graph,
        opset_imports=[onnx.helper.make_opsetid(d, v) for d, v in imports.items()],
        functions=[to_onnx_function(schema)],
    )


def function_body_reference(schema: OpSchema) -> Callable[[Any], list[np.ndarray]]:
    """A reference implementation that evaluates the schema's body with onnx.reference."""
    if schema.function_body is None:
        raise SchemaError(f"schema {schema.describe()} has no function body to evaluate")

    def evaluate_body(call: Any) -> list[np.ndarray]:
        from onnx.reference import ReferenceEvaluator

        arrays = [None if v is None else np.asarray(v) for v in call.values]
        model = single_node_model(schema, arrays, len(call.outputs), call.attributes)
        feeds = {f"input_{i}": a for i, a in enumerate(arrays) if a is not None}
        try:
            results = ReferenceEvaluator(model).run(None, feeds)
        except Exception as error:
            raise OperatorPluginError(
                f"{call.node.describe()}: evaluating the function body of {schema.describe()} failed: "
                f"{type(error).__name__}: {error}",
                hint="check the body's nodes and opset imports",
            ) from error
        return [np.asarray(r, dtype=t.dtype.numpy) for r, t in zip(results, call.outputs, strict=True)]

    evaluate_body.__qualname__ = f"function_body_of_{schema.name}"
    return evaluate_body
