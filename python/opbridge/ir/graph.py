# SPDX-License-Identifier: Apache-2.0
"""Tensors, nodes and graphs.

A Graph owns its tensors (by index) and its nodes in schedule order: every
node's inputs are graph inputs, constants, or outputs of earlier nodes.
Frontends build graphs; passes, the reference interpreter and the C backend
read them.
"""

import dataclasses
import enum
import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt


class DType(enum.Enum):
    """Element types, named as in C (int8_t is INT8)."""

    BOOL = "bool"
    INT8 = "int8"
    UINT8 = "uint8"
    INT16 = "int16"
    INT32 = "int32"
    INT64 = "int64"
    FLOAT32 = "float32"
    UINT32 = "uint32"  # the TFLM audio front end's energies
    UINT64 = "uint64"
    # Host-only element types (native plugins, ONNX models); no C backend.
    UINT16 = "uint16"
    FLOAT16 = "float16"
    BFLOAT16 = "bfloat16"
    FLOAT64 = "float64"

    @property
    def numpy(self) -> np.dtype[Any]:
        return _numpy_dtype(self)

    @property
    def itemsize(self) -> int:
        return _itemsize(self)


@functools.cache
def _itemsize(dtype: DType) -> int:
    return _numpy_dtype(dtype).itemsize


@functools.cache
def _numpy_dtype(dtype: DType) -> np.dtype[Any]:
    if dtype is DType.BFLOAT16:
        import ml_dtypes  # only needed, and only imported, for bfloat16

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(dtype.value)


@dataclasses.dataclass(frozen=True)
class Quantization:
    """real = scale * (q - zero_point), per tensor or per channel along `axis`."""

    scales: tuple[float, ...]
    zero_points: tuple[int, ...]
    axis: int | None = None

    def __post_init__(self) -> None:
        if not self.scales or len(self.scales) != len(self.zero_points):
            raise ValueError(f"quantization needs as many scales as zero points, got {self}")
        if self.axis is None and len(self.scales) != 1:
            raise ValueError(f"per-channel quantization needs an axis, got {self}")

    @property
    def per_channel(self) -> bool:
        return self.axis is not None

    @property
    def scale(self) -> float:
        """The scale of a per-tensor quantization."""
        if self.per_channel:
            raise ValueError("scale of a per-channel quantization; use scales")
        return self.scales[0]

    @property
    def zero_point(self) -> int:
        """The zero point of a per-tensor quantization."""
        if self.per_channel:
            raise ValueError("zero_point of a per-channel quantization; use zero_points")
        return self.zero_points[0]


@dataclasses.dataclass
class Tensor:
    """A value in the graph: an activation, or a constant when `data` is set."""

    index: int
    name: str
    dtype: DType
    shape: tuple[int, ...]  # -1: a dimension known only at run time (host executors only)
    quantization: Quantization | None = None
    data: npt.NDArray[Any] | None = None
    # A LiteRT variable tensor (an SVDF's activation state): neither a graph input nor written by a
    # node, it keeps its value between runs in the operator that reads it (ReferenceCall.state).
    is_variable: bool = False

    @property
    def is_constant(self) -> bool:
        return self.data is not None

    @property
    def element_count(self) -> int:
        return math.prod(int(dimension) for dimension in self.shape)

    @property
    def bytes(self) -> int:
        return self.element_count * self.dtype.itemsize

    def describe(self) -> str:
        """'tensor 3 "conv1/out" int8[1, 25, 5, 64]', for messages."""
        return f'tensor {self.index} "{self.name}" {self.dtype.value}{list(self.shape)}'


@dataclasses.dataclass
class Node:
    """One operator application. `attributes` is the op's typed attribute object."""

    index: int
    name: str
    op_type: str
    inputs: list[int | None]  # None: an omitted optional input
    outputs: list[int]
    attributes: Any = None

    def describe(self) -> str:
        """'node 4 (CONV_2D "conv1")', for messages."""
        return f'node {self.index} ({self.op_type} "{self.name}")'


@dataclasses.dataclass
class Graph:
    """Tensors by index, nodes in schedule order, and the graph's inputs and outputs."""

    name: str
    tensors: list[Tensor]
    nodes: list[Node]
    inputs: list[int]
    outputs: list[int]
    # What the frontend did to the file on the way in (an opset upgraded, constants folded), for
    # the conversion summary; not carried by the graphs that passes build from this one.
    notes: tuple[str, ...] = dataclasses.field(default=(), compare=False)

    def __post_init__(self) -> None:
        self.check_schedule()

    def tensor(self, index: int) -> Tensor:
        return self.tensors[index]

    def input_tensors(self) -> list[Tensor]:
        return [self.tensors[i] for i in self.inputs]

    def output_tensors(self) -> list[Tensor]:
        return [self.tensors[i] for i in self.outputs]

    def node_inputs(self, node: Node) -> list[Tensor | None]:
        return [None if i is None else self.tensors[i] for i in node.inputs]

    def node_outputs(self, node: Node) -> list[Tensor]:
        return [self.tensors[i] for i in node.outputs]

    def check_schedule(self) -> None:
        """Every node reads only values that exist by the time it runs."""
        available = set(self.inputs) | {t.index for t in self.tensors if t.is_constant or t.is_variable}
        for position, node in enumerate(self.nodes):
            if node.index != position:
                raise ValueError(f"{node.describe()} is at schedule position {position}")
            for tensor_index in node.inputs:
                if tensor_index is not None and tensor_index not in available:
                    raise ValueError(
                        f"{node.describe()} reads {self.tensors[tensor_index].describe()} before any node writes it"
                    )
            available.update(node.outputs)
        for tensor_index in self.outputs:
            if tensor_index not in available:
                raise ValueError(f"graph output {self.tensors[tensor_index].describe()} is never written")

    def consumers(self, tensor_index: int) -> Sequence[Node]:
        return [node for node in self.nodes if tensor_index in node.inputs]
