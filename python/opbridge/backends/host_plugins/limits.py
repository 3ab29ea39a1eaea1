# SPDX-License-Identifier: Apache-2.0
"""The native hosts' limits, checked in Python before anything is parsed or copied.

The C++ hosts check the same limits again (cc/plugin/tensor_limits.h) for
C and C++ callers; these checks give Python callers a ValueError first.
"""

from typing import Any

import _opbridge_plugins as _host
import numpy as np

# The C hosts' own limits (one definition, in tensor_limits.h).
MAX_MODEL_BYTES: int = _host.MAX_MODEL_BYTES
MAX_TENSOR_BYTES: int = _host.MAX_TENSOR_BYTES
MAX_RANK: int = _host.MAX_RANK


def check_model_size(size: int) -> None:
    if size > MAX_MODEL_BYTES:
        raise ValueError(f"the model has {size} bytes, more than the {MAX_MODEL_BYTES}-byte limit")


def check_array(array: np.ndarray[Any, Any], what: str) -> None:
    """Rank, dimensions and byte size of an array, before it is copied."""
    if array.ndim > MAX_RANK:
        raise ValueError(f"{what}: rank {array.ndim} is outside 0..{MAX_RANK}")
    # NumPy shapes are non-negative and their product fits in memory, but the
    # byte count is still computed without trusting array.nbytes.
    total = array.dtype.itemsize
    for dim in array.shape:
        total *= int(dim)
    if total > MAX_TENSOR_BYTES:
        raise ValueError(f"{what}: {total} bytes exceed the {MAX_TENSOR_BYTES}-byte limit per tensor")
