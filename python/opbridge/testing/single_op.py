"""One-operator graphs, checked against TFLite Micro and against the C kernels.

- `check_reference_matches_tflite_micro(graph, ...)` writes the graph as a
  LiteRT model, reads it back with opbridge's frontend (so options parsing
  is checked too), and compares the reference interpreter with TFLite Micro
  on seeded inputs.
- `check_c_matches_reference(graph)` emits the graph as a C module with a
  golden test (seeded inputs, reference outputs), compiles it with the host
  gcc together with cc/kernels, runs it, and fails unless the module's
  outputs equal the reference's byte for byte.

Property tests of operators (`ops/<op>/op_test.py`) draw shapes and
quantization parameters and call both.
"""

import pathlib
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ai_edge_litert import schema_py_generated as schema
from hypothesis import assume
from hypothesis import strategies as st

from opbridge.backends.c.golden import golden_test_source
from opbridge.backends.host import ReferenceInterpreter
from opbridge.converter import compile_graph
from opbridge.frontends.litert import read_litert_model
from opbridge.ir import DType, Graph, Node, Quantization, Tensor
from opbridge.ops.average_pool_2d.attributes import Pool2DAttributes
from opbridge.ops.common import window
from opbridge.ops.registry import OperatorRegistry
from opbridge.testing import strategies
from opbridge.testing.inputs import seeded_inputs
from opbridge.testing.litert_models import single_op_model
from opbridge.testing.tflm import run_tflite_micro

# Workspace-relative: tests run from the runfiles root with cc/kernels as data
# (or from the source tree, where the kernels' own C tests must be left out).
KERNEL_SOURCES = sorted(
    path for path in pathlib.Path("cc/kernels").glob("opbridge_*.c") if not path.stem.endswith("_test")
)
COMPILER = "gcc"


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
) -> str:
    """Compiles an emitted module (with its bundled kernels, if any) and its
    golden test program with the host gcc, runs it, and returns its output;
    AssertionError (with the compiler's or the program's output) if either fails."""
    sources = [*sorted((module / "src").glob("*.c")), *sorted((module / "kernels").rglob("*.c")), *extra_sources]
    program = golden.with_suffix("")
    includes = [*include_dirs, module / "includes-api", module / "src", module / "kernels"]
    compile_command = [
        COMPILER, "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", *(f"-I{d}" for d in includes),
        *map(str, sources), str(golden), "-lm", "-o", str(program),
    ]  # fmt: skip
    compiled = subprocess.run(compile_command, capture_output=True, text=True, check=False)
    assert compiled.returncode == 0, f"the emitted module does not compile:\n{compiled.stderr}"
    result = subprocess.run([str(program)], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, f"C differs from the reference:\n{result.stdout}{result.stderr}"
    return result.stdout


def check_c_matches_reference(graph: Graph, registry: OperatorRegistry, cases: int = 3, seed: int = 1) -> None:
    """Raises AssertionError (with the program's output) unless C equals the reference."""
    if not KERNEL_SOURCES:
        raise FileNotFoundError("cc/kernels sources not found; add //cc/kernels:sources to the test's data")
    with tempfile.TemporaryDirectory() as scratch:
        directory = pathlib.Path(scratch)
        compile_graph(graph, registry, "single_op", directory / "module", bundle_kernels=False)
        golden = directory / "golden.c"
        golden.write_text(golden_test_source(graph, registry, "single_op", cases, seed))
        run_golden_program(directory / "module", golden, extra_sources=KERNEL_SOURCES, include_dirs=[pathlib.Path(".")])


def check_reference_matches_tflite_micro(
    graph: Graph,
    registry: OperatorRegistry,
    builtin_code: int,
    version: int,
    options_type: int = 0,
    options: Any = None,
    cases: int = 3,
    seed: int = 1,
) -> None:
    model = single_op_model(graph, builtin_code, version, options_type, options)
    parsed = read_litert_model(model, registry, "single_op.tflite")
    (node,) = parsed.nodes
    assert node.attributes == graph.nodes[0].attributes, "LiteRT options did not round-trip"
    interpreter = ReferenceInterpreter(parsed, registry)
    input_sets = [seeded_inputs(t, cases, seed=seed + i) for i, t in enumerate(parsed.input_tensors())]
    for case in range(cases):
        inputs = [values[case] for values in input_sets]
        ours = interpreter.run(inputs)
        golden = run_tflite_micro(model, inputs, len(ours))
        for position, (mine, theirs) in enumerate(zip(ours, golden, strict=True)):
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
    default uniform over the dtype's range).
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
        if constant is None:
            info = np.iinfo(dtype.numpy)
            values = rng.integers(info.min, info.max, size=second_shape, endpoint=True)
        else:
            values = constant(rng, second_shape)
        b = builder.tensor("b", dtype, second_shape, data=np.asarray(values).astype(dtype.numpy))
    else:
        b = builder.tensor("b", dtype, second_shape)
    y = builder.tensor("y", dtype, tuple(np.broadcast_shapes(first_shape, second_shape)))
    return builder.single_node_graph(op_type, [a, b], [y], attributes)


def pool_2d_graph(data: st.DataObject, op_type: str) -> Graph:
    """A drawn AVERAGE_POOL_2D or MAX_POOL_2D node (hypothesis)."""
    height, width, channels = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9)), data.draw(st.integers(1, 4))
    attributes = Pool2DAttributes(
        padding=data.draw(strategies.PADDINGS),
        stride_height=data.draw(st.integers(1, 3)),
        stride_width=data.draw(st.integers(1, 3)),
        filter_height=data.draw(st.integers(1, 4)),
        filter_width=data.draw(st.integers(1, 4)),
        activation=data.draw(strategies.ACTIVATIONS),
    )
    rows = window(attributes.padding, height, attributes.filter_height, attributes.stride_height)
    cols = window(attributes.padding, width, attributes.filter_width, attributes.stride_width)
    assume(rows.output_size > 0 and cols.output_size > 0)
    quantization = data.draw(strategies.per_tensor())  # TFLite requires equal input and output quantization
    builder = GraphBuilder()
    x = builder.tensor("input", DType.INT8, (1, height, width, channels), quantization)
    y = builder.tensor("output", DType.INT8, (1, rows.output_size, cols.output_size, channels), quantization)
    return builder.single_node_graph(op_type, [x], [y], attributes)


def pool_2d_options(graph: Graph) -> schema.Pool2DOptionsT:
    attributes = graph.nodes[0].attributes
    options = schema.Pool2DOptionsT()
    options.padding = attributes.padding.value
    options.strideH, options.strideW = attributes.stride_height, attributes.stride_width
    options.filterHeight, options.filterWidth = attributes.filter_height, attributes.filter_width
    options.fusedActivationFunction = attributes.activation.value
    return options
