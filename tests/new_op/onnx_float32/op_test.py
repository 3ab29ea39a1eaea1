# SPDX-License-Identifier: Apache-2.0
"""OnnxFloat32's C kernel against its NumPy reference, on the same inputs.

The kernel runs in opbridge's native host through the generated adapter
(libonnx_float32_plugin.so), and in onnxruntime through the generated custom-op library;
the emitted module's golden test (:onnx_float32_module_golden_test) runs it
on x86_64, aarch64, Cortex-M55 and Cortex-M4.
"""

import os
import pathlib
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import helper
from onnx_float32.model import drawn_parameters, make_model
from onnx_float32.plugin import KERNEL, SCHEMA, customize_registry
from opbridge.backends.c.golden_inputs import DEFAULT_SEED, seeded_inputs
from opbridge.backends.host_plugins import CustomOpSession, NativePlugin
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.models import load_model
from opbridge.ir import Graph
from opbridge.registry import build_default_registry_context

CONTEXT = build_default_registry_context(customizers=[customize_registry])
PLUGIN = NativePlugin.load(os.environ["OPBRIDGE_OP_PLUGIN"])
GOLDEN_CASES = int(os.environ["OPBRIDGE_OP_GOLDEN_CASES"])  # custom_op(golden_cases = ...)


@st.composite
def models(draw: st.DrawFn) -> tuple[bytes, tuple[int, ...]]:
    """A one-operator model of a drawn shape and parameters (model.py's drawn_parameters)."""
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, max_side=6))
    return make_model(shape, **draw(drawn_parameters())), shape


def load(model: bytes) -> Graph:
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "model.onnx"
        path.write_bytes(model)
        return load_model(path, CONTEXT)


def reference_outputs(graph: Graph, x: np.ndarray) -> np.ndarray:
    (output,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    return output


def host_model(model: bytes, graph: Graph) -> bytes:
    """The model as onnxruntime and opbridge's native host run it: its node carries the kernel's params as
    attributes. The hosts fill each param from the node's attribute of its name, so params the plugin
    computes (KERNEL's param_values_of: from the tensors' quantization, say) are written into the node."""
    proto = onnx.load_model_from_string(model)
    (onnx_node,) = proto.graph.node
    params = KERNEL.param_values(graph, graph.nodes[0])
    kept = [attribute for attribute in onnx_node.attribute if attribute.name not in params]
    del onnx_node.attribute[:]
    onnx_node.attribute.extend([*kept, *(helper.make_attribute(name, value) for name, value in params.items())])
    return proto.SerializeToString()


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_the_c_kernel_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = load(model)
    (node,) = graph.nodes
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32)))
    (expected,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    # The host kernel takes the node's params as attributes, as the module takes them as constants.
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "onnx_float32")
    try:
        (actual,) = kernel.compute([x])
    finally:
        kernel.release()
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


def test_on_the_golden_test_s_inputs_the_host_kernel_gives_its_expected_outputs() -> None:
    """:onnx_float32_module_golden_test checks the emitted module on these inputs against these reference
    outputs on x86_64, aarch64, Cortex-M55 and Cortex-M4: the host kernel agreeing closes the triangle."""
    graph = load(pathlib.Path(os.environ["OPBRIDGE_OP_MODEL"]).read_bytes())
    (node,) = graph.nodes
    assert node.op_type == "ONNX_FLOAT32"
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "onnx_float32")
    try:
        for x in seeded_inputs(graph.input_tensors()[0], GOLDEN_CASES, seed=DEFAULT_SEED):
            (expected,) = interpreter.run([x])
            (actual,) = kernel.compute([x])
            np.testing.assert_array_equal(actual, expected)
    finally:
        kernel.release()


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_onnxruntime_with_the_generated_library_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = load(model)
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32)))
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(host_model(model, graph), options, providers=["CPUExecutionProvider"])
    (ort_output,) = session.run(None, {"x": x})
    np.testing.assert_array_equal(ort_output, reference_outputs(graph, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_model_in_opbridge_s_native_host_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = load(model)
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32)))
    with CustomOpSession(os.environ["OPBRIDGE_OP_PLUGIN"], host_model(model, graph), abi="opbridge") as session:
        (host_output,) = session.run([x])
    np.testing.assert_array_equal(host_output, reference_outputs(graph, x))
