# SPDX-License-Identifier: Apache-2.0
"""opbridge's ORT-ABI host on onnxruntime-extensions, the most widely installed custom-op library.

Its `_extensions_pydll*.so` (what `onnxruntime_extensions.get_library_path()`
returns) is loaded by path; the package is never imported. Its descriptors
are OrtCustomOp version 11 and it exports GNU-unique symbols, so onnxruntime,
the peer, runs it in a process of its own (ort_oracle.py): this process never
loads onnxruntime.

- Every op is served or refused with a reason that is not its descriptor version.
- The served (numeric) ops equal onnxruntime running the same library, on
  hypothesis-drawn inputs where the op allows any, on fixed ones otherwise.
- Load, release and load again, and a session that fails and releases the
  library, 100 times in this process (.ci/run repeats it under ASan).
"""

import importlib.util
import pathlib
import pickle
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import TensorProto, helper
from opbridge.backends.host_plugins import CustomOpSession, OrtCustomOpLibrary
from opbridge.errors import PluginKernelError, UnsupportedOperatorError, UnsupportedTensorError

# The numeric ops of onnxruntime-extensions 0.15.2 (the rest take or give strings).
NUMERIC_OPS = {
    "NegPos",
    "Inverse",
    "StftNorm",
    "SegmentSum",
    "SegmentExtraction",
    "SplitSignalSegments",
    "MergeSignalSegments",
    "RaggedTensorToSparse",
    "RaggedTensorToDense",
    "DecodeImage",
    "EncodeImage",
    "DrawBoundingBoxes",
}
ELEMENT_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64}
ELEMENT_TYPES[np.dtype(np.uint8)] = TensorProto.UINT8


def extensions_library() -> str:
    """The wheel's custom-op library, found without importing the package."""
    spec = importlib.util.find_spec("onnxruntime_extensions")
    assert spec is not None and spec.submodule_search_locations
    (library,) = pathlib.Path(spec.submodule_search_locations[0]).glob("_extensions_pydll*.so")
    return str(library)


LIBRARY = extensions_library()


