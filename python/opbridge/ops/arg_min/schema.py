# SPDX-License-Identifier: Apache-2.0
"""ARG_MIN's schema: ARG_MAX's inputs, attributes and shapes (ops/arg_max/schema.py)."""

from opbridge.ops.arg_max.schema import arg_min_max_schema

ARG_MIN_SCHEMA = arg_min_max_schema(
    "ARG_MIN",
    "The index of the smallest value along the axis (TFLite Micro's reference: the first of equal values; "
    "a NaN never wins, and a NaN first is never replaced).",
)
