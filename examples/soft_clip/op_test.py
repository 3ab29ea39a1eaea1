# SPDX-License-Identifier: Apache-2.0
"""SoftClip's C kernel against its NumPy reference, on the same inputs.

The kernel runs in opbridge's native host through the generated adapter
(libsoft_clip_plugin.so), in onnxruntime through the generated custom-op library
(libsoft_clip_ort.so) and in OpenVINO through the generated extension
(libsoft_clip_openvino.so);
the emitted module's golden test (:soft_clip_module_golden_test) runs it
on x86_64, aarch64, Cortex-M55 and Cortex-M4.
"""

import os
import pathlib
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from opbridge.backends.c.golden_inputs import DEFAULT_SEED, seeded_inputs
from opbridge.backends.host_plugins import CustomOpSession, NativePlugin
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.frontends.models import load_model
from opbridge.ir import Graph
from opbridge.registry import build_default_registry_context
from opbridge_testing.single_op import run_golden_program, with_float_ulp_tolerance
from soft_clip.model import drawn_parameters, make_model
from soft_clip.plugin import KERNEL, SCHEMA, customize_registry

CONTEXT = build_default_registry_context(customizers=[customize_registry])
PLUGIN = NativePlugin.load(os.environ["OPBRIDGE_OP_PLUGIN"])
GOLDEN_CASES = int(os.environ["OPBRIDGE_OP_GOLDEN_CASES"])  # custom_op(golden_cases = ...)
# One OpenVINO runtime for the module's tests, with the generated extension (custom_op's lib<name>_openvino.so);
# float32 stays float32 on every CPU (some would otherwise infer in bf16).
OPENVINO = ov.Core()
OPENVINO.add_extension(os.path.abspath(os.environ["OPBRIDGE_OP_OPENVINO_EXTENSION"]))
OPENVINO_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}


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


def reference_outputs(model: bytes, x: np.ndarray) -> np.ndarray:
    (output,) = ReferenceInterpreter(load(model), CONTEXT).run([x])
    return output


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
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "soft_clip")
    try:
        (actual,) = kernel.compute([x])
    finally:
        kernel.release()
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


def test_on_the_golden_test_s_inputs_the_host_kernel_gives_its_expected_outputs() -> None:
    """:soft_clip_module_golden_test checks the emitted module on these inputs against these reference
    outputs on x86_64, aarch64, Cortex-M55 and Cortex-M4: the host kernel agreeing closes the triangle."""
    graph = load(pathlib.Path(os.environ["OPBRIDGE_OP_MODEL"]).read_bytes())
    (node,) = graph.nodes
    assert node.op_type == "SOFT_CLIP"
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "soft_clip")
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
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32)))
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    (ort_output,) = session.run(None, {"x": x})
    np.testing.assert_array_equal(ort_output, reference_outputs(model, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_model_in_opbridge_s_native_host_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32)))
    with CustomOpSession(os.environ["OPBRIDGE_OP_PLUGIN"], model, abi="opbridge") as session:
        (host_output,) = session.run([x])
    np.testing.assert_array_equal(host_output, reference_outputs(model, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_openvino_with_the_generated_extension_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    x = data.draw(hnp.arrays(np.float32, shape, elements=st.floats(-1e6, 1e6, width=32)))
    compiled = OPENVINO.compile_model(OPENVINO.read_model(model), "CPU", OPENVINO_CONFIG)
    np.testing.assert_array_equal(compiled([x])[0], reference_outputs(model, x), strict=True)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_openvino_infers_the_output_dtype_and_shape_opbridge_infers(data: st.DataObject) -> None:
    """The model states no output shape, so each side infers it: OpenVINO with the extension's
    validate_and_infer_types (from the schema), opbridge with the schema's rule."""
    model, _ = data.draw(models())
    proto = onnx.load_model_from_string(model)
    proto.graph.output[0].type.tensor_type.ClearField("shape")
    model = proto.SerializeToString()
    (output,) = load(model).output_tensors()
    (ov_output,) = OPENVINO.read_model(model).outputs
    assert ov_output.get_element_type().to_dtype() == output.dtype.numpy, (ov_output, output)
    assert ov_output.get_partial_shape() == ov.PartialShape(list(output.shape)), (ov_output, output)


@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_on_the_golden_inputs_the_emitted_c_onnxruntime_and_openvino_agree(data: st.DataObject) -> None:
    """A drawn model, converted as `opbridge convert` converts it (a self-contained module and its golden
    test program, built with the host gcc): on the program's seeded inputs the C gives the reference's
    outputs, bit for bit, and so do onnxruntime and OpenVINO."""
    model, _ = data.draw(models())
    seed = data.draw(st.integers(0, 2**31 - 1))
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "model.onnx"
        path.write_bytes(model)
        module, golden = pathlib.Path(folder) / "module", pathlib.Path(folder) / "golden_test.c"
        config = ConvertArgs(
            model=path,
            output_dir=module,
            prefix="soft_clip",
            golden_test=golden,
            golden_cases=GOLDEN_CASES,
            golden_seed=seed,
        )
        AotConverter(config, registry_context=CONTEXT).convert()
        golden.write_text(with_float_ulp_tolerance(golden.read_text(), 0))  # float32: equal bits
        assert "0 failures" in run_golden_program(module, golden)  # it also fails on a nonzero exit
    graph = load(model)
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    compiled = OPENVINO.compile_model(OPENVINO.read_model(model), "CPU", OPENVINO_CONFIG)
    for x in seeded_inputs(graph.input_tensors()[0], GOLDEN_CASES, seed=seed):
        (expected,) = interpreter.run([x])
        (ort_output,) = session.run(None, {"x": x})
        np.testing.assert_array_equal(ort_output, expected, strict=True)
        np.testing.assert_array_equal(compiled([x])[0], expected, strict=True)
