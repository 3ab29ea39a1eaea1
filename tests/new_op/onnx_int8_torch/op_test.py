# SPDX-License-Identifier: Apache-2.0
"""OnnxInt8Torch's C kernel against its NumPy reference, on the same inputs.

The kernel runs in opbridge's native host through the generated adapter
(libonnx_int8_torch_plugin.so), in onnxruntime through the generated custom-op library
(libonnx_int8_torch_ort.so) and in OpenVINO through the generated extension
(libonnx_int8_torch_openvino.so);
the emitted module's golden test (:onnx_int8_torch_module_golden_test) runs it
on x86_64, aarch64, Cortex-M55 and Cortex-M4.
As the PyTorch op TORCH_NAME it passes torch's opcheck and converts from torch.export programs,
and PT2E quantizes it to int8.
"""

import os
import pathlib
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
import openvino as ov
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import helper
from onnx_int8_torch.model import drawn_parameters, make_model
from onnx_int8_torch.plugin import KERNEL, KEY, SCHEMA, customize_registry
from opbridge.backends.c.golden_inputs import DEFAULT_SEED, seeded_inputs
from opbridge.backends.host_plugins import CustomOpSession, NativePlugin
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.converter import AotConverter, ConvertArgs
from opbridge.frontends.models import load_model
from opbridge.frontends.torch.library import define_torch_ops
from opbridge.frontends.torch.program import read_exported_program
from opbridge.frontends.torch.quantizer import OpbridgeQuantizer, quantize_pt2e
from opbridge.ir import DType, Graph, Quantization
from opbridge.registry import build_default_registry_context
from opbridge_testing.single_op import run_golden_program

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


def load(model: bytes, quantization: tuple[float, int] | None = None) -> Graph:
    """The model's graph; `quantization` (scale, zero point) on its int8 tensors, as a PT2E program gives them
    (an ONNX model carries none: its int8 values have zero point 0)."""
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "model.onnx"
        path.write_bytes(model)
        graph = load_model(path, CONTEXT)
    if quantization is not None:
        for tensor in graph.tensors:
            if tensor.dtype is DType.INT8:
                tensor.quantization = Quantization((quantization[0],), (quantization[1],))
    return graph


def quantizations() -> st.SearchStrategy[tuple[float, int]]:
    """(scale, zero point) of the op's int8 input and output (SAME_AS_INPUT: one pair)."""
    return st.tuples(st.floats(1e-3, 1.0), st.integers(-128, 127))


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
    graph = load(model, data.draw(quantizations()))
    (node,) = graph.nodes
    x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    (expected,) = ReferenceInterpreter(graph, CONTEXT).run([x])
    # The host kernel takes the node's params as attributes, as the module takes them as constants.
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "onnx_int8_torch")
    try:
        (actual,) = kernel.compute([x])
    finally:
        kernel.release()
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)


