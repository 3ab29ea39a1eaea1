# SPDX-License-Identifier: Apache-2.0
"""opbridge's ORT-ABI host against real ONNX Runtime, on the same libraries and models.

- The example ORT LeakyRelu library in all four float types: opbridge's host
  (no ORT) and onnxruntime (register_custom_ops_library) agree bit for bit,
  and float32 agrees with ORT's built-in LeakyRelu.
- onnx-extended's prebuilt custom-op libraries (nobody here wrote them):
  ops the host serves match onnxruntime; the rest are rejected clearly.

Both runtimes load the same library files in this one process, interleaved:
opbridge's host uses a private instance of each (cc/ort/ort_host.cc says why).
"""

import importlib.util
import os
import re
from typing import Any

import ml_dtypes
import numpy as np
import onnxruntime as ort
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import TensorProto, helper
from opbridge.backends.host_plugins import CustomOpSession, OrtCustomOpLibrary
from opbridge.errors import PluginKernelError, PluginLoadError, UnsupportedOperatorError
from opbridge_testing.onnx_models import LEAKY_RELU_ORT, leaky_relu_model, plugin_path

NUMPY_TYPES: dict[str, Any] = {
    "float32": np.float32,
    "float64": np.float64,
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
}


def onnx_extended_library(kind: str) -> str:
    """A library from the onnx-extended wheel, found without importing the package."""
    spec = importlib.util.find_spec("onnx_extended")
    assert spec is not None and spec.submodule_search_locations
    return os.path.join(spec.submodule_search_locations[0], "ortops", kind, "cpu", f"libortops_{kind}_cpu.so")


def ort_session(library: str, model: bytes) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.register_custom_ops_library(library)
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def run_ort_leaky_relu(dtype: str, alpha: float, x: np.ndarray) -> np.ndarray:
    if dtype != "bfloat16":
        return ort_session(plugin_path(LEAKY_RELU_ORT), leaky_relu_model(dtype, alpha, input_shape=None)).run(
            None, {"x0": x}
        )[0]
    # ORT's Python API has no NumPy bfloat16: feed an OrtValue, and widen the
    # output to float32 inside the model (exact for bfloat16).
    node = helper.make_node("LeakyRelu", ["x0"], ["y16"], domain="com.example", alpha=alpha)
    cast = helper.make_node("Cast", ["y16"], ["y"], to=TensorProto.FLOAT)
    graph = helper.make_graph(
        [node, cast],
        "bf16",
        [helper.make_tensor_value_info("x0", TensorProto.BFLOAT16, None)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("com.example", 1)]
    model = helper.make_model(graph, opset_imports=opsets).SerializeToString()
    value = ort.OrtValue.ortvalue_from_numpy_with_onnx_type(x.view(np.uint16), onnx_element_type=TensorProto.BFLOAT16)
    session = ort_session(plugin_path(LEAKY_RELU_ORT), model)
    return session.run_with_ort_values(None, {"x0": value})[0].numpy().astype(ml_dtypes.bfloat16)


def same_values(a: np.ndarray, b: np.ndarray) -> bool:
    wide_a, wide_b = a.astype(np.float64), b.astype(np.float64)
    return a.shape == b.shape and bool(np.all((wide_a == wide_b) | (np.isnan(wide_a) & np.isnan(wide_b))))


@pytest.mark.parametrize("dtype", list(NUMPY_TYPES))
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_leaky_relu_library_equals_onnxruntime(dtype: str, data: st.DataObject) -> None:
    numpy_type = np.dtype(NUMPY_TYPES[dtype])
    alpha = data.draw(st.floats(-2, 2, width=32), label="alpha")
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6), label="shape")
    x = data.draw(hnp.arrays(np.dtype(f"u{numpy_type.itemsize}"), shape), label="bits").view(numpy_type)
    with CustomOpSession(plugin_path(LEAKY_RELU_ORT), leaky_relu_model(dtype, alpha, input_shape=None)) as session:
        (ours,) = session.run([x])
    theirs = run_ort_leaky_relu(dtype, alpha, x)
    assert ours.dtype == numpy_type and same_values(ours, theirs)
    # Bit-exact too (NaN payloads aside): both run the library's own code.
    finite = ~np.isnan(ours.astype(np.float64))
    unsigned = f"u{numpy_type.itemsize}"
    assert np.array_equal(ours.view(unsigned)[finite], theirs.astype(numpy_type).view(unsigned)[finite])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_every_16_bit_value_equals_onnxruntime(dtype: str) -> None:
    x = np.arange(1 << 16, dtype=np.uint16).view(NUMPY_TYPES[dtype])
    with CustomOpSession(plugin_path(LEAKY_RELU_ORT), leaky_relu_model(dtype, 0.1, input_shape=None)) as session:
        (ours,) = session.run([x])
    assert same_values(ours, run_ort_leaky_relu(dtype, 0.1, x))


