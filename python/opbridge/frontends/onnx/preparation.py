# SPDX-License-Identifier: Apache-2.0
"""What happens to an ONNX ModelProto before its nodes are converted.

1. `upgrade_opset`: a model importing the default domain below opbridge's
   lowest opset (MIN_OPSET, 13) is rewritten with the `onnx` package's
   version converter, as a user would do by hand. Exporters of the opset 6-12
   era are common; each op's adapters are the onnx package's, not ours.
2. `fold_constant_subgraphs`: every standard node whose inputs are all
   constants is evaluated with the `onnx` package's reference evaluator
   (`onnx.reference`) and replaced by initializers. So are Shape and Size of a
   value whose shape ONNX's shape inference knows. That removes the shape
   arithmetic exporters write (Shape -> Gather -> Unsqueeze -> Concat ->
   Reshape), Constant and ConstantOfShape, for any standard operator, without
   a folding rule per operator of our own.

Not folded: QuantizeLinear and DequantizeLinear (the QDQ pass reads them
around int8 weights), nodes of custom domains (opbridge's own constant
folding evaluates those with their references after conversion), random
generators, nodes with subgraphs (If, Loop, Scan), nodes writing a graph
output, nodes whose outputs would exceed the folding limit (MAX_FOLDED_BYTES,
64 MiB, unless the conversion raises it: ConvertArgs.onnx_max_folded_bytes;
checked from the inferred shapes and types before evaluating, so a huge
ConstantOfShape is never built), and nodes the evaluator fails on or that
give sequences: those stay nodes, and conversion names them. A node left
unfolded for its size that no converter takes (`unconvertible_constants`)
is refused by the importer, with its size and the setting that folds it,
in one listing with the model's unsupported nodes.
"""

import contextlib
import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from opbridge.errors import UnsupportedOperatorError

# Standard ops never folded here (see the module docstring).
NOT_FOLDED = frozenset(
    {
        "QuantizeLinear",
        "DequantizeLinear",
        "DynamicQuantizeLinear",
        "RandomNormal",
        "RandomNormalLike",
        "RandomUniform",
        "RandomUniformLike",
        "Multinomial",
        "Bernoulli",
    }
)
# A folded value larger than this stays a node (and meets its converter): a
# ConstantOfShape of a huge shape must not fill the host's memory. The default of
# ConvertArgs.onnx_max_folded_bytes (--onnx-max-folded-bytes), which raises it.
MAX_FOLDED_BYTES = 64 * 1024 * 1024
MAX_FOLDED_SETTING = "onnx_max_folded_bytes"
STANDARD_DOMAINS = ("", "ai.onnx")
GRAPH, GRAPHS = 5, 10  # onnx.AttributeProto.GRAPH and GRAPHS


@dataclasses.dataclass(frozen=True)
class UnfoldedConstant:
    """A node whose inputs are all constants, left unfolded because its outputs exceed the limit."""

    node: Any  # onnx.NodeProto
    position: int  # in the file
    nbytes: int  # its outputs' bytes (from the inferred shapes and types, or the evaluated values)

    def describe(self) -> str:
        name = self.node.name or f"{self.node.op_type}_{self.position}"
        return f'node {self.position} (ai.onnx.{self.node.op_type} "{name}", {self.nbytes:,} bytes)'


@dataclasses.dataclass(frozen=True)
class _Fold:
    """What folding one node gave: its outputs' values, or the bytes they would take when that exceeds the
    limit (the node stays, and is listed in Preparation.too_large); neither when it stays for another
    reason (not foldable, or the evaluator failed): _LEFT."""

    values: dict[str, np.ndarray] | None = None
    too_large: int | None = None  # bytes


_LEFT = _Fold()


