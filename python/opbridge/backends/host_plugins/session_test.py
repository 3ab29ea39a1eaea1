# SPDX-License-Identifier: Apache-2.0
"""CustomOpSession and the NativeExecutor with both ABIs' LeakyRelu and the test plugin.

ONNX Runtime is never imported here (asserted at the end); tests against
real onnxruntime are in tests/native_plugins/.
"""

import contextlib
import gc
import re
import sys
import threading
from typing import Literal

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import AttributeProto, TensorProto, helper
from opbridge_testing.onnx_models import (
    LEAKY_RELU_OPBRIDGE,
    LEAKY_RELU_ORT,
    TEST_PLUGIN,
    leaky_relu_model,
    plugin_path,
    single_node_model,
)

from opbridge.backends.host_plugins import CustomOpSession, NativeExecutor, NativePlugin, OrtCustomOpLibrary
from opbridge.backends.host_plugins.plugins import Floats, Ints, Strings
from opbridge.errors import (
    InvalidInputError,
    ModelFormatError,
    OpbridgeError,
    PluginKernelError,
    PluginLoadError,
    UnsupportedOperatorError,
    UnsupportedTensorError,
)
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.builtin import build_builtin_registry
from opbridge.ops.quantize.attributes import QuantizeAttributes

NUMPY_TYPES = {
    "float32": np.float32,
    "float64": np.float64,
    "float16": np.float16,
    "bfloat16": ml_dtypes.bfloat16,
}
PLUGINS = [(LEAKY_RELU_ORT, "ort"), (LEAKY_RELU_OPBRIDGE, "opbridge")]


def reference_leaky_relu(x: np.ndarray, alpha: float) -> np.ndarray:
    """y = x if x >= 0 else alpha * x, in float32 (float64 for float64), rounded to x's type."""
    alpha32 = np.float32(alpha)
    if x.dtype == np.float64:
        return np.where(x < 0, np.float64(alpha32) * x, x)
    wide = x.astype(np.float32)
    return np.where(wide < 0, alpha32 * wide, wide).astype(x.dtype)


def assert_same_bits(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    # NaNs compare by being NaN (payloads may differ), everything else bit for bit.
    both_nan = np.isnan(actual.astype(np.float64)) & np.isnan(expected.astype(np.float64))
    unsigned = f"u{actual.dtype.itemsize}"
    assert np.array_equal(actual.view(unsigned)[~both_nan], expected.view(unsigned)[~both_nan])


@pytest.mark.parametrize(("plugin", "abi"), PLUGINS)
@pytest.mark.parametrize("dtype", list(NUMPY_TYPES))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_leaky_relu_matches_reference(plugin: str, abi: str, dtype: str, data: st.DataObject) -> None:
    numpy_type = np.dtype(NUMPY_TYPES[dtype])
    alpha = data.draw(st.floats(-2, 2, width=32), label="alpha")
    with CustomOpSession(plugin_path(plugin), leaky_relu_model(dtype, alpha, input_shape=None), abi=abi) as session:
        # The same kernel across changing shapes, scalars and empty tensors.
        for _ in range(3):
            shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5), label="shape")
            bits = data.draw(hnp.arrays(np.dtype(f"u{numpy_type.itemsize}"), shape), label="bits")
            x = bits.view(numpy_type)
            (y,) = session.run([x])
            assert_same_bits(y, reference_leaky_relu(x, alpha))


@pytest.mark.parametrize(("plugin", "abi"), PLUGINS)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("alpha", [1.0, 0.1, -3.0])
def test_every_16_bit_value(plugin: str, abi: str, dtype: str, alpha: float) -> None:
    # All 65,536 bit patterns: the plugins' own float16/bfloat16 conversions
    # round like NumPy and ml_dtypes (to nearest, ties to even).
    x = np.arange(1 << 16, dtype=np.uint16).view(NUMPY_TYPES[dtype])
    with CustomOpSession(plugin_path(plugin), leaky_relu_model(dtype, alpha, input_shape=["n"]), abi=abi) as session:
        (y,) = session.run([x])
    assert_same_bits(y, reference_leaky_relu(x, alpha))


