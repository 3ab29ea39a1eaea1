# SPDX-License-Identifier: Apache-2.0
"""RESHAPE: reference implementation (the same values under the output's shape)."""

from opbridge.ops.definition import Array, ReferenceCall


def reshape_reference(call: ReferenceCall) -> list[Array]:
    return [call.value(0).reshape(call.outputs[0].shape).copy()]
