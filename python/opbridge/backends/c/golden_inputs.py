# SPDX-License-Identifier: Apache-2.0
"""The one generator of model inputs for golden data.

Half the inputs are uniform over the whole dtype range; half are the input
zero point plus small noise, which keeps classifier outputs away from
saturation so that more of the arithmetic is checked.
"""

import numpy as np

from opbridge.ir import DType, Tensor

DEFAULT_SEED = 20261130
QUIET_NOISE = 12


def seeded_inputs(
    tensor: Tensor, count: int, seed: int = DEFAULT_SEED, value_range: tuple[int, int] | None = None
) -> list[np.ndarray]:
    """`count` arrays for `tensor`, the same for the same (shape, dtype, count, seed). An integer
    tensor with a `value_range` [low, high) (positions an operator indexes with) is drawn uniformly in it."""
    rng = np.random.default_rng(seed)
    if value_range is not None and tensor.dtype is not DType.FLOAT32:
        low, high = value_range
        return [rng.integers(low, high, size=tensor.shape).astype(tensor.dtype.numpy) for _ in range(count)]
    if tensor.dtype is DType.FLOAT32:
        return [rng.standard_normal(tensor.shape).astype(np.float32) for _ in range(count)]
    if tensor.dtype is DType.BOOL:
        return [rng.integers(0, 2, size=tensor.shape).astype(np.bool_) for _ in range(count)]
    # Drawn as int64, except uint64 (beyond int64); the other streams stay as they were.
    draw_dtype = np.uint64 if tensor.dtype is DType.UINT64 else np.int64
    info = np.iinfo(tensor.dtype.numpy)
    zero_point = tensor.quantization.zero_point if tensor.quantization and not tensor.quantization.per_channel else 0
    arrays = []
    for index in range(count):
        if index % 2 == 0:
            values = rng.integers(info.min, info.max, size=tensor.shape, endpoint=True, dtype=draw_dtype)
        else:
            values = np.clip(
                zero_point + rng.integers(-QUIET_NOISE, QUIET_NOISE + 1, size=tensor.shape), info.min, info.max
            )
        arrays.append(values.astype(tensor.dtype.numpy))
    return arrays


def provenance(seed: int, count: int) -> str:
    return (
        f"inputs: opbridge.backends.c.golden_inputs.seeded_inputs(count={count}, seed={seed}) "
        f"(numpy {np.__version__} default_rng; even cases uniform, odd cases zero point +/- {QUIET_NOISE})"
    )
