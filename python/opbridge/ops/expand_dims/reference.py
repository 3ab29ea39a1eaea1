# SPDX-License-Identifier: Apache-2.0
"""EXPAND_DIMS: reference implementation. The values are RESHAPE's: the same elements under the output's shape."""

from opbridge.ops.definition import Array, ReferenceCall
from opbridge.ops.reshape.reference import reshape_reference


def expand_dims_reference(call: ReferenceCall) -> list[Array]:
    return reshape_reference(call)