@pytest.mark.parametrize(("plugin", "abi"), PLUGINS)
def test_inputs_are_checked_against_the_model(plugin: str, abi: str) -> None:
    with CustomOpSession(plugin_path(plugin), leaky_relu_model(input_shape=["n", 3]), abi=abi) as session:
        assert session.input_names == ["x0"] and session.output_names == ["y"]
        with pytest.raises(InvalidInputError, match="got a float64 array") as caught:
            session.run([np.zeros((2, 3))])
        assert isinstance(caught.value, ValueError)  # no silent cast either way
        with pytest.raises(InvalidInputError, match=r"got shape \[2, 4\]"):
            session.run([np.zeros((2, 4), np.float32)])
        with pytest.raises(InvalidInputError, match="missing"):
            session.run({"x": np.zeros((2, 3), np.float32)})
        (y,) = session.run({"x0": np.full((5, 3), -1, np.float32)})
        assert y.shape == (5, 3)


def test_read_only_and_non_contiguous_inputs_are_left_alone() -> None:
    model = single_node_model("Echo", domain="test", input_shape=["a", "b"])
    with CustomOpSession(plugin_path(TEST_PLUGIN), model, abi="opbridge") as session:
        base = np.arange(24, dtype=np.float32).reshape(4, 6)
        strided = base[::2, ::3]
        read_only = np.arange(6, dtype=np.float32).reshape(2, 3)
        read_only.flags.writeable = False
        for x in (strided, read_only, base.T):
            before = x.copy()
            (y,) = session.run([x])
            # test.Echo scribbles over the input it is given: the caller's array is untouched.
            assert np.array_equal(x, before) and np.array_equal(y, before)
            assert y.flags.writeable and y.flags.c_contiguous and not np.shares_memory(y, x)


def test_outputs_are_independent_arrays() -> None:
    with CustomOpSession(plugin_path(LEAKY_RELU_ORT), leaky_relu_model()) as session:
        x = np.ones((2, 2), np.float32)
        (first,) = session.run([x])
        first[...] = 42
        (second,) = session.run([x])
        assert np.array_equal(second, x) and not np.shares_memory(first, second)


def test_kernel_state_is_kept_per_node_and_session() -> None:
    model = single_node_model("CountCalls", domain="test", output_type=TensorProto.INT64, input_shape=["n"])
    with (
        CustomOpSession(plugin_path(TEST_PLUGIN), model, abi="opbridge") as one,
        CustomOpSession(plugin_path(TEST_PLUGIN), model, abi="opbridge") as two,
    ):
        counts = [int(one.run([np.zeros(size, np.float32)])[0]) for size in (1, 5, 0, 3)]
        assert counts == [1, 2, 3, 4]  # one kernel, created once, across changing shapes
        assert int(two.run([np.zeros(2, np.float32)])[0]) == 1  # an independent session


def test_close_context_manager_and_finalizer() -> None:
    session = CustomOpSession(plugin_path(LEAKY_RELU_ORT), leaky_relu_model())
    session.close()
    session.close()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        session.run([np.zeros((1, 1), np.float32)])
    abandoned = CustomOpSession(plugin_path(LEAKY_RELU_ORT), leaky_relu_model())
    abandoned.run([np.zeros((1, 1), np.float32)])
    finalizer = abandoned._finalizer
    del abandoned
    gc.collect()
    assert not finalizer.alive  # kernels and library released without close()


def test_runs_are_serialized_across_threads() -> None:
    model = single_node_model("CountCalls", domain="test", output_type=TensorProto.INT64, input_shape=["n"])
    with CustomOpSession(plugin_path(TEST_PLUGIN), model, abi="opbridge") as session:
        counts: list[int] = []

        def work() -> None:
            for _ in range(50):
                counts.append(int(session.run([np.zeros(1, np.float32)])[0]))

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(counts) == list(range(1, 201))


@pytest.mark.parametrize(("plugin", "abi"), PLUGINS)
def test_missing_attribute_is_the_plugins_error(plugin: str, abi: str) -> None:
    session = CustomOpSession(plugin_path(plugin), leaky_relu_model(alpha=None), abi=abi)
    with session, pytest.raises(PluginKernelError, match=r'"leakyrelu_node".*alpha'):
        session.run([np.zeros((1, 1), np.float32)])


