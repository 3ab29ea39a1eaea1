# SPDX-License-Identifier: Apache-2.0
"""The built-in operators: one line per operator folder, in this list and nowhere else.

Each folder's `__init__.py` holds its OperatorDefinition(s) and lists them in
`DEFINITIONS`; registering a new operator is adding its folder's name here.
The list is explicit (no discovery by scanning packages): a folder that is
missing from it is reported by tests/registration.
"""

import functools
import importlib

from opbridge.ops.definition import OperatorDefinition
from opbridge.registry_context import OperatorRegistry

BUILTIN_OPERATOR_FOLDERS: tuple[str, ...] = (
    "abs",
    "add",
    "arg_max",
    "arg_min",
    "assign_variable",
    "average_pool_2d",
    "batch_matmul",
    "cast",
    "concatenation",
    "conv_2d",
    "depth_to_space",
    "depthwise_conv_2d",
    "dequantize",
    "div",
    "elu",
    "exp",
    "expand_dims",
    "floor",
    "fully_connected",
    "gather",
    "gelu",
    "hard_swish",
    "l2_normalization",
    "leaky_relu",
    "log",
    "log_softmax",
    "logistic",
    "lrn",
    "max_pool_2d",
    "maximum",
    "mean",
    "minimum",
    "mul",
    "neg",
    "pack",
    "pad",  # PAD and PADV2
    "pow",
    "prelu",
    "quantize",
    "read_variable",
    "reduce_max",
    "relu",
    "relu6",
    "reshape",
    "resize_bilinear",
    "resize_nearest_neighbor",
    "rsqrt",
    "shape",
    "softmax",
    "softplus",
    "space_to_depth",
    "split",
    "split_v",
    "sqrt",
    "squared_difference",
    "squeeze",
    "strided_slice",
    "sub",
    "sum",
    "svdf",
    "tanh",
    "tile",
    "transpose",
    "transpose_conv",
    "unidirectional_sequence_lstm",
    "unpack",
    "zeros_like",
)


def folder_definitions(folder: str) -> tuple[OperatorDefinition, ...]:
    """The definitions an operator folder (python/opbridge/ops/<folder>) lists in DEFINITIONS."""
    module = importlib.import_module(f"opbridge.ops.{folder}")
    definitions = getattr(module, "DEFINITIONS", None)
    if not isinstance(definitions, tuple) or not all(isinstance(d, OperatorDefinition) for d in definitions):
        raise TypeError(f"opbridge.ops.{folder}.DEFINITIONS must be a tuple of OperatorDefinition, got {definitions!r}")
    return definitions


@functools.cache
def builtin_operators() -> tuple[OperatorDefinition, ...]:
    """Every folder's definitions, in BUILTIN_OPERATOR_FOLDERS' order.

    Imported on first call, not with this module: a test of one operator imports
    the list and its own folder only (opbridge_testing/operators.py)."""
    return tuple(definition for folder in BUILTIN_OPERATOR_FOLDERS for definition in folder_definitions(folder))


def build_builtin_registry() -> OperatorRegistry:
    """A frozen registry of the built-in operators."""
    return OperatorRegistry(builtin_operators()).freeze()
