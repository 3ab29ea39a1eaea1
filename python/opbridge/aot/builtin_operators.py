# SPDX-License-Identifier: Apache-2.0
"""Registers the built-in operators in a RegistryContext, explicitly, from ops/builtin.py."""

from opbridge.aot.definition_registration import register_builtin_definitions
from opbridge.ops.builtin import builtin_operators
from opbridge.ops.shared.onnx_composite import COMPOSITE_CONVERTERS
from opbridge.ops.shared.onnx_qoperator import QOPERATOR_CONVERTERS
from opbridge.ops.shared.torch_composite import COMPOSITE_TORCH_CONVERTERS
from opbridge.registry_context import RegistryContext


def register_builtin_operators(context: RegistryContext) -> None:
    register_builtin_definitions(context, builtin_operators())
    for converter in (*COMPOSITE_CONVERTERS, *QOPERATOR_CONVERTERS):
        context.onnx_converters.register(converter.key, converter)
    for torch_converter in COMPOSITE_TORCH_CONVERTERS:
        context.torch_converters.register(torch_converter.key, torch_converter)
