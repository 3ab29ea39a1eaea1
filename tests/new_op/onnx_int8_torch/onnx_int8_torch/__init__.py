# SPDX-License-Identifier: Apache-2.0
"""The OnnxInt8Torch plugin: onnx_int8_torch.plugin."""
