# SPDX-License-Identifier: Apache-2.0
"""ARG_MIN's attributes: ARG_MAX's (the index type of the output)."""

from opbridge.ops.arg_max.attributes import ArgMinMaxAttributes

__all__ = ["ArgMinMaxAttributes"]
