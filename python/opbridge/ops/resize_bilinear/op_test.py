# SPDX-License-Identifier: Apache-2.0
"""RESIZE_BILINEAR (float32, int8) on drawn shapes, sizes up and down and the three option combinations TFLite
Micro takes: reference == TFLite Micro bit for bit, C module == reference bit for bit; typed errors for
align_corners with half_pixel_centers, a run-time size, int8 sizes TFLite would read past, unequal quantization."""

import pathlib
import subprocess
import tempfile

import numpy as np
import pytest
from ai_edge_litert import schema_py_generated as schema
from hypothesis import given, settings
from hypothesis import strategies as st
from opbridge_testing import strategies
from opbridge_testing.host_build import build_program
from opbridge_testing.operators import available_operator_registry
from opbridge_testing.single_op import (
    KERNELS,
    WORKSPACE_ROOT,
    GraphBuilder,
    check_c_matches_reference,
    check_reference_matches_tflite_micro,
)

from opbridge.aot.compile import compile_graph
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.errors import OpbridgeError
from opbridge.ir import DType, Graph, Quantization
from opbridge.ops.resize_nearest_neighbor.attributes import ResizeAttributes

REGISTRY = available_operator_registry()
CODE = schema.BuiltinOperator.RESIZE_BILINEAR
# The combinations TFLite Micro takes (it refuses align_corners with half_pixel_centers).
OPTIONS = [ResizeAttributes(False, False), ResizeAttributes(True, False), ResizeAttributes(False, True)]


def resize_graph(
    shape: tuple[int, int, int, int],
    size: tuple[int, int],
    attributes: ResizeAttributes,
    dtype: DType = DType.FLOAT32,
    quantization: tuple[Quantization | None, Quantization | None] = (None, None),
    constant: bool = True,
) -> Graph:
    builder = GraphBuilder()
    x = builder.tensor("input", dtype, shape, quantization[0])
    s = builder.tensor("size", DType.INT32, (2,), None, np.array(size, np.int32) if constant else None)
    y = builder.tensor("output", dtype, (shape[0], size[0], size[1], shape[3]), quantization[1])
    return builder.single_node_graph("RESIZE_BILINEAR", [x, s], [y], attributes)


def draw_graph(data: st.DataObject) -> Graph:
    dtype = data.draw(st.sampled_from([DType.FLOAT32, DType.INT8]))
    shape = (
        data.draw(st.integers(1, 2)),
        data.draw(st.integers(1, 7)),
        data.draw(st.integers(1, 7)),
        data.draw(st.integers(1, 3)),
    )
    size = (data.draw(st.integers(1, 13)), data.draw(st.integers(1, 13)))
    attributes = data.draw(st.sampled_from(OPTIONS))
    quantization = data.draw(strategies.per_tensor()) if dtype is DType.INT8 else None
    return resize_graph(shape, size, attributes, dtype, (quantization, quantization))


def version(graph: Graph) -> int:
    if graph.nodes[0].attributes.half_pixel_centers:
        return 3
    return 2 if graph.tensors[0].dtype is DType.INT8 else 1


def options(graph: Graph) -> schema.ResizeBilinearOptionsT:
    packed = schema.ResizeBilinearOptionsT()
    packed.alignCorners = graph.nodes[0].attributes.align_corners
    packed.halfPixelCenters = graph.nodes[0].attributes.half_pixel_centers
    return packed


def check_against_tflite_micro(graph: Graph, inputs: list[list[np.ndarray]] | None = None) -> None:
    check_reference_matches_tflite_micro(
        graph,
        REGISTRY,
        CODE,
        version(graph),
        schema.BuiltinOptions.ResizeBilinearOptions,
        options(graph),
        inputs=inputs,
    )


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_reference_matches_tflite_micro(data: st.DataObject) -> None:
    check_against_tflite_micro(draw_graph(data))


@pytest.mark.parametrize("attributes", OPTIONS)
@pytest.mark.parametrize("dtype", [DType.FLOAT32, DType.INT8])
@pytest.mark.parametrize(("size_in", "size_out"), [(1, 9), (3, 1), (5, 2), (2, 5), (7, 3), (3, 7), (16, 48), (48, 17)])
def test_edges_match_tflite_micro(attributes: ResizeAttributes, dtype: DType, size_in: int, size_out: int) -> None:
    # Ratios that round in float32 and in 1/1024ths, along both axes.
    quantization = Quantization((0.05,), (-3,)) if dtype is DType.INT8 else None
    shape = (1, size_in, size_out, 2)
    graph = resize_graph(shape, (size_out, size_in), attributes, dtype, (quantization, quantization))
    check_against_tflite_micro(graph)


@pytest.mark.parametrize("attributes", OPTIONS)
def test_signed_zeros_and_extremes_match_tflite_micro(attributes: ResizeAttributes) -> None:
    # float32: -0.0 + 0.0f is +0.0; int8: -128 and 127 neighbours round half away from zero.
    floats = np.array([[-0.0, -0.0, 1e-45], [-3.4e38, 3.4e38, -0.0]], np.float32).reshape(1, 2, 3, 1)
    check_against_tflite_micro(resize_graph((1, 2, 3, 1), (5, 4), attributes), [[floats]])
    q = Quantization((0.1,), (0,))
    ints = np.array([[-128, 127, -128], [127, -1, 0]], np.int8).reshape(1, 2, 3, 1)
    check_against_tflite_micro(resize_graph((1, 2, 3, 1), (5, 4), attributes, DType.INT8, (q, q)), [[ints]])