def test_plugin_errors_become_exceptions() -> None:
    for op, message in [
        ("Fail", "compute failed: test.Fail was asked to fail"),
        ("Throw", "compute threw: test.Throw threw"),
        ("NoOutput", "without allocating output 0"),
        ("HugeOutput", "exceeds the 67108864-byte limit"),
    ]:
        with CustomOpSession(plugin_path(TEST_PLUGIN), single_node_model(op, domain="test"), abi="opbridge") as s:
            with pytest.raises(PluginKernelError, match=message):
                s.run([np.zeros((1, 1), np.float32)])
            # The session survives a failed run.
            with pytest.raises(PluginKernelError):
                s.run([np.zeros((1, 1), np.float32)])


def test_unsupported_dtype_rank_and_opset() -> None:
    ort = plugin_path(LEAKY_RELU_ORT)
    with pytest.raises(UnsupportedOperatorError, match=r"no overload for input types \(int32\)"):
        CustomOpSession(ort, single_node_model("LeakyRelu", elem_type=TensorProto.INT32, alpha=0.5))
    with pytest.raises(
        UnsupportedOperatorError, match=re.escape('supports opset 1..1 of domain "com.example", the model imports 3')
    ):
        CustomOpSession(ort, leaky_relu_model(domain_version=3))
    with pytest.raises(UnsupportedOperatorError, match=re.escape("has no op com.example::LeakyRelu at opset 0")):
        CustomOpSession(plugin_path(LEAKY_RELU_OPBRIDGE), leaky_relu_model(domain_version=0), abi="opbridge")
    with pytest.raises(UnsupportedOperatorError, match=re.escape('does not import domain "com.example"')):
        CustomOpSession(ort, leaky_relu_model(domain_version=None))
    with pytest.raises(UnsupportedOperatorError, match=re.escape("is a standard ONNX operator")):
        CustomOpSession(ort, single_node_model("Relu", domain=""))
    with pytest.raises(UnsupportedOperatorError, match=re.escape("has no op com.example::Gelu")):
        CustomOpSession(ort, single_node_model("Gelu"))
    session = CustomOpSession(ort, leaky_relu_model(input_shape=None))
    with session, pytest.raises(ValueError, match=re.escape("rank 17 is outside 0..16")):
        session.run([np.zeros((1,) * 17, np.float32)])


def test_limits_raise_value_error_before_copying() -> None:
    with pytest.raises(ValueError, match="more than the 16777216-byte limit"):
        CustomOpSession(plugin_path(LEAKY_RELU_ORT), b"\0" * ((16 << 20) + 1))
    with CustomOpSession(plugin_path(LEAKY_RELU_ORT), leaky_relu_model()) as session:
        # 64 MiB + 4 bytes of float32 as a zero-stride view: rejected from its shape, never materialized.
        huge = np.broadcast_to(np.float32(1), (1, (16 << 20) + 1))
        with pytest.raises(ValueError, match="exceed the 67108864-byte limit"):
            session.run([huge])
        at_limit = np.broadcast_to(np.float32(-1), (1, 16 << 20))
        (y,) = session.run([at_limit])
        assert y.shape == (1, 16 << 20) and y[0, -1] == np.float32(-0.1)


def test_bad_libraries_are_rejected() -> None:
    model = leaky_relu_model()
    with pytest.raises(PluginLoadError, match="does not exist"):
        CustomOpSession("./no/such/library.so", model)
    with pytest.raises(PluginLoadError, match="is not a path"):
        CustomOpSession("libort_leaky_relu.so", model)
    with pytest.raises(PluginLoadError, match="is not a shared library for"):
        CustomOpSession(plugin_path("python/opbridge/backends/host_plugins/session_test.py"), model)
    with pytest.raises(PluginLoadError, match="does not export RegisterCustomOps"):
        CustomOpSession(plugin_path(LEAKY_RELU_OPBRIDGE), model)
    with pytest.raises(PluginLoadError, match="does not export opbridge_plugin_get_ops"):
        CustomOpSession(plugin_path(LEAKY_RELU_ORT), model, abi="opbridge")
    for variant, message in [
        ("wrong_abi", "implements API version 99"),
        ("declines", "declined host API version 1"),
        ("null_callback", "must all be non-NULL"),
        ("duplicate", "registers test::Fail version 1 twice"),
        ("no_entry_point", "does not export opbridge_plugin_get_ops"),
    ]:
        with pytest.raises(PluginLoadError, match=message):
            NativePlugin.load(plugin_path(f"cc/plugin/libtest_plugin_{variant}.so"))


