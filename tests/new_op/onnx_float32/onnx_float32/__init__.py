# SPDX-License-Identifier: Apache-2.0
"""The OnnxFloat32 plugin: onnx_float32.plugin."""