def run_c_bilinear_f32(values: np.ndarray, size: tuple[int, int], attributes: ResizeAttributes) -> np.ndarray:
    """opbridge_resize_bilinear_f32 on `values` (NHWC), compiled with the kernels' flags; the output's bits."""
    n, h, w, c = values.shape
    floats = ", ".join(f"0x{bits:08x}u" for bits in values.ravel().view(np.uint32))
    count = n * size[0] * size[1] * c
    program = f"""#include <stdio.h>
#include <string.h>
#include "cc/kernels/opbridge_resize.h"
static const uint32_t input_bits[] = {{{floats}}};
int main(void) {{
  const opbridge_resize_params params = {{4, {n}, {h}, {w}, {c}, {size[0]}, {size[1]},
                                         {int(attributes.align_corners)}, {int(attributes.half_pixel_centers)}}};
  float input[sizeof(input_bits) / 4];
  float output[{count}];
  memcpy(input, input_bits, sizeof(input));
  if (opbridge_resize_bilinear_f32(&params, input, output) != 0) return 1;
  for (int i = 0; i < {count}; ++i) {{
    uint32_t bits;
    memcpy(&bits, &output[i], 4);
    printf("%08x\\n", (unsigned)bits);
  }}
  return 0;
}}
"""
    with tempfile.TemporaryDirectory() as scratch:
        source = pathlib.Path(scratch) / "harness.c"
        source.write_text(program)
        binary = build_program([source], [WORKSPACE_ROOT], [KERNELS], pathlib.Path(scratch) / "harness")
        printed = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout.split()
    return np.array([int(word, 16) for word in printed], np.uint32).reshape(n, size[0], size[1], c)


@pytest.mark.parametrize("attributes", OPTIONS)
def test_c_signed_zeros_and_extremes_match_the_reference(attributes: ResizeAttributes) -> None:
    # The golden programs draw normal values; here -0.0 (which the final + 0.0f makes +0.0), overflow and NaN.
    values = np.array([[-0.0, -0.0, 1e-45], [-3.4e38, 3.4e38, np.nan]], np.float32).reshape(1, 2, 3, 1)
    graph = resize_graph((1, 2, 3, 1), (5, 4), attributes)
    (expected,) = ReferenceInterpreter(graph, REGISTRY).run([values])
    np.testing.assert_array_equal(run_c_bilinear_f32(values, (5, 4), attributes), expected.view(np.uint32))


@settings(max_examples=16, deadline=None)
@given(st.data())
def test_c_module_matches_reference(data: st.DataObject) -> None:
    graph = draw_graph(data)
    # The C kernel follows TFLite's float32 operation order: equal bits.
    check_c_matches_reference(
        graph, REGISTRY, float_ulp_tolerance=0 if graph.tensors[0].dtype is DType.FLOAT32 else None
    )


def test_align_corners_with_half_pixel_centers_is_refused() -> None:
    graph = resize_graph((1, 2, 2, 1), (4, 4), ResizeAttributes(True, True))
    with pytest.raises(OpbridgeError, match=r"node 0 \(RESIZE_BILINEAR.*align_corners and half_pixel_centers"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 2, 2, 1), np.float32)])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=r"half_pixel_centers"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


def test_run_time_size_is_refused() -> None:
    graph = resize_graph((1, 2, 2, 1), (4, 4), ResizeAttributes(), constant=False)
    with pytest.raises(OpbridgeError, match=r"node 0 \(RESIZE_BILINEAR.*size.*run time"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 2, 2, 1), np.float32), np.array([4, 4], np.int32)])
    with tempfile.TemporaryDirectory() as scratch, pytest.raises(OpbridgeError, match=r"size.*run time"):
        compile_graph(graph, REGISTRY, "single_op", pathlib.Path(scratch) / "module", bundle_kernels=False)


def test_int8_sizes_tflite_would_read_past_are_refused() -> None:
    # 1 -> 80: scale_10 = (1024 + 40) / 80 = 13, and 79 * 13 = 1027 puts the last lower row at 1 (past row 0).
    q = Quantization((0.1,), (0,))
    graph = resize_graph((1, 1, 2, 1), (80, 2), ResizeAttributes(), DType.INT8, (q, q))
    with pytest.raises(OpbridgeError, match=r"node 0 \(RESIZE_BILINEAR.*height from 1 to 80.*past the input"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 1, 2, 1), np.int8)])
    # float32 computes the position in float: the same size is fine.
    check_against_tflite_micro(resize_graph((1, 1, 2, 1), (80, 2), ResizeAttributes()))


def test_unequal_int8_quantization_is_refused() -> None:
    quantization = (Quantization((0.1,), (3,)), Quantization((0.1,), (4,)))
    graph = resize_graph((1, 2, 2, 1), (3, 3), ResizeAttributes(), DType.INT8, quantization)
    with pytest.raises(OpbridgeError, match=r"node 0 \(RESIZE_BILINEAR.*quantization differ"):
        ReferenceInterpreter(graph, REGISTRY).run([np.zeros((1, 2, 2, 1), np.int8)])
