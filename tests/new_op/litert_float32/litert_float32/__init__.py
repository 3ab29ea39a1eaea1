# SPDX-License-Identifier: Apache-2.0
"""The LitertFloat32 plugin: litert_float32.plugin."""