def test_on_the_golden_test_s_inputs_the_host_kernel_gives_its_expected_outputs() -> None:
    """:onnx_int8_torch_module_golden_test checks the emitted module on these inputs against these reference
    outputs on x86_64, aarch64, Cortex-M55 and Cortex-M4: the host kernel agreeing closes the triangle."""
    graph = load(pathlib.Path(os.environ["OPBRIDGE_OP_MODEL"]).read_bytes())
    (node,) = graph.nodes
    assert node.op_type == "ONNX_INT8_TORCH"
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    params = KERNEL.param_values(graph, node)
    kernel = PLUGIN.kernel(SCHEMA.domain, SCHEMA.name, SCHEMA.since_version, params, "onnx_int8_torch")
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
    graph = load(model, data.draw(quantizations()))
    x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(host_model(model, graph), options, providers=["CPUExecutionProvider"])
    (ort_output,) = session.run(None, {"x": x})
    np.testing.assert_array_equal(ort_output, reference_outputs(graph, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_model_in_opbridge_s_native_host_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = load(model, data.draw(quantizations()))
    x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    with CustomOpSession(os.environ["OPBRIDGE_OP_PLUGIN"], host_model(model, graph), abi="opbridge") as session:
        (host_output,) = session.run([x])
    np.testing.assert_array_equal(host_output, reference_outputs(graph, x))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_openvino_with_the_generated_extension_equals_the_reference(data: st.DataObject) -> None:
    model, shape = data.draw(models())
    graph = load(model, data.draw(quantizations()))
    x = data.draw(hnp.arrays(np.int8, shape, elements=st.integers(-128, 127)))
    compiled = OPENVINO.compile_model(OPENVINO.read_model(host_model(model, graph)), "CPU", OPENVINO_CONFIG)
    np.testing.assert_array_equal(compiled([x])[0], reference_outputs(graph, x), strict=True)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_openvino_infers_the_output_dtype_and_shape_opbridge_infers(data: st.DataObject) -> None:
    """The model states no output shape, so each side infers it: OpenVINO with the extension's
    validate_and_infer_types (from the schema), opbridge with the schema's rule."""
    model, _ = data.draw(models())
    proto = onnx.load_model_from_string(model)
    proto.graph.output[0].type.tensor_type.ClearField("shape")
    model = proto.SerializeToString()
    graph = load(model)
    (output,) = graph.output_tensors()
    (ov_output,) = OPENVINO.read_model(host_model(model, graph)).outputs
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
            prefix="onnx_int8_torch",
            golden_test=golden,
            golden_cases=GOLDEN_CASES,
            golden_seed=seed,
        )
        AotConverter(config, registry_context=CONTEXT).convert()
        assert "0 failures" in run_golden_program(module, golden)  # it also fails on a nonzero exit
    graph = load(model)
    interpreter = ReferenceInterpreter(graph, CONTEXT)
    options = ort.SessionOptions()
    options.register_custom_ops_library(os.path.abspath(os.environ["OPBRIDGE_OP_ORT_LIBRARY"]))
    session = ort.InferenceSession(host_model(model, graph), options, providers=["CPUExecutionProvider"])
    compiled = OPENVINO.compile_model(OPENVINO.read_model(host_model(model, graph)), "CPU", OPENVINO_CONFIG)
    for x in seeded_inputs(graph.input_tensors()[0], GOLDEN_CASES, seed=seed):
        (expected,) = interpreter.run([x])
        (ort_output,) = session.run(None, {"x": x})
        np.testing.assert_array_equal(ort_output, expected, strict=True)
        np.testing.assert_array_equal(compiled([x])[0], expected, strict=True)


class OneOp(torch.nn.Module):
    """A model calling the torch op TORCH_NAME (after a convolution, so that PT2E has an input to quantize)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(2, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return define_torch_ops(CONTEXT)[KEY](self.conv(x))


def test_the_torch_op_passes_opcheck_and_converts_as_eager_torch_runs_it() -> None:
    """The torch op (generated by define_torch_ops from the schema and the reference, or yours, adopted):
    torch's opcheck, then a model calling it, exported and converted, runs in opbridge's reference as in torch."""
    op = define_torch_ops(CONTEXT)[KEY]
    x = torch.randn(1, 2, 5, 3, generator=torch.Generator().manual_seed(0)) * 4
    torch.library.opcheck(op, (x,))
    torch.manual_seed(0)
    model = OneOp().eval()
    graph = read_exported_program(torch.export.export(model, (x,)), CONTEXT)
    assert "ONNX_INT8_TORCH" in [node.op_type for node in graph.nodes]
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([x.numpy()])
    with torch.no_grad():
        np.testing.assert_allclose(ours, model(x).numpy(), rtol=1e-5, atol=1e-5)


def test_pt2e_makes_the_op_int8_with_its_params_from_the_quantization() -> None:
    """OpbridgeQuantizer quantizes the op as its TorchOp says (SAME_AS_INPUT); the converted node is int8, its
    params come from its input's quantization, and opbridge follows torch's convert_pt2e model."""
    torch.manual_seed(0)
    example = (torch.randn(1, 2, 6, 6),)
    calibration = [(torch.randn(1, 2, 6, 6) * 2,) for _ in range(8)]
    quantizer = OpbridgeQuantizer.for_context(CONTEXT)
    quantized = quantize_pt2e(OneOp().eval(), example, calibration, quantizer)
    assert quantizer.report() == "opbridge quantizer: all 2 ops are int8", quantizer.report()
    graph = read_exported_program(torch.export.export(quantized, example), CONTEXT)
    (node,) = [node for node in graph.nodes if node.op_type == KEY]
    source = graph.node_inputs(node)[0]
    assert source is not None and source.dtype is DType.INT8 and source.quantization is not None
    assert KERNEL.param_values(graph, node)["zero_point"] == source.quantization.zero_points[0]
    (ours,) = ReferenceInterpreter(graph, CONTEXT).run([example[0].numpy()])
    with torch.no_grad():
        theirs = quantized(*example).numpy()
    # TFLite Micro's fixed-point rescales (the convolution's, the slope's) round apart from torch's float
    # ones by at most a step each.
    assert np.abs(ours - theirs).max() <= 2.01 * source.quantization.scales[0]