@settings(max_examples=20, deadline=None)
@given(x=hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3), elements=st.floats(-1e6, 1e6, width=32)))
def test_float32_leaky_relu_equals_the_builtin_op(x: np.ndarray) -> None:
    node = helper.make_node("LeakyRelu", ["x0"], ["y"], alpha=0.3)
    graph = helper.make_graph(
        [node],
        "builtin",
        [helper.make_tensor_value_info("x0", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    builtin = ort.InferenceSession(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]).SerializeToString(),
        providers=["CPUExecutionProvider"],
    )
    with CustomOpSession(plugin_path(LEAKY_RELU_ORT), leaky_relu_model(alpha=0.3, input_shape=None)) as session:
        (ours,) = session.run([x])
    assert np.array_equal(ours, builtin.run(None, {"x0": x})[0])


def tutorial_model(op_type: str, inputs: int, elem_type: int = TensorProto.FLOAT, **attributes: Any) -> bytes:
    names = [f"x{i}" for i in range(inputs)]
    domain = "onnx_extended.ortops.tutorial.cpu"
    node = helper.make_node(op_type, names, ["y"], domain=domain, name=op_type, **attributes)
    graph = helper.make_graph(
        [node],
        "tutorial",
        [helper.make_tensor_value_info(name, elem_type, None) for name in names],
        [helper.make_tensor_value_info("y", elem_type, None)],
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid(domain, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=9).SerializeToString()


@settings(max_examples=15, deadline=None)
@given(
    x=hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0), elements=st.floats(width=32)),
)
def test_onnx_extended_my_custom_op_equals_onnxruntime(x: np.ndarray) -> None:
    library = onnx_extended_library("tutorial")
    model = tutorial_model("MyCustomOp", 2)
    y = (np.flip(x.reshape(-1)) * np.float32(0.5)).reshape(x.shape)  # same shape, other values
    with CustomOpSession(library, model) as session:
        (ours,) = session.run([x, y])
    (theirs,) = ort_session(library, model).run(None, {"x0": x, "x1": y})
    assert same_values(ours, theirs)
    assert same_values(ours, x + y)


