# SPDX-License-Identifier: Apache-2.0
"""The built-in operators a test has, as a registry or a registry context.

An operator's op test depends (in Bazel) on its own folder and the few it
uses, not on every built-in, so that editing one operator reruns only the
tests that depend on it (docs/testing.md, "Test-suite speed"). Its registry
holds the built-in folders it can import: the folders in its deps. A graph
with an operator the test lacks fails to convert with the usual
"unsupported operator" error, which names it: list the folder in the op
test's USES_OPERATORS and rewrite python/opbridge/operator_deps.bzl
(`python3 -m tests.architecture.operator_deps --write`). A test with the
whole library (or run outside Bazel) gets every built-in.
"""

import functools
import importlib
import importlib.util

from opbridge.aot.definition_registration import register_builtin_definitions
from opbridge.keyed_registry import BUILTIN_ORIGIN
from opbridge.ops.builtin import BUILTIN_OPERATOR_FOLDERS, folder_definitions
from opbridge.ops.definition import OperatorDefinition
from opbridge.registry_context import OperatorRegistry, RegistryContext


def folder_present(folder: str) -> bool:
    """Whether python/opbridge/ops/<folder> is importable here (in the test's deps)."""
    return importlib.util.find_spec(f"opbridge.ops.{folder}") is not None


@functools.cache
def present_folders() -> tuple[str, ...]:
    return tuple(folder for folder in BUILTIN_OPERATOR_FOLDERS if folder_present(folder))


@functools.cache
def present_definitions() -> tuple[OperatorDefinition, ...]:
    return tuple(definition for folder in present_folders() for definition in folder_definitions(folder))


@functools.cache
def available_operator_registry() -> OperatorRegistry:
    """A frozen registry of the built-ins this test has (all of them with the whole library)."""
    return OperatorRegistry(present_definitions()).freeze()


@functools.cache
def available_registry_context() -> RegistryContext:
    """As opbridge.registry.default_registry_context, over the built-ins this test has: their parsers,
    attribute classes, ONNX and torch converters and C emitters, constant folding, and the composite
    ONNX and torch converters when their operators (ADD, DIV, MEAN) are here."""
    context = RegistryContext()
    with context.registering_as(BUILTIN_ORIGIN):
        register_builtin_definitions(context, present_definitions())
        if importlib.util.find_spec("opbridge.ops.shared.onnx_composite") is not None and all(
            folder_present(folder) for folder in ("add", "div", "mean")
        ):
            composite_onnx = importlib.import_module("opbridge.ops.shared.onnx_composite")
            composite_torch = importlib.import_module("opbridge.ops.shared.torch_composite")
            for converter in composite_onnx.COMPOSITE_CONVERTERS:
                context.onnx_converters.register(converter.key, converter)
            for torch_converter in composite_torch.COMPOSITE_TORCH_CONVERTERS:
                context.torch_converters.register(torch_converter.key, torch_converter)
    return context.freeze()
