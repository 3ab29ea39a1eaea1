# SPDX-License-Identifier: Apache-2.0
"""One-operator graphs, checked against TFLite Micro and against the C kernels.

- `check_reference_matches_tflite_micro(graph, ...)` writes the graph as a
  LiteRT model, reads it back with opbridge's frontend (so options parsing
  is checked too), and compares the reference interpreter with TFLite Micro
  on seeded inputs.
- `check_c_matches_reference(graph)` emits the graph as a C module with a
  golden test (seeded inputs, reference outputs), compiles it with the host
  gcc together with cc/kernels, runs it, and fails unless the module's
  outputs equal the reference's byte for byte (float32 outputs: within the
  golden program's ULP tolerance, or `float_ulp_tolerance`; 0 is exact).
  The kernels are compiled once per process (opbridge_testing.host_build);
  each example compiles only the module and its golden program.

Float32 outputs are compared with TFLite Micro exactly, or, for kernels that
call libm (exp, tanh), with `float_rtol` (relative tolerance).

Property tests of operators (`ops/<op>/op_test.py`) draw shapes and
quantization parameters and call both.
"""

import pathlib
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from hypothesis import strategies as st
from opbridge.aot.compile import compile_graph
from opbridge.aot.definition_registration import as_registry_context
from opbridge.backends.c.golden import golden_test_source
from opbridge.backends.c.golden_inputs import seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.registry_context import OperatorRegistry

from opbridge_testing.host_build import COMPILER, KernelSet, build_program
from opbridge_testing.litert_models import single_op_model
from opbridge_testing.tflm import run_tflite_micro

# Workspace-relative: tests run from the runfiles root with cc/kernels as data
# (or from the source tree, where the kernels' own C tests must be left out).
WORKSPACE_ROOT = pathlib.Path(".")
KERNEL_SOURCES = sorted(
    path for path in pathlib.Path("cc/kernels").glob("opbridge_*.c") if not path.stem.endswith("_test")
)
# Compiled once per test process, linked into every golden program.
KERNELS = KernelSet(WORKSPACE_ROOT, tuple(KERNEL_SOURCES))
# float32 inputs at the edges (for TFLite Micro comparisons on chosen inputs):
# infinities, NaN, signed zeros, subnormals, values whose sums and products
# overflow, the activation bounds, and values near the LOGISTIC cut-offs.
FLOAT32_EDGE_VALUES = np.array(
    [
        *(np.inf, -np.inf, np.nan, -0.0, 0.0, 1e-45, -1e-45, 1e-38, 3.4028235e38, -3.4028235e38, 2e38, -2e38),
        *(6.0, 6.000001, -1.0, 1.0, 0.5, -9.0, -9.000001, 16.619047, 16.61905, -100.0, 100.0, 1e-8),
    ],
    dtype=np.float32,
)


class GraphBuilder:
    """Builds a Graph tensor by tensor, then one node."""

    def __init__(self) -> None:
        self.tensors: list[Tensor] = []

    def tensor(
        self,
        name: str,
        dtype: DType,
        shape: tuple[int, ...],
        quantization: Quantization | None = None,
        data: np.ndarray | None = None,
    ) -> int:
        index = len(self.tensors)
        self.tensors.append(Tensor(index, name, dtype, tuple(shape), quantization, data))
        return index

    def single_node_graph(self, op_type: str, inputs: list[int | None], outputs: list[int], attributes: Any) -> Graph:
        graph_inputs = [i for i in inputs if i is not None and self.tensors[i].data is None]
        node = Node(0, f"{op_type.lower()}_under_test", op_type, inputs, outputs, attributes)
        return Graph("single_op", self.tensors, [node], graph_inputs, outputs)


def run_golden_program(
    module: pathlib.Path,
    golden: pathlib.Path,
    extra_sources: Sequence[pathlib.Path] = (),
    include_dirs: Sequence[pathlib.Path] = (),
    kernel_sets: Sequence[KernelSet] = (),
) -> str:
    """Compiles an emitted module (with its bundled kernels, if any) and its
    golden test program with the host gcc, runs it, and returns its output;
    AssertionError (with the compiler's or the program's output) if either fails.

    Kernels (`kernel_sets`, and the module's bundled `kernels/` folder) are
    compiled once per process and linked (opbridge_testing.host_build).
    """
    sources = [*sorted((module / "src").glob("*.c")), *extra_sources, golden]
    bundled = module / "kernels"
    if bundled.is_dir():
        bundled_sources = tuple(sorted(path.relative_to(bundled) for path in bundled.rglob("*.c")))
        kernel_sets = [*kernel_sets, KernelSet(bundled, bundled_sources)]
    includes = [*include_dirs, module / "includes-api", module / "src", bundled]
    program = build_program(sources, includes, kernel_sets, golden.with_suffix(""), compiler=COMPILER)
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, f"C differs from the reference:\n{result.stdout}{result.stderr}"
    return result.stdout


def with_float_ulp_tolerance(source: str, ulps: int) -> str:
    """A golden test program that allows `ulps` units in the last place on float32 outputs (0: bit-exact)."""
    replaced, count = re.subn(r"#define FLOAT_ULP_TOLERANCE \d+", f"#define FLOAT_ULP_TOLERANCE {ulps}", source)
    if count != 1:
        raise ValueError("the golden program has no FLOAT_ULP_TOLERANCE to set (no float32 output?)")
    return replaced