def test_unsupported_models() -> None:
    ort = plugin_path(LEAKY_RELU_ORT)
    node = helper.make_node("LeakyRelu", ["x", "w"], ["y"], domain="com.example", alpha=0.1)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
        initializer=[helper.make_tensor("w", TensorProto.FLOAT, [1], [1.0])],
    )
    opsets = [helper.make_opsetid("com.example", 1)]
    with pytest.raises(UnsupportedTensorError, match=r"initializers \['w'\]"):
        CustomOpSession(ort, helper.make_model(graph, opset_imports=opsets).SerializeToString())
    tensor_attribute = helper.make_node(
        "LeakyRelu", ["x"], ["y"], domain="com.example", t=helper.make_tensor("t", TensorProto.FLOAT, [1], [1.0])
    )
    graph = helper.make_graph(
        [tensor_attribute],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
    )
    with pytest.raises(UnsupportedTensorError, match='attribute "t" is of type TENSOR'):
        CustomOpSession(ort, helper.make_model(graph, opset_imports=opsets).SerializeToString())
    with pytest.raises(ModelFormatError, match="declared float16, the plugin produces float32"):
        CustomOpSession(ort, leaky_relu_model(output_type=TensorProto.FLOAT16))


def echo_model(*, input_type: int = TensorProto.FLOAT16) -> bytes:
    """test.Echo with an attribute of each kind a plugin receives, on a float16 input of symbolic batch."""
    node = helper.make_node(
        "Echo",
        ["a"],
        ["b"],
        domain="test",
        f=1.5,
        i=-7,
        s="text",
        floats=[0.25, -1.0],
        ints=[3, -4, 1 << 40],
        strings=["p", "q"],
    )
    node.attribute.append(helper.make_attribute("empty_ints", [], attr_type=AttributeProto.INTS))
    value = helper.make_tensor_value_info("a", input_type, ["batch", 3])
    value.type.denotation = "TENSOR"  # a note, no effect on the value
    graph = helper.make_graph([node], "sample", [value], [helper.make_tensor_value_info("b", input_type, None)])
    opsets = [helper.make_opsetid("", 21), helper.make_opsetid("test", 1)]
    return helper.make_model(graph, opset_imports=opsets).SerializeToString()


def test_nodes_keep_the_models_attributes_and_values() -> None:
    with CustomOpSession(plugin_path(TEST_PLUGIN), echo_model(), abi="opbridge") as session:
        graph = session.graph
        assert [(t.name, t.dtype, t.shape) for t in graph.tensors] == [
            ("a", DType.FLOAT16, (-1, 3)),
            ("b", DType.FLOAT16, ()),
        ]
        (node,) = graph.nodes
        assert (node.name, node.op_type, node.inputs, node.outputs) == ("Echo_0", "test::Echo", [0], [1])
        assert node.attributes == {
            "f": 1.5,
            "i": -7,
            "s": "text",
            "floats": [0.25, -1.0],
            "ints": [3, -4, 1 << 40],
            "strings": ["p", "q"],
            "empty_ints": [],
        }
        kinds = {name: type(value) for name, value in node.attributes.items()}
        assert kinds == {
            "f": float,
            "i": int,
            "s": str,
            "floats": Floats,
            "ints": Ints,
            "strings": Strings,
            "empty_ints": Ints,  # an empty list keeps its kind
        }
        x = np.arange(6, dtype=np.float16).reshape(2, 3)
        (y,) = session.run([x])
        assert np.array_equal(y, x) and y.dtype == np.float16


