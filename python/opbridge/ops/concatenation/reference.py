# SPDX-License-Identifier: Apache-2.0
"""CONCATENATION: reference implementation."""

import numpy as np

from opbridge.ops.definition import Array, ReferenceCall


def concatenation_reference(call: ReferenceCall) -> list[Array]:
    output = call.outputs[0]
    axis = call.attributes.axis % len(output.shape)
    return [np.concatenate([call.value(i) for i in range(len(call.inputs))], axis=axis).astype(output.dtype.numpy)]
