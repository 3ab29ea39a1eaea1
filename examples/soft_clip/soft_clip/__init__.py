# SPDX-License-Identifier: Apache-2.0
"""The SoftClip plugin: soft_clip.plugin."""