def test_onnx_extended_sparse_round_trip_equals_onnxruntime() -> None:
    # DenseToSparse allocates more than it writes: its header (onnx-extended's
    # sparse_struct: fix_value, n_dims, int64 shape[4] of which a matrix sets
    # two, n_elements, onnx_type), then nnz indices and nnz values, then
    # unused words. ORT leaves unwritten memory uninitialized, opbridge zeroes
    # it; the written words and the dense matrix SparseToDense rebuilds from
    # them must be equal.
    library = onnx_extended_library("optim")
    domain = "onnx_extended.ortops.optim.cpu"
    nodes = [
        helper.make_node("DenseToSparse", ["x0"], ["sparse"], domain=domain),
        helper.make_node("SparseToDense", ["sparse"], ["dense"], domain=domain),
    ]
    graph = helper.make_graph(
        nodes,
        "optim",
        [helper.make_tensor_value_info("x0", TensorProto.FLOAT, [None, None])],
        [
            helper.make_tensor_value_info("sparse", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("dense", TensorProto.FLOAT, None),
        ],
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid(domain, 1)]
    model = helper.make_model(graph, opset_imports=opsets, ir_version=9).SerializeToString()
    rng = np.random.default_rng(7)
    with CustomOpSession(library, model) as session:
        for shape in [(2, 3), (5, 7), (1, 1), (16, 9)]:
            x = (rng.standard_normal(shape) * (rng.random(shape) < 0.3)).astype(np.float32)
            written = [*range(6), *range(10, 12 + 2 * int(np.count_nonzero(x)))]
            ours = session.run([x])
            theirs = ort_session(library, model).run(None, {"x0": x})
            assert ours[0].shape == theirs[0].shape
            assert np.array_equal(ours[0].view(np.uint32)[written], theirs[0].view(np.uint32)[written])
            assert np.array_equal(ours[1], theirs[1]) and np.array_equal(ours[1], x)


def test_what_the_host_cannot_serve_is_rejected_clearly() -> None:
    tutorial = onnx_extended_library("tutorial")
    listing = {op.name: op.unsupported for op in OrtCustomOpLibrary.load(tutorial).ops}
    assert listing["MyCustomOp"] == ""
    assert listing["CustomGemmFloat"] == ""  # its optional input is served when given
    assert listing["DynamicQuantizeLinear"].startswith("output 0 has ONNX element type 17")
    # It asks for its input names, which the host does not give: a status
    # naming the function, not a call through NULL.
    session = CustomOpSession(tutorial, tutorial_model("CustomGemmFloat", 6))
    with session, pytest.raises(PluginKernelError, match="OrtApi::KernelInfo_GetInputName is not implemented"):
        session.run([np.ones((2, 2), np.float32)] * 2 + [np.zeros((2, 2), np.float32)] + [np.ones(1, np.float32)] * 3)
    with pytest.raises(
        UnsupportedOperatorError, match=re.escape("cannot be hosted: output 0 has ONNX element type 17")
    ):
        CustomOpSession(tutorial, tutorial_model("DynamicQuantizeLinear", 1, to=17))
    # Asks for a tensor attribute after the scalar ones: the host's status
    # surfaces through the plugin's exception instead of a NULL call.
    model = tutorial_model(
        "MyCustomOpWithAttributes", 2, TensorProto.DOUBLE, att_float=1.5, att_int64=2, att_string="A"
    )
    session = CustomOpSession(tutorial, model)
    with session, pytest.raises(PluginKernelError, match="tensor-valued attributes are not supported"):
        session.run([np.ones(3), np.ones(3)])
    model = tutorial_model("MyCustomOpWithAttributes", 2, TensorProto.DOUBLE)
    session = CustomOpSession(tutorial, model)
    with session, pytest.raises(PluginKernelError, match='has no float attribute "att_float"'):
        session.run([np.ones(3), np.ones(3)])


@pytest.mark.parametrize("kind", ["tutorial", "optim"])
def test_onnx_extended_load_release_and_reload_100_times(kind: str) -> None:
    # With onnxruntime loaded in this process too; and a session that loads
    # the library, fails on the model (no such op) and releases it.
    library = onnx_extended_library(kind)
    missing = tutorial_model("Missing", 1)
    for _ in range(100):
        loaded = OrtCustomOpLibrary.load(library)
        assert loaded.ops
        loaded.release()
        with pytest.raises(UnsupportedOperatorError, match="Missing"):
            CustomOpSession(library, missing)
    model = tutorial_model("MyCustomOp", 2)
    with CustomOpSession(onnx_extended_library("tutorial"), model) as session:
        assert session.run([np.ones(2, np.float32), np.ones(2, np.float32)])[0].shape == (2,)


def test_a_library_sharing_globals_with_onnxruntime_is_refused() -> None:
    # Its OrtApi pointer is GNU-unique: a copy loaded by opbridge would share
    # it with onnxruntime's. Once onnxruntime is loaded, loading it is refused.
    library = plugin_path("cc/ort/libunique_global_plugin.so")
    model = helper.make_model(
        helper.make_graph(
            [helper.make_node("Negate", ["x0"], ["y"], domain="com.test")],
            "negate",
            [helper.make_tensor_value_info("x0", TensorProto.FLOAT, None)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        ),
        opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.test", 1)],
    ).SerializeToString()
    (theirs,) = ort_session(library, model).run(None, {"x0": np.array([1.0, -2.0], np.float32)})
    assert theirs.tolist() == [-1.0, 2.0]
    with pytest.raises(
        PluginLoadError, match=r"exports GNU-unique symbols .* that the process shares with ONNX Runtime"
    ):
        CustomOpSession(library, model)