def test_values_and_attributes_a_plugin_cannot_take() -> None:
    test_plugin = plugin_path(TEST_PLUGIN)
    sequence = helper.make_tensor_sequence_value_info("x", TensorProto.FLOAT, [1])
    graph = helper.make_graph(
        [helper.make_node("Echo", ["x"], ["y"], domain="test")],
        "g",
        [sequence],
        [helper.make_tensor_value_info("y", 1, [1])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("test", 1)]).SerializeToString()
    with pytest.raises(UnsupportedTensorError, match='value "x" is not a dense tensor'):
        CustomOpSession(test_plugin, model, abi="opbridge")
    with pytest.raises(ModelFormatError, match="node 0's attribute name is not valid UTF-8"):
        CustomOpSession(test_plugin, echo_model().replace(b"empty_ints", b"empty_\xffnts"), abi="opbridge")
    with pytest.raises(ModelFormatError, match="node 0's attribute value is not valid UTF-8"):
        CustomOpSession(test_plugin, echo_model().replace(b"text", b"t\xffxt"), abi="opbridge")
    reference = helper.make_node("Echo", ["x"], ["y"], domain="test")
    reference.attribute.append(AttributeProto(name="alpha", type=AttributeProto.FLOAT, ref_attr_name="beta"))
    graph = helper.make_graph(
        [reference], "g", [helper.make_tensor_value_info("x", 1, [1])], [helper.make_tensor_value_info("y", 1, [1])]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("test", 1)]).SerializeToString()
    with pytest.raises(UnsupportedTensorError, match='attribute "alpha" refers to a function attribute'):
        CustomOpSession(test_plugin, model, abi="opbridge")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the model is empty"),
        (b"\x08", "not a readable ONNX model"),
        (b"\x0b", "not a readable ONNX model"),
        (b"\x08\x01", "the model has no graph"),
    ],
)
def test_damaged_bytes(data: bytes, message: str) -> None:
    with pytest.raises(ModelFormatError, match=message):
        CustomOpSession(plugin_path(TEST_PLUGIN), data, abi="opbridge")


@settings(max_examples=200, deadline=None)
@given(
    cut=st.integers(min_value=0), flips=st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), max_size=4)
)
def test_truncated_and_mutated_models_raise_typed_errors(cut: int, flips: list[tuple[int, int]]) -> None:
    data = bytearray(echo_model())
    data = data[: cut % (len(data) + 1)]
    for position, value in flips:
        if data:
            data[position % len(data)] = value
    with contextlib.suppress(OpbridgeError):  # typed and explained; anything else fails the test
        CustomOpSession(plugin_path(TEST_PLUGIN), bytes(data), abi="opbridge").close()


def test_chained_nodes_and_mixed_execution_with_the_reference() -> None:
    # x -> LeakyRelu (native) -> QUANTIZE (NumPy reference) -> int8 output.
    plugin = NativePlugin.load(plugin_path(LEAKY_RELU_OPBRIDGE))
    tensors = [
        Tensor(0, "x", DType.FLOAT32, (2, 3)),
        Tensor(1, "leaky", DType.FLOAT32, (2, 3)),
        Tensor(2, "q", DType.INT8, (2, 3), Quantization((0.05,), (3,))),
    ]
    nodes = [
        Node(0, "leaky", "com.example::LeakyRelu", [0], [1], {"alpha": 0.5}),
        Node(1, "quantize", "QUANTIZE", [1], [2], QuantizeAttributes()),
    ]
    graph = Graph("mixed", tensors, nodes, [0], [2])
    kernel = plugin.kernel("com.example", "LeakyRelu", 1, {"alpha": 0.5}, "leaky")
    executor = NativeExecutor(graph, {0: kernel}, build_builtin_registry())
    x = np.array([[-1.0, 0.5, 2.0], [-3.0, 0.0, 1.0]], np.float32)
    (q,) = executor.run([x])
    leaky = np.where(x < 0, np.float32(0.5) * x, x)
    assert np.array_equal(q, np.clip(np.round(leaky / np.float32(0.05)) + 3, -128, 127).astype(np.int8))
    assert kernel.created
    kernel.release()
    with pytest.raises(RuntimeError, match="released"):
        kernel.compute([x])
    with pytest.raises(UnsupportedOperatorError, match="no native kernel or reference"):
        NativeExecutor(graph, {}, None)