class Oracle:
    """onnxruntime with the same library, in a child process (ort_oracle.py)."""

    def __init__(self) -> None:
        script = pathlib.Path(__file__).with_name("ort_oracle.py")
        self.process = subprocess.Popen(
            [sys.executable, str(script), LIBRARY], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def run(self, model: bytes, inputs: list[np.ndarray]) -> tuple[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        pickle.dump((model, {f"x{i}": array for i, array in enumerate(inputs)}), self.process.stdin)
        self.process.stdin.flush()
        return pickle.load(self.process.stdout)  # type: ignore[no-any-return]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def oracle() -> Iterator[Oracle]:
    peer = Oracle()
    yield peer
    peer.close()


REGISTERED = 64  # descriptors (some names registered in two domains)


@pytest.fixture(scope="module")
def ops() -> dict[str, Any]:
    library = OrtCustomOpLibrary.load(LIBRARY)
    assert len(library.ops) == REGISTERED
    listing = {op.name: op for op in library.ops}
    library.release()
    return listing


def op_model(ops: dict[str, Any], name: str, inputs: list[np.ndarray], outputs: int, **attributes: Any) -> bytes:
    op = ops[name]
    node = helper.make_node(
        name, [f"x{i}" for i in range(len(inputs))], [f"y{i}" for i in range(outputs)], domain=op.domain, **attributes
    )
    graph = helper.make_graph(
        [node],
        name,
        [helper.make_tensor_value_info(f"x{i}", ELEMENT_TYPES[a.dtype], None) for i, a in enumerate(inputs)],
        [helper.make_tensor_value_info(f"y{i}", op.output_types[i], None) for i in range(outputs)],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid(op.domain, 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=9).SerializeToString()


def assert_same(
    oracle: Oracle, ops: dict[str, Any], name: str, inputs: list[np.ndarray], outputs: int, **attributes: Any
) -> None:
    """Both hosts give equal outputs (values, dtypes, shapes), or both refuse the inputs."""
    model = op_model(ops, name, inputs, outputs, **attributes)
    kind, theirs = oracle.run(model, inputs)
    with CustomOpSession(LIBRARY, model) as session:
        if kind == "error":
            with pytest.raises(PluginKernelError):
                session.run(inputs)
            return
        ours = session.run(inputs)
    assert len(ours) == len(theirs)
    for mine, peer in zip(ours, theirs, strict=True):
        assert mine.dtype == peer.dtype and mine.shape == peer.shape, name
        assert np.array_equal(mine, peer, equal_nan=mine.dtype.kind == "f"), name


def test_every_op_is_served_or_refused_for_a_reason_other_than_its_version(ops: dict[str, Any]) -> None:
    assert {op.api_version for op in ops.values()} == {11}
    served = {name for name, op in ops.items() if not op.unsupported}
    assert served == NUMERIC_OPS
    for name, op in ops.items():
        assert "ORT API version" not in op.unsupported
        if name not in NUMERIC_OPS:
            assert "string tensors are not served" in op.unsupported, (name, op.unsupported)


def test_a_string_op_is_refused_with_the_reason(ops: dict[str, Any]) -> None:
    op = ops["StringLower"]
    graph = helper.make_graph(
        [helper.make_node("StringLower", ["x0"], ["y0"], domain=op.domain)],
        "lower",
        [helper.make_tensor_value_info("x0", TensorProto.STRING, None)],
        [helper.make_tensor_value_info("y0", TensorProto.STRING, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(op.domain, 1)]).SerializeToString()
    with pytest.raises(UnsupportedTensorError, match='graph input "x0" has element type string'):
        CustomOpSession(LIBRARY, model)
    assert op.unsupported.startswith("input 0 has string (string tensors are not served")


FLOATS = hnp.arrays(
    np.float32,
    hnp.array_shapes(min_dims=0, max_dims=3, max_side=5),
    elements=st.floats(-1e6, 1e6, width=32, allow_subnormal=True),
)


@settings(max_examples=40, deadline=None)
@given(x=FLOATS)
def test_neg_pos_equals_onnxruntime(oracle: Oracle, ops: dict[str, Any], x: np.ndarray) -> None:
    assert_same(oracle, ops, "NegPos", [x], 2)


@settings(max_examples=30, deadline=None)
@given(
    size=st.integers(1, 6),
    noise=hnp.arrays(np.float32, (6, 6), elements=st.floats(-0.25, 0.25, width=32)),
)
def test_inverse_equals_onnxruntime(oracle: Oracle, ops: dict[str, Any], size: int, noise: np.ndarray) -> None:
    matrix = (np.eye(size, dtype=np.float32) * 2 + noise[:size, :size]).astype(np.float32)
    assert_same(oracle, ops, "Inverse", [matrix], 1)


@settings(max_examples=30, deadline=None)
@given(
    data=hnp.arrays(
        np.float32, st.tuples(st.integers(1, 8), st.integers(1, 4)), elements=st.floats(-100, 100, width=32)
    ),
    steps=st.lists(st.integers(0, 2), min_size=8, max_size=8),
)
def test_segment_sum_equals_onnxruntime(
    oracle: Oracle, ops: dict[str, Any], data: np.ndarray, steps: list[int]
) -> None:
    segment_ids = np.cumsum(steps[: data.shape[0]]).astype(np.int64)  # sorted, as the op requires
    assert_same(oracle, ops, "SegmentSum", [data, segment_ids], 1)


@settings(max_examples=30, deadline=None)
@given(flags=hnp.arrays(np.int64, st.integers(1, 40), elements=st.integers(0, 1)))
def test_segment_extraction_equals_onnxruntime(oracle: Oracle, ops: dict[str, Any], flags: np.ndarray) -> None:
    assert_same(oracle, ops, "SegmentExtraction", [flags], 2)


@settings(max_examples=30, deadline=None)
@given(lengths=st.lists(st.integers(0, 4), min_size=1, max_size=6))
def test_ragged_tensor_to_sparse_equals_onnxruntime(oracle: Oracle, ops: dict[str, Any], lengths: list[int]) -> None:
    splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    assert_same(oracle, ops, "RaggedTensorToSparse", [splits], 2)


@settings(max_examples=20, deadline=None)
@given(
    segments=st.lists(st.tuples(st.integers(0, 60), st.integers(1, 60)), min_size=1, max_size=6), gap=st.integers(0, 80)
)
def test_merge_signal_segments_equals_onnxruntime(
    oracle: Oracle, ops: dict[str, Any], segments: list[tuple[int, int]], gap: int
) -> None:
    starts = np.cumsum([start for start, _ in segments])
    pairs = np.array([[start, start + length] for start, (_, length) in zip(starts, segments, strict=True)], np.int64)
    assert_same(oracle, ops, "MergeSignalSegments", [pairs, np.array(gap, np.int64)], 1)


def test_signal_and_image_ops_equal_onnxruntime(oracle: Oracle, ops: dict[str, Any]) -> None:
    rng = np.random.default_rng(21)
    signal = rng.standard_normal((1, 400)).astype(np.float32)
    window = np.hanning(16).astype(np.float32)
    i64 = np.int64
    assert_same(oracle, ops, "StftNorm", [signal, np.array(16, i64), np.array(8, i64), window, np.array(16, i64)], 1)
    loud = np.concatenate([np.zeros(800), np.sin(np.arange(1600)), np.zeros(800)]).astype(np.float32)[None, :]
    for threshold in (0.01, 0.1, 0.5):
        inputs = [loud, np.array(16000, i64), np.array(10, i64), np.array(3, i64), np.array(threshold, np.float32)]
        assert_same(oracle, ops, "SplitSignalSegments", inputs, 1)
    # RaggedTensorToDense reads memory it never wrote for some inputs (empty
    # values give different garbage in each run of either host): fixed ones.
    splits = np.array([0, 2, 3, 6], i64)
    values = np.arange(1, 7, dtype=i64)
    assert_same(oracle, ops, "RaggedTensorToDense", [splits, values, np.array([-1], i64), np.array([0, 4], i64)], 1)
    image = rng.integers(0, 256, (6, 5, 3), dtype=np.uint8)
    for image_format in ("png", "jpg"):
        assert_same(oracle, ops, "EncodeImage", [image], 1, format=image_format)
        kind, (encoded,) = oracle.run(op_model(ops, "EncodeImage", [image], 1, format=image_format), [image])
        assert kind == "outputs"
        assert_same(oracle, ops, "DecodeImage", [encoded], 1)
    boxes = np.array([[0, 0, 3, 3], [1, 1, 4, 2]], np.float32)
    assert_same(oracle, ops, "DrawBoundingBoxes", [image, boxes], 1)
    assert_same(oracle, ops, "DrawBoundingBoxes", [image[None], boxes], 1)  # refused by both


def test_load_release_and_reload_100_times(ops: dict[str, Any]) -> None:
    x = np.array([1.0, -2.0, 3.0], np.float32)
    model = op_model(ops, "NegPos", [x], 2)
    # A node the library does not have: the session loads the library, fails, releases it.
    missing = helper.make_model(
        helper.make_graph(
            [helper.make_node("Missing", ["x0"], ["y0"], domain=ops["NegPos"].domain)],
            "missing",
            [helper.make_tensor_value_info("x0", TensorProto.FLOAT, None)],
            [helper.make_tensor_value_info("y0", TensorProto.FLOAT, None)],
        ),
        opset_imports=[helper.make_opsetid(ops["NegPos"].domain, 1)],
    ).SerializeToString()
    for _ in range(100):
        library = OrtCustomOpLibrary.load(LIBRARY)
        assert len(library.ops) == REGISTERED
        library.release()
        with pytest.raises(UnsupportedOperatorError, match=r"has no op ai\.onnx\.contrib::Missing"):
            CustomOpSession(LIBRARY, missing)
        with CustomOpSession(LIBRARY, model) as session:
            negative, positive = session.run([x])
        assert negative.tolist() == [0.0, -2.0, 0.0] and positive.tolist() == [1.0, 0.0, 3.0]
