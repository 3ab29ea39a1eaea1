# SPDX-License-Identifier: Apache-2.0
"""Finding plugins: Python modules that extend a RegistryContext.

A plugin is a module with a `customize_registry(context)` function (or any
callable named as `module:function`). The command line builds its context
from the built-ins, every installed entry point of the group
`opbridge.plugins`, then each `--plugin` module, in that order:

    [project.entry-points."opbridge.plugins"]
    my_ops = "my_pkg.ops:customize_registry"
"""

import importlib
import importlib.metadata
import traceback
from collections.abc import Sequence

from opbridge.errors import OpbridgeError
from opbridge.registry import build_default_registry_context
from opbridge.registry_context import Customizer, RegistryContext

ENTRY_POINT_GROUP = "opbridge.plugins"
DEFAULT_FUNCTION = "customize_registry"


class PluginImportError(OpbridgeError):
    """A plugin module cannot be imported, or has no customizer to call."""


def load_customizer(spec: str) -> Customizer:
    """The customizer named by 'pkg.module' (its customize_registry) or 'pkg.module:function'."""
    module_name, _, function_name = spec.partition(":")
    function_name = function_name or DEFAULT_FUNCTION
    if not module_name or not all(part.isidentifier() for part in module_name.split(".")):
        raise PluginImportError(
            f"plugin {spec!r} is not a module name", hint="pass a dotted module path, e.g. my_pkg.custom_ops"
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        last = traceback.extract_tb(error.__traceback__)[-1] if error.__traceback__ else None
        where = f" ({last.filename}:{last.lineno})" if last else ""
        raise PluginImportError(
            f"plugin module {module_name!r} failed to import: {type(error).__name__}: {error}{where}",
            hint="check that the plugin's package is installed (or on PYTHONPATH) and imports cleanly",
        ) from error
    customizer = getattr(module, function_name, None)
    if not callable(customizer):
        raise PluginImportError(
            f"plugin module {module_name!r} has no function {function_name!r}",
            hint=f"define {function_name}(context) in it, or name the function: {module_name}:my_function",
        )
    return customizer


def entry_point_customizers() -> list[Customizer]:
    """The customizers of installed packages that declare the `opbridge.plugins` entry point group."""
    customizers = []
    for entry_point in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            customizer = entry_point.load()
        except Exception as error:
            raise PluginImportError(
                f"entry point {entry_point.name!r} ({entry_point.value}) of group {ENTRY_POINT_GROUP} "
                f"failed to load: {type(error).__name__}: {error}",
                hint=f"fix or uninstall the package that provides it ({getattr(entry_point.dist, 'name', '?')})",
            ) from error
        if not callable(customizer):
            raise PluginImportError(
                f"entry point {entry_point.name!r} ({entry_point.value}) is not callable",
                hint="point it at a customize_registry(context) function",
            )
        customizers.append(customizer)
    return customizers


def build_plugin_context(
    plugins: Sequence[str] = (), *, entry_points: bool = True, allow_override: bool = False
) -> RegistryContext:
    """Built-ins + installed entry points + the named plugin modules, frozen."""
    customizers = entry_point_customizers() if entry_points else []
    customizers += [load_customizer(spec) for spec in plugins]
    return build_default_registry_context(customizers, allow_override=allow_override)
