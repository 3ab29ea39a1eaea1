# SPDX-License-Identifier: Apache-2.0
"""The OnnxFloat32Torch plugin: onnx_float32_torch.plugin."""