def check_c_matches_reference(
    graph: Graph,
    registry: OperatorRegistry,
    cases: int = 3,
    seed: int = 1,
    float_ulp_tolerance: int | None = None,
) -> None:
    """Raises AssertionError (with the program's output) unless C equals the reference.

    float_ulp_tolerance overrides the golden program's tolerance on float32
    outputs (opbridge.backends.c.golden.FLOAT_ULP_TOLERANCE); 0 demands equal bits.
    """
    if not KERNEL_SOURCES:
        raise FileNotFoundError("cc/kernels sources not found; add //cc/kernels:sources to the test's data")
    with tempfile.TemporaryDirectory() as scratch:
        directory = pathlib.Path(scratch)
        compile_graph(graph, registry, "single_op", directory / "module", bundle_kernels=False)
        golden = directory / "golden.c"
        source = golden_test_source(graph, registry, "single_op", cases, seed)
        if float_ulp_tolerance is not None:
            source = with_float_ulp_tolerance(source, float_ulp_tolerance)
        golden.write_text(source)
        run_golden_program(directory / "module", golden, include_dirs=[WORKSPACE_ROOT], kernel_sets=[KERNELS])


def check_reference_matches_tflite_micro(
    graph: Graph,
    registry: OperatorRegistry,
    builtin_code: int,
    version: int,
    options_type: int = 0,
    options: Any = None,
    cases: int = 3,
    seed: int = 1,
    float_rtol: float | None = None,
    inputs: Sequence[Sequence[np.ndarray]] | None = None,
) -> None:
    """Raises AssertionError unless the reference's outputs equal TFLite Micro's.

    Equal means equal bits (NaN equal to NaN), except for float32 outputs when
    float_rtol is given: then within that relative tolerance (for kernels
    whose libm calls, expf or tanhf, may round differently from NumPy). The
    inputs are `cases` seeded sets, or the given `inputs` (one list per case).
    """
    model = single_op_model(graph, builtin_code, version, options_type, options)
    parsed = read_litert_model(model, as_registry_context(registry), "single_op.tflite")
    (node,) = parsed.nodes
    assert node.attributes == graph.nodes[0].attributes, "LiteRT options did not round-trip"
    interpreter = ReferenceInterpreter(parsed, registry)
    if inputs is None:
        input_sets = [seeded_inputs(t, cases, seed=seed + i) for i, t in enumerate(parsed.input_tensors())]
        inputs = [[values[case] for values in input_sets] for case in range(cases)]
    for case, case_inputs in enumerate(inputs):
        ours = interpreter.run(list(case_inputs))
        golden = run_tflite_micro(model, list(case_inputs), len(ours))
        for position, (mine, theirs) in enumerate(zip(ours, golden, strict=True)):
            if float_rtol is not None and mine.dtype == np.float32:
                np.testing.assert_allclose(
                    mine, theirs, rtol=float_rtol, atol=0, err_msg=f"case {case} output {position} vs TFLite Micro"
                )  # NaN equal to NaN
                continue
            if mine.dtype == np.float32:
                # Bits, so that -0.0 differs from 0.0 and NaN equals NaN.
                mine = np.ascontiguousarray(mine).view(np.uint32)
                theirs = np.ascontiguousarray(theirs, dtype=np.float32).view(np.uint32)
            differing = np.flatnonzero(mine.ravel() != theirs.ravel())
            assert mine.shape == theirs.shape and differing.size == 0, (
                f"case {case} output {position}: {differing.size} values differ from TFLite Micro, "
                f"first at {differing[:5]}: ours {mine.ravel()[differing[:5]]}, TFLM {theirs.ravel()[differing[:5]]}"
            )


def broadcast_binary_graph(
    data: st.DataObject,
    op_type: str,
    dtype: DType,
    attributes: Any,
    constant: Callable[[np.random.Generator, tuple[int, ...]], np.ndarray] | None = None,
) -> Graph:
    """A drawn element-wise binary node on plain (unquantized) `dtype` tensors of rank 1 to 4 (hypothesis).

    Each input keeps or broadcasts each dimension; input 1 is sometimes a
    constant, often a scalar, with values from `constant(rng, shape)` (by
    default uniform over the dtype's range; float32: standard normal).
    """
    shape = tuple(data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(1, 4))))
    first_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    second_shape = tuple(d if data.draw(st.booleans()) else 1 for d in shape)
    builder = GraphBuilder()
    a = builder.tensor("a", dtype, first_shape)
    if data.draw(st.booleans()):
        if data.draw(st.booleans()):
            second_shape = ()
        rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
        if constant is None and dtype is DType.FLOAT32:
            values = rng.standard_normal(second_shape)
        elif constant is None:
            info = np.iinfo(dtype.numpy)
            values = rng.integers(info.min, info.max, size=second_shape, endpoint=True)
        else:
            values = constant(rng, second_shape)
        b = builder.tensor("b", dtype, second_shape, data=np.asarray(values).astype(dtype.numpy))
    else:
        b = builder.tensor("b", dtype, second_shape)
    y = builder.tensor("y", dtype, tuple(np.broadcast_shapes(first_shape, second_shape)))
    return builder.single_node_graph(op_type, [a, b], [y], attributes)


def float32_edge_graph(op_type: str, attributes: Any) -> Graph:
    """A binary float32 node on a run-time column and row of FLOAT32_EDGE_VALUES' size (every pair of edges)."""
    size = FLOAT32_EDGE_VALUES.size
    builder = GraphBuilder()
    a = builder.tensor("a", DType.FLOAT32, (size, 1))
    b = builder.tensor("b", DType.FLOAT32, (1, size))
    y = builder.tensor("y", DType.FLOAT32, (size, size))
    return builder.single_node_graph(op_type, [a, b], [y], attributes)