@dataclasses.dataclass(frozen=True)
class Preparation:
    """The model as conversion reads it, and what was done to it (for the summary and -v)."""

    model: Any  # onnx.ModelProto
    opset_from: int | None  # the opset the file imported, when it was upgraded
    opset_to: int | None
    folded: dict[str, int]  # op type -> nodes folded into constants
    # Each remaining node's position before folding: messages name nodes as the file numbers them.
    positions: tuple[int, ...]
    # Nodes of constant inputs left unfolded for their size, and the limit they exceeded.
    too_large: tuple[UnfoldedConstant, ...] = ()
    max_folded_bytes: int = MAX_FOLDED_BYTES

    def notes(self) -> tuple[str, ...]:
        notes = []
        if self.opset_from is not None:
            notes.append(
                f"import: ONNX opset {self.opset_from} upgraded to {self.opset_to} with onnx.version_converter"
            )
        if self.folded:
            counts = ", ".join(f"{op} x{count}" for op, count in sorted(self.folded.items()))
            notes.append(f"import: {sum(self.folded.values())} constant node(s) folded with onnx.reference ({counts})")
        return tuple(notes)


def upgrade_opset(model: Any, version: int, target: int, source: str) -> Any:
    """`model` (importing the default domain at `version` < `target`) converted to opset `target`.
    A conversion the onnx package cannot do names the first node whose op it cannot convert."""
    import onnx
    import onnx.version_converter

    try:
        return onnx.version_converter.convert_version(model, target)
    except Exception as error:  # the converter raises RuntimeError, ValueError or its own C++ errors
        try:
            culprit = _first_unconvertible_node(model, version, target)
        except Exception:  # the probes rebuild nodes with onnx.helper, which may fail on a damaged node
            culprit = ""
        where = f"{culprit}: " if culprit else ""
        # The converter's C++ assertions read "<file>:<line>: <function>: Assertion `...` failed: <why>".
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        reason = re.sub(r"^.*? failed: ", "", reason)
        raise UnsupportedOperatorError(
            f"{source}: {where}onnx.version_converter cannot convert the model from ONNX opset {version} "
            f"to {target}: {reason}",
            hint=f"re-export the model at opset {target} or later (torch.onnx.export(..., opset_version={target}))",
        ) from None


def per_channel_prelu_slopes(model: Any) -> None:
    """Before opset 7, PRelu's 1-D slope held one value per channel (axis 1); from 7 it broadcasts
    NumPy-style against the input's trailing axes. The version converter leaves the slope as it is,
    so a constant [C] slope (an initializer) of an input of rank 3 or more with C channels gets a
    [C, 1, ...] copy of its own here, before the upgrade."""
    import onnx
    import onnx.numpy_helper

    try:
        inferred = onnx.shape_inference.infer_shapes(model)
    except Exception:  # without shapes the slopes stay as they are; the upgraded model is checked later
        return
    infos = {i.name: i for i in [*inferred.graph.value_info, *inferred.graph.input, *inferred.graph.output]}
    initializers = {initializer.name: initializer for initializer in model.graph.initializer}
    for position, node in enumerate(model.graph.node):
        if node.op_type != "PRelu" or node.domain not in STANDARD_DOMAINS or len(node.input) < 2:
            continue
        info, slope = infos.get(node.input[0]), initializers.get(node.input[1])
        if info is None or slope is None or len(slope.dims) != 1 or slope.dims[0] == 1:
            continue
        dims = info.type.tensor_type.shape.dim
        if len(dims) < 3 or not dims[1].HasField("dim_value") or dims[1].dim_value != slope.dims[0]:
            continue
        values = onnx.numpy_helper.to_array(slope).reshape((-1,) + (1,) * (len(dims) - 2))
        name = f"{slope.name}/per_channel_{position}"
        model.graph.initializer.append(onnx.numpy_helper.from_array(values, name))
        if any(graph_input.name == slope.name for graph_input in model.graph.input):
            # IR version 3 (opset 6 era) lists every initializer among the graph inputs too.
            model.graph.input.append(onnx.helper.make_tensor_value_info(name, slope.data_type, values.shape))
        node.input[1] = name


def _first_unconvertible_node(model: Any, version: int, target: int) -> str:
    """'node 3 (ai.onnx.Upsample "up")' for the first node the converter fails on alone, or ""."""
    import onnx
    import onnx.version_converter

    tried: dict[str, bool] = {}
    for position, node in enumerate(model.graph.node):
        if node.domain not in STANDARD_DOMAINS:
            continue
        if node.op_type not in tried:
            single = onnx.helper.make_model(
                onnx.helper.make_graph(
                    [node],
                    "probe",
                    [onnx.helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, None) for n in node.input if n],
                    [onnx.helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, None) for n in node.output if n],
                ),
                opset_imports=[onnx.helper.make_opsetid("", version)],
            )
            try:
                onnx.version_converter.convert_version(single, target)
                tried[node.op_type] = True
            except Exception:
                tried[node.op_type] = False
        if not tried[node.op_type]:
            return f'node {position} (ai.onnx.{node.op_type} "{node.name or f"{node.op_type}_{position}"}")'
    return ""


