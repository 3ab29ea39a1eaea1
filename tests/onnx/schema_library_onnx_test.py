# SPDX-License-Identifier: Apache-2.0
"""An ONNX model using the example schema library's CopyInput: refused before the
library is loaded, converted after; the exported schema passes onnx.checker, and
the inlined model (CopyInput -> Identity) runs in onnxruntime and equals opbridge."""

import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from opbridge.backends.reference.interpreter import ReferenceInterpreter
from opbridge.errors import UnsupportedOperatorError
from opbridge.frontends.onnx.importer import read_onnx_model
from opbridge.registry import build_default_registry_context
from opbridge.schema_libraries import schema_library_customizer
from opbridge.schemas.onnx_export import inline_custom_ops, register_onnx_schemas
from opbridge.schemas.opsets import UnknownSchemaError

COPY_LIBRARY = os.path.abspath("examples/schema_library/libcopy_schemas.so")


def copy_model(element: int = TensorProto.INT16, onnx_opset: int = 13) -> onnx.ModelProto:
    nodes = [
        helper.make_node("CopyInput", ["x"], ["copied"], name="copy", domain="com.example.copy"),
        helper.make_node("Add", ["copied", "x"], ["y"], name="add"),
    ]
    graph = helper.make_graph(
        nodes,
        "copy_graph",
        [helper.make_tensor_value_info("x", element, [1, 5])],
        [helper.make_tensor_value_info("y", element, [1, 5])],
    )
    imports = [helper.make_opsetid("", onnx_opset), helper.make_opsetid("com.example.copy", 1)]
    return helper.make_model(graph, opset_imports=imports)


def test_copy_input_from_the_library_converts_checks_and_matches_onnxruntime() -> None:
    import onnxruntime

    model = copy_model(TensorProto.INT32)
    data = model.SerializeToString()
    with pytest.raises(UnknownSchemaError, match=r"domain 'com.example.copy' is not registered"):
        read_onnx_model(data, build_default_registry_context())

    context = build_default_registry_context(customizers=[schema_library_customizer(COPY_LIBRARY)])
    graph = read_onnx_model(data, context)
    assert [n.op_type for n in graph.nodes] == ["COM_EXAMPLE_COPY_COPYINPUT", "ADD"]

    register_onnx_schemas(context)
    onnx.checker.check_model(model, full_check=True)
    inlined = inline_custom_ops(model, context)
    assert [n.op_type for n in inlined.graph.node] == ["Identity", "Add"]
    x = np.array([[3, -7, 2**30, -(2**31), 12]], np.int32)
    session = onnxruntime.InferenceSession(inlined.SerializeToString(), providers=["CPUExecutionProvider"])
    (expected,) = session.run(None, {"x": x})
    (actual,) = ReferenceInterpreter(graph, context).run([x])
    np.testing.assert_array_equal(actual, expected)


def test_a_dtype_outside_the_library_schema_is_refused_naming_the_node() -> None:
    context = build_default_registry_context(customizers=[schema_library_customizer(COPY_LIBRARY)])
    with pytest.raises(Exception, match=r'"copy".*int64'):
        read_onnx_model(copy_model(TensorProto.INT64).SerializeToString(), context)


def test_inlining_into_a_newer_opset_whose_ops_changed_is_refused() -> None:
    # The body imports ai.onnx 13; Identity changed by opset 17 (new types), and the
    # inliner needs one version per domain, so the body cannot be moved there as is.
    context = build_default_registry_context(customizers=[schema_library_customizer(COPY_LIBRARY)])
    assert read_onnx_model(copy_model(TensorProto.INT32, onnx_opset=17).SerializeToString(), context).nodes
    with pytest.raises(UnsupportedOperatorError, match=r"ai.onnx.Identity at version 13, which changed by version 17"):
        inline_custom_ops(copy_model(TensorProto.INT32, onnx_opset=17), context)
