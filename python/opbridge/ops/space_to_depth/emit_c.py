# SPDX-License-Identifier: Apache-2.0
"""SPACE_TO_DEPTH -> opbridge_space_to_depth (cc/kernels/opbridge_depth_space.h)."""

from opbridge.ops.depth_to_space.emit_c import depth_space_emitter

emit_space_to_depth = depth_space_emitter("opbridge_space_to_depth")
