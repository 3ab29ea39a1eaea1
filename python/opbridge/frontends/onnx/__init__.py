# SPDX-License-Identifier: Apache-2.0
"""ONNX models, read with the `onnx` package (importer: read_onnx_model, load_onnx_model), prepared
(preparation, qdq_fusion, batch_norm_folding) and converted node by node through the registry's
onnx_converters (conversion)."""
