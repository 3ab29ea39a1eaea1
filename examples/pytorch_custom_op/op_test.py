# SPDX-License-Identifier: Apache-2.0
"""ChannelShuffle's C kernel against its NumPy reference, on the same inputs.

The kernel runs in opbridge's native host through the generated adapter
(libchannel_shuffle_plugin.so), in onnxruntime through the generated custom-op library
(libchannel_shuffle_ort.so) and in OpenVINO through the generated extension
(libchannel_shuffle_openvino.so);
the emitted module's golden test (:channel_shuffle_module_golden_test) runs it
on x86_64, aarch64, Cortex-M55 and Cortex-M4.
"""

import os
import pathlib
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov
from channel_shuffle.model import drawn_parameters, make_model
from channel_shuffle.plugin import KERNEL, SCHEMA, customize_registry
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opbridge.backends.c.golden_inputs import DEFAULT_SEED, seeded_inputs
from opbridge.backends.host_plugins import CustomOpSession, NativePlugin
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.models import load_model
from opbridge.ir import Graph
from opbridge.registry import build_default_registry_context

CONTEXT = build_default_registry_context(customizers=[customize_registry])
PLUGIN = NativePlugin.load(os.environ["OPBRIDGE_OP_PLUGIN"])
GOLDEN_CASES = int(os.environ["OPBRIDGE_OP_GOLDEN_CASES"])  # custom_op(golden_cases = ...)
# One OpenVINO runtime for the module's tests, with the generated extension (custom_op's lib<name>_openvino.so).
OPENVINO = ov.Core()
OPENVINO.add_extension(os.path.abspath(os.environ["OPBRIDGE_OP_OPENVINO_EXTENSION"]))


@st.composite
def models(draw: st.DrawFn) -> tuple[bytes, tuple[int, ...]]:
    """A one-operator model of a drawn shape and parameters (model.py's drawn_parameters)."""
    shape = draw(hnp.array_shapes(min_dims=2, max_dims=4, max_side=6))
    return make_model(shape, **draw(drawn_parameters(shape))), shape


def load(model: bytes) -> Graph:
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "model.onnx"
        path.write_bytes(model)
        return load_model(path, CONTEXT)


def reference_outputs(model: bytes, x: np.ndarray) -> np.ndarray:
    (output,) = ReferenceInterpreter(load(model), CONTEXT).run([x])
    return output


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_the_c_kernel_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = load(model)
    (node,) = graph.nodes
    x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    (expected,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    # The host kernel takes the node's params as attributes, as the module takes them as constants.
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "channel_shuffle")
    try:
        (actual,) = kernel.compute([x])
    finally:
        kernel.release()
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


def test_on_the_golden_test_s_inputs_the_host_kernel_gives_its_expected_outputs() -> None:
    """:channel_shuffle_module_golden_test checks the emitted module on these inputs against these reference
    outputs on x86_64, aarch64, Cortex-M55 and Cortex-M4: the host kernel agreeing closes the triangle."""
    graph = load(pathlib.Path(os.environ["OPBRIDGE_OP_MODEL"]).read_bytes())
    (node,) = graph.nodes
    assert node.op_type == "CHANNEL_SHUFFLE"
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "channel_shuffle")
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
    x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    (ort_output,) = session.run(None, {"x": x})
    np.testing.assert_array_equal(ort_output, reference_outputs(model, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_model_in_opbridge_s_native_host_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    with CustomOpSession(os.environ["OPBRIDGE_OP_PLUGIN"], model, abi="opbridge") as session:
        (host_output,) = session.run([x])
    np.testing.assert_array_equal(host_output, reference_outputs(model, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data(), dtype=st.sampled_from([np.int8, np.float32]))
def test_openvino_with_the_generated_extension_equals_the_reference(data: st.DataObject, dtype: type) -> None:
    """Both dtypes the schema allows; the shape rule is Python code, so OpenVINO asks the kernel's C shape
    function (channel_shuffle_output_shape), which refuses what `infer` refuses."""
    model, shape = data.draw(models())
    if dtype is np.float32:
        proto = onnx.load_model_from_string(model)
        for value in (*proto.graph.input, *proto.graph.output):
            value.type.tensor_type.elem_type = onnx.TensorProto.FLOAT
        model = proto.SerializeToString()
        x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32)))
    else:
        x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    compiled = OPENVINO.compile_model(OPENVINO.read_model(model), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    np.testing.assert_array_equal(compiled([x])[0], reference_outputs(model, x), strict=True)
