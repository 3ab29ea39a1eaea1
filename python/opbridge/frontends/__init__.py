# SPDX-License-Identifier: Apache-2.0
"""Model importers: each turns a model file (LiteRT, ONNX, PyTorch .pt2) or a torch.export program into an
opbridge Graph; models.load_model picks the frontend from the file's contents."""