def fold_constant_subgraphs(
    model: Any, version: int, max_folded_bytes: int = MAX_FOLDED_BYTES
) -> tuple[Any, dict[str, int], tuple[int, ...], tuple[UnfoldedConstant, ...]]:
    """`model` with its constant subgraphs folded into initializers (see the module docstring), how
    many nodes of each op type were folded, the position each remaining node had before, and the
    nodes left unfolded because their outputs exceed `max_folded_bytes`. The model passed in is not
    changed."""
    import onnx
    import onnx.numpy_helper

    graph = model.graph
    constants: dict[str, np.ndarray] = {}
    for initializer in graph.initializer:
        with contextlib.suppress(Exception):  # damaged: the importer reports it with its name
            constants[initializer.name] = onnx.numpy_helper.to_array(initializer)
    shapes, itemsizes = _static_shapes(model)
    outputs = {o.name for o in graph.output}
    kept: list[Any] = []
    positions: list[int] = []
    folded: dict[str, int] = {}
    new_values: dict[str, np.ndarray] = {}
    too_large: list[UnfoldedConstant] = []
    for position, node in enumerate(graph.node):
        fold = _fold(node, constants, (shapes, itemsizes), outputs, version, max_folded_bytes)
        if fold.too_large is not None:
            too_large.append(UnfoldedConstant(node, position, fold.too_large))
        if fold.values is None:
            kept.append(node)
            positions.append(position)
            continue
        for name, value in fold.values.items():
            constants[name] = value
            new_values[name] = value
        folded[node.op_type] = folded.get(node.op_type, 0) + 1
    if not folded:
        return model, {}, tuple(positions), tuple(too_large)
    result = onnx.ModelProto()
    result.CopyFrom(model)
    del result.graph.node[:]
    result.graph.node.extend(kept)
    read = {name for node in kept for name in node.input} | outputs
    result.graph.initializer.extend(
        onnx.numpy_helper.from_array(value, name) for name, value in new_values.items() if name in read
    )
    return result, folded, tuple(positions), tuple(too_large)


def unconvertible_constants(
    preparation: Preparation, convertible: Callable[[str], bool]
) -> tuple[UnfoldedConstant, ...]:
    """The nodes left unfolded for their size (Preparation.too_large) that no converter takes
    (`convertible(op_type)` is False, as for ConstantOfShape): the importer refuses them, listed
    with the model's unsupported nodes (unfolded_constants_problem)."""
    return tuple(unfolded for unfolded in preparation.too_large if not convertible(unfolded.node.op_type))


def unfolded_constants_problem(refused: Sequence[UnfoldedConstant], limit: int) -> tuple[str, str]:
    """The problem with `refused` (unconvertible_constants, not empty), every node with its bytes, and
    the hint naming the setting that folds them."""
    needed = max(unfolded.nbytes for unfolded in refused)
    nodes = "; ".join(unfolded.describe() for unfolded in refused)
    problem = (
        f"{len(refused)} node(s) of constant inputs compute values larger than the {limit:,}-byte limit on "
        f"folded constants, so they were not folded, and opbridge has no converter to run them: {nodes}"
    )
    hint = (
        f"raise the limit to {needed:,} bytes or more: `{MAX_FOLDED_SETTING}: {needed}` in the config "
        f"(ConvertArgs.{MAX_FOLDED_SETTING}), --onnx-max-folded-bytes {needed} on the command line, or "
        f"read_onnx_model(..., max_folded_bytes={needed}); the host then holds the folded values in memory"
    )
    return problem, hint


