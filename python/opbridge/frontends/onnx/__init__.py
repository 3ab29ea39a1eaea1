# SPDX-License-Identifier: Apache-2.0
"""ONNX models, read with the `onnx` package (importer: read_model_proto, read_node, read_onnx_model)."""
