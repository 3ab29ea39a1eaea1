# SPDX-License-Identifier: Apache-2.0
"""The Protocols of opbridge.ops.contracts against the classes that implement them: each member a
Protocol lists exists on its class, a method with the same parameters (names, kinds, defaults), a
field as an attribute of an instance."""

import dataclasses
import inspect
from typing import Any

import pytest
from opbridge.backends.c.emit_context import EmitContext, NodeCode
from opbridge.frontends.onnx.conversion import OnnxConversion, OnnxNode
from opbridge.frontends.torch.translation import TensorMeta, TorchNode, TorchTranslation
from opbridge.ir import DType, Graph
from opbridge.ops import contracts
from opbridge.registry import default_registry_context


def _instances() -> dict[type, object]:
    graph = Graph("g", [], [], [], [])
    conversion = OnnxConversion("g", default_registry_context(), "test")
    torch_node = TorchNode("aten.relu.default", "relu", (), ("self",), (TensorMeta(DType.FLOAT32, (1,)),), 0)
    translation = TorchTranslation(conversion)
    translation.begin(torch_node)
    return {
        contracts.CEmitContext: EmitContext("p", graph, plan=None),  # type: ignore[arg-type]
        contracts.CNodeCode: NodeCode(),
        contracts.OnnxConversionState: conversion,
        contracts.OnnxNodeView: OnnxNode("Relu", "", "relu", ("x",), ("y",), {}, 0),
        contracts.TorchTranslationState: translation,
        contracts.TorchNodeView: torch_node,
    }


PROTOCOLS = [
    contracts.CEmitContext,
    contracts.CNodeCode,
    contracts.OnnxConversionState,
    contracts.OnnxNodeView,
    contracts.TorchTranslationState,
    contracts.TorchNodeView,
]


def _members(protocol: type) -> dict[str, Any]:
    members: dict[str, Any] = dict.fromkeys(inspect.get_annotations(protocol))
    members.update(
        {name: value for name, value in protocol.__dict__.items() if not name.startswith("_") and callable(value)}
    )
    members.update({name: value for name, value in protocol.__dict__.items() if isinstance(value, property)})
    return members


def _parameters(function: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda protocol: protocol.__name__)
def test_the_implementing_class_has_every_member(protocol: type) -> None:
    instance = _instances()[protocol]
    cls = type(instance)
    members = _members(protocol)
    assert members, f"{protocol.__name__} lists no members"
    for name, value in members.items():
        assert hasattr(instance, name), f"{cls.__name__} has no {name!r}, which {protocol.__name__} lists"
        if isinstance(value, property):
            declared = inspect.getattr_static(cls, name, None)
            fields = {field.name for field in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
            assert isinstance(declared, property) or name in fields, f"{cls.__name__}.{name} is no attribute"
        elif value is not None:
            implemented = inspect.getattr_static(cls, name)
            assert _parameters(implemented) == _parameters(value), (
                f"{cls.__name__}.{name}{inspect.signature(implemented)} differs from "
                f"{protocol.__name__}.{name}{inspect.signature(value)}"
            )
