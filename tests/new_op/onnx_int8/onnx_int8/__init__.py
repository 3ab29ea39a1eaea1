# SPDX-License-Identifier: Apache-2.0
"""The OnnxInt8 plugin: onnx_int8.plugin."""
