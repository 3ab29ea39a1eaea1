"""TFLite Micro's reference MAX_POOL_2D, int8: the largest value each window covers."""

from opbridge.ops.average_pool_2d.reference import pool_reference
from opbridge.ops.definition import Array, ReferenceCall


def max_pool_2d_reference(call: ReferenceCall) -> list[Array]:
    return pool_reference(call, lambda windows: windows.max(axis=(1, 2), initial=-128))
