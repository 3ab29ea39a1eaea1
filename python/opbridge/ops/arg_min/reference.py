# SPDX-License-Identifier: Apache-2.0
"""TFLite Micro's ARG_MIN: ARG_MAX's reference (ops/arg_max/reference.py) with `candidate < current`.

Ties keep the first index (0.0 and -0.0 tie); a NaN candidate never wins and a NaN at index 0 is never
replaced.
"""

from opbridge.ops.arg_max.reference import arg_min_max_reference

arg_min_reference = arg_min_max_reference(is_max=False)