def _static_shapes(model: Any) -> tuple[dict[str, tuple[int, ...]], dict[str, int]]:
    """The shapes ONNX's shape inference gives each value, where every dimension is known, and the
    bytes of one element of each value whose element type it knows."""
    import onnx

    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception:  # inference refuses some valid models; folding Shape then waits for our checks
        return {}, {}
    shapes, itemsizes = {}, {}
    for info in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output):
        if not info.type.HasField("tensor_type"):
            continue
        with contextlib.suppress(Exception):  # an element type NumPy has no dtype for: 8 bytes assumed
            itemsizes[info.name] = np.dtype(
                onnx.helper.tensor_dtype_to_np_dtype(info.type.tensor_type.elem_type)
            ).itemsize
        if not info.type.tensor_type.HasField("shape"):
            continue
        dims = info.type.tensor_type.shape.dim
        if all(d.HasField("dim_value") for d in dims):
            shapes[info.name] = tuple(int(d.dim_value) for d in dims)
    return shapes, itemsizes


def _fold(
    node: Any,
    constants: dict[str, np.ndarray],
    types: tuple[dict[str, tuple[int, ...]], dict[str, int]],
    outputs: set[str],
    version: int,
    max_folded_bytes: int,
) -> _Fold:
    """The values of `node`'s outputs when it can be folded; their bytes when they exceed
    `max_folded_bytes`; else _LEFT."""
    shapes, itemsizes = types
    if node.domain not in STANDARD_DOMAINS or node.op_type in NOT_FOLDED:
        return _LEFT
    if outputs.intersection(node.output) or not node.output:
        return _LEFT
    if node.op_type in ("Shape", "Size") and node.input and node.input[0] not in constants:
        return _Fold(values=_shape_of(node, shapes))
    inputs = [name for name in node.input if name]
    if not inputs and node.op_type not in ("Constant",):
        return _LEFT
    if any(name not in constants for name in inputs):
        return _LEFT
    if any(attribute.type in (GRAPH, GRAPHS) for attribute in node.attribute):
        return _LEFT  # If, Loop, Scan: their bodies may read values outside the node
    names = [name for name in node.output if name]
    if all(name in shapes for name in names):
        # Checked before evaluating: a huge ConstantOfShape must not be built at all.
        expected = sum(itemsizes.get(name, 8) * int(np.prod(shapes[name], dtype=np.int64)) for name in names)
        if expected > max_folded_bytes:
            return _Fold(too_large=expected)
    values = _evaluate(node, constants, version)
    if values is None:
        return _LEFT
    nbytes = sum(v.nbytes for v in values.values())
    return _Fold(too_large=nbytes) if nbytes > max_folded_bytes else _Fold(values=values)


def _shape_of(node: Any, shapes: dict[str, tuple[int, ...]]) -> dict[str, np.ndarray] | None:
    """Shape (with its start and end, opset 15+) or Size of a value of known shape."""
    shape = shapes.get(node.input[0])
    if shape is None:
        return None
    if node.op_type == "Size":
        return {node.output[0]: np.array(int(np.prod(shape, dtype=np.int64)), np.int64)}
    attributes = {a.name: a.i for a in node.attribute}
    rank = len(shape)
    start, end = attributes.get("start", 0), attributes.get("end", rank)
    start, end = (max(0, min(rank, v + rank if v < 0 else v)) for v in (start, end))
    return {node.output[0]: np.array(shape[start:end], np.int64)}


def _evaluate(node: Any, constants: dict[str, np.ndarray], version: int) -> dict[str, np.ndarray] | None:
    """One node evaluated by onnx.reference at the model's opset, its inputs as initializers; None
    when the evaluator fails or gives something other than tensors (sequences, maps): the node is
    then left to conversion, whose converter names the problem, or which lists it as unsupported."""
    import onnx
    import onnx.numpy_helper
    from onnx.reference import ReferenceEvaluator

    inputs = [name for name in node.input if name]
    graph = onnx.helper.make_graph(
        [node],
        "fold",
        [],
        [onnx.helper.make_empty_tensor_value_info(name) for name in node.output if name],
        initializer=[onnx.numpy_helper.from_array(np.asarray(constants[name]), name) for name in inputs],
    )
    single = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", version)])
    names = [name for name in node.output if name]
    try:
        results = ReferenceEvaluator(single).run(None, {})
    except Exception:  # the evaluator raises what its kernels raise (MemoryError included)
        return None
    if len(results) != len(names) or not all(isinstance(value, np.ndarray | np.generic) for value in results):
        return None
    return {name: np.asarray(value) for name, value in zip(names, results, strict=True)}
