# SPDX-License-Identifier: Apache-2.0
"""ARG_MIN -> opbridge_arg_min_f32 or opbridge_arg_min_s8 (cc/kernels/opbridge_arg_min_max.h)."""

from opbridge.ops.arg_max.emit_c import arg_min_max_emitter

emit_arg_min = arg_min_max_emitter("opbridge_arg_min")
