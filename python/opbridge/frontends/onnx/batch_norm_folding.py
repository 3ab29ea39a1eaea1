# SPDX-License-Identifier: Apache-2.0
"""Folds each inference-mode BatchNormalization into the Conv before it (weights scaled, bias shifted),
as onnxruntime's ConvBNFusion does; the ones left are converted by ops/shared/onnx_composite.py."""

import dataclasses

import numpy as np

from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.ir import DType


def batch_norm_factors(conversion: OnnxConversion, node: OnnxNode) -> tuple[np.ndarray, np.ndarray]:
    """Inference-mode BatchNormalization as y = x * factor + shift per channel (float32)."""
    if int(node.attribute("training_mode", 0)) != 0:
        raise node.unsupported("training_mode=1", hint="export the model in inference (eval) mode")
    scale, bias, mean, variance = (
        conversion.constant_value(name, node, role).astype(np.float32)
        for name, role in zip(node.inputs[1:5], ("the scale", "the bias", "the mean", "the variance"), strict=True)
    )
    epsilon = np.float32(node.attribute("epsilon", 1e-5))
    factor = (scale / np.sqrt(variance + epsilon)).astype(np.float32)
    return factor, (bias - mean * factor).astype(np.float32)


def fold_batch_norms(nodes: list[OnnxNode], outputs: list[str], conversion: OnnxConversion) -> list[OnnxNode]:
    """Conv -> BatchNormalization, the Conv's output read by nothing else: one Conv with scaled
    weights and a shifted bias (onnxruntime's ConvBNFusion does the same)."""
    readers: dict[str, list[OnnxNode]] = {}
    for node in nodes:
        for name in node.inputs:
            readers.setdefault(name, []).append(node)
    writer = {name: node for node in nodes for name in node.outputs}
    replaced: dict[int, OnnxNode | None] = {}
    for node in nodes:
        if node.domain not in ("", "ai.onnx") or node.op_type != "BatchNormalization":
            continue
        conv = writer.get(node.inputs[0])
        if (
            conv is None
            or conv.op_type != "Conv"
            or conv.domain not in ("", "ai.onnx")
            or len(readers.get(conv.outputs[0], [])) != 1
            or conv.outputs[0] in outputs
            or any(not _is_constant(conversion, name) for name in (*conv.inputs[1:], *node.inputs[1:5]) if name)
            or int(node.attribute("training_mode", 0)) != 0
        ):
            continue
        factor, shift = batch_norm_factors(conversion, node)
        weights = conversion.constant_value(conv.inputs[1], conv, "the weights").astype(np.float32)
        bias = np.zeros(weights.shape[0], np.float32)
        if len(conv.inputs) > 2 and conv.inputs[2]:
            bias = conversion.constant_value(conv.inputs[2], conv, "the bias").astype(np.float32)
        folded_weights = (weights * factor.reshape(-1, *([1] * (weights.ndim - 1)))).astype(np.float32)
        folded_bias = (bias * factor + shift).astype(np.float32)
        w_name, b_name = f"{node.name}/folded_weights", f"{node.name}/folded_bias"
        conversion.add_tensor(w_name, DType.FLOAT32, folded_weights.shape, folded_weights)
        conversion.add_tensor(b_name, DType.FLOAT32, folded_bias.shape, folded_bias)
        inputs = (conv.inputs[0], w_name, b_name)
        replaced[id(conv)] = dataclasses.replace(conv, inputs=inputs, outputs=node.outputs)
        replaced[id(node)] = None
    rewritten = [replaced.get(id(node), node) for node in nodes]
    return [node for node in rewritten if node is not None]


def _is_constant(conversion: OnnxConversion, name: str) -> bool:
    index = conversion.by_name.get(name)
    return index is not None and conversion.tensor(index).data is not None