def test_kernels_outlive_a_released_library_handle() -> None:
    # A kernel keeps its library loaded: dropping the library object first is safe.
    plugin = NativePlugin.load(plugin_path(LEAKY_RELU_OPBRIDGE))
    kernel = plugin.kernel("com.example", "LeakyRelu", 1, {"alpha": 0.25}, "leaky")
    assert not kernel.created  # created lazily, on the first run
    plugin.release()
    del plugin
    gc.collect()
    (y,) = kernel.compute([np.array([-4.0], np.float32)])
    assert kernel.created and y.tolist() == [-1.0]
    kernel.release()
    library = OrtCustomOpLibrary.load(plugin_path(LEAKY_RELU_ORT))
    ort_kernel = library.kernel("com.example", "LeakyRelu", 1, [DType.FLOAT64], {"alpha": 0.5}, "leaky")
    library.release()
    del library
    gc.collect()
    assert ort_kernel.compute([np.array([-4.0])])[0].tolist() == [-2.0]
    ort_kernel.release()


def test_attribute_kinds() -> None:
    from opbridge.backends.host_plugins.plugins import encode_attributes

    assert encode_attributes(
        {
            "i": 3,
            "b": True,
            "f": 0.5,
            "s": "x",
            "ints": [1, 2],
            "mixed": [1, 2.5],
            "none": Floats(),
            "names": Strings(),
        },
        "node",
    ) == [
        ("i", "int", 3),
        ("b", "int", 1),
        ("f", "float", 0.5),
        ("s", "string", "x"),
        ("ints", "ints", [1, 2]),
        ("mixed", "floats", [1.0, 2.5]),
        ("none", "floats", []),
        ("names", "strings", []),
    ]
    with pytest.raises(ValueError, match='node: attribute "bad" is a list of mixed or unsupported types'):
        encode_attributes({"bad": [1, "a"]}, "node")
    with pytest.raises(ValueError, match='attribute "obj" is a dict'):
        encode_attributes({"obj": {}}, "node")


def test_kernel_calls_are_serialized_with_release() -> None:
    # Runs and release() of one kernel from several threads: never entered
    # twice at once, never released while running (ASan would see it).
    plugin = NativePlugin.load(plugin_path(TEST_PLUGIN))
    kernel = plugin.kernel("test", "CountCalls", 1, {}, "counter")
    counts: list[int] = []
    errors: list[str] = []

    def work() -> None:
        for _ in range(100):
            try:
                counts.append(int(kernel.compute([np.zeros(64, np.float32)])[0]))
            except RuntimeError as error:
                errors.append(str(error))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    kernel.release()
    for thread in threads:
        thread.join()
    assert sorted(counts) == list(range(1, len(counts) + 1))
    assert all("released" in error for error in errors) and len(counts) + len(errors) == 300


def test_library_listing() -> None:
    library = OrtCustomOpLibrary.load(plugin_path(LEAKY_RELU_ORT))
    assert sorted(op.input_dtypes[0].value for op in library.ops) == ["bfloat16", "float16", "float32", "float64"]
    assert {(op.domain, op.name, op.api_version, op.opsets, op.unsupported) for op in library.ops} == {
        ("com.example", "LeakyRelu", 29, (1, 1), "")
    }
    plugin = NativePlugin.load(plugin_path(LEAKY_RELU_OPBRIDGE))
    assert plugin.api_version == 1
    (op,) = plugin.ops
    assert op.input_dtypes[0] == {DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64}


@pytest.mark.parametrize(
    ("library", "abi"),
    [(LEAKY_RELU_ORT, "ort"), (LEAKY_RELU_OPBRIDGE, "opbridge"), (TEST_PLUGIN, "opbridge")],
)
def test_load_release_and_reload_100_times(library: str, abi: Literal["ort", "opbridge"]) -> None:
    # Load, run, release, and load again; and a session that loads the library,
    # fails on the model (an op it does not have) and releases it. Under ASan
    # in .ci/run (--config=asan-python).
    if library == TEST_PLUGIN:
        model, missing = single_node_model("Echo", domain="test"), single_node_model("Missing", domain="test")
    else:
        model, missing = leaky_relu_model(), single_node_model("Missing", domain="com.example")
    x = np.array([[-1.0, 2.0]], np.float32)
    for _ in range(100):
        with CustomOpSession(plugin_path(library), model, abi=abi) as session:
            assert session.run([x])[0].shape == (1, 2)
        with pytest.raises(UnsupportedOperatorError, match="Missing"):
            CustomOpSession(plugin_path(library), missing, abi=abi)


def test_onnxruntime_was_never_imported() -> None:
    assert "onnxruntime" not in sys.modules
