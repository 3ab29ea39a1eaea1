# SPDX-License-Identifier: Apache-2.0
"""The intermediate representation: tensors, nodes and a scheduled graph."""

from opbridge.ir.graph import DType, Graph, Node, Quantization, Tensor

__all__ = ["DType", "Graph", "Node", "Quantization", "Tensor"]
