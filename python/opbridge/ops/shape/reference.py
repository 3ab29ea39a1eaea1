# SPDX-License-Identifier: Apache-2.0
"""SHAPE: reference implementation: the input tensor's shape, in the output's integer type."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall


def shape_reference(call: ReferenceCall) -> list[Array]:
    return [np.array(call.value(0).shape, dtype=call.outputs[0].dtype.numpy)]
