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
import os
import pathlib
import pkgutil
import sys
import traceback
from collections.abc import Sequence

from opbridge.errors import OpbridgeError, nearest
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
        where = _where_it_failed(error, module_name)
        raise PluginImportError(
            f"plugin module {module_name!r} failed to import: {type(error).__name__}: {error}{where}",
            hint=_import_hint(error, module_name),
        ) from error
    customizer = getattr(module, function_name, None)
    if not callable(customizer):
        functions = [name for name, value in vars(module).items() if callable(value) and not name.startswith("_")]
        suggestion = nearest(function_name, functions, prefix=f"{module_name}:")
        fix = f"define {function_name}(context) in it, or name the function: {module_name}:my_function"
        raise PluginImportError(
            f"plugin module {module_name!r} has no function {function_name!r}",
            hint=f"{suggestion} Or {fix}" if suggestion else fix,
        )
    return customizer


def _where_it_failed(error: Exception, module_name: str) -> str:
    """' (file:line)' of the plugin's code that failed, or '' when the failure is in importlib itself
    (a module that does not exist): frames of importlib's frozen and own modules, and of this one, are not
    the plugin's. Frames in the plugin's own package come first; a SyntaxError names its own line."""
    if isinstance(error, SyntaxError) and error.filename:
        return f" ({error.filename}:{error.lineno})"
    machinery = pathlib.Path(importlib.__file__).resolve().parent
    frames = []
    for frame in traceback.extract_tb(error.__traceback__):
        path = pathlib.Path(frame.filename)
        if frame.filename.startswith("<") or not path.is_file():  # <frozen importlib._bootstrap>, <string>
            continue
        if path.resolve().parent == machinery or path.resolve() == pathlib.Path(__file__).resolve():
            continue
        frames.append(frame)
    package = module_name.split(".")[0]
    own = [f for f in frames if package in pathlib.Path(f.filename).with_suffix("").parts]
    last = (own or frames or [None])[-1]
    return f" ({last.filename}:{last.lineno})" if last is not None else ""


def _import_hint(error: Exception, module_name: str) -> str:
    hint = "check that the plugin's package is installed (or on PYTHONPATH) and imports cleanly"
    if not isinstance(error, ModuleNotFoundError) or not error.name:
        return hint
    stale = stale_runfiles_hint(module_name) or stale_runfiles_hint(error.name)
    if stale:
        return stale
    missing = error.name
    if missing != module_name and not module_name.startswith(f"{missing}."):
        return hint  # a module the plugin imports is missing, not the plugin
    parent, _, leaf = missing.rpartition(".")
    if not parent:
        return not_importable_hint(module_name)  # a top-level name: this process cannot see the package
    try:
        siblings = [info.name for info in pkgutil.iter_modules(importlib.import_module(parent).__path__)]
    except Exception:  # the parent failed to import, or is not a package: nothing to suggest
        return hint
    suggestion = nearest(leaf, siblings, prefix=f"{parent}.")
    return f"{suggestion} Otherwise {hint}" if suggestion else hint


def not_importable_hint(module_name: str) -> str:
    """How to make the plugin `module_name` importable by the command line: in Bazel, a binary whose deps
    have the plugin's library; outside, its folder on PYTHONPATH."""
    package = module_name.split(".")[0]
    directory = _runfiles_directory()
    if directory is not None:
        return (
            f"this command line is the Bazel target {_bazel_label(directory)}, whose runfiles lack the package "
            f"{package!r}: run one with the plugin in its deps, a host_py_binary of //python/opbridge:cli.py with "
            'deps = [<the plugin\'s py_library>, "//python/opbridge", "@torch_packages//:torch"] (for .pt2 models; '
            "as //examples/pytorch_custom_op:opbridge_with_kws_ops), or custom_op's :<name>_opbridge "
            '(docs/pytorch.md, "Bazel"); outside Bazel, put its folder on PYTHONPATH'
        )
    return (
        f"put the folder that holds the package {package!r} on PYTHONPATH "
        f"(PYTHONPATH=path/to/that/folder opbridge ... --plugin {module_name}), or pip install the package"
    )


def _runfiles_directory() -> pathlib.Path | None:
    """The Bazel runfiles tree this process runs from, if any (set up by the py_binary's launcher)."""
    if os.environ.get("RUNFILES_DIR"):
        return pathlib.Path(os.environ["RUNFILES_DIR"])
    manifest = os.environ.get("RUNFILES_MANIFEST_FILE")
    if manifest:
        path = pathlib.Path(manifest)
        if path.name == "MANIFEST":
            return path.parent
        if path.name.endswith(".runfiles_manifest"):
            return path.with_name(path.name.removesuffix("_manifest"))
    for entry in [sys.argv[0] if sys.argv else "", *sys.path]:
        text = f"{entry}/"
        if ".runfiles/" in text:
            return pathlib.Path(text[: text.index(".runfiles/") + len(".runfiles")])
    return None


def _runfiles_manifest(directory: pathlib.Path) -> pathlib.Path | None:
    for manifest in (directory / "MANIFEST", directory.with_name(f"{directory.name}_manifest")):
        if manifest.is_file():
            return manifest
    return None


def _bazel_label(directory: pathlib.Path) -> str:
    """//pkg:target of a runfiles tree bazel-bin/pkg/target.runfiles (or bazel-out/<config>/bin/...)."""
    parts = directory.parts
    start = max((i + 1 for i, part in enumerate(parts) if part in ("bin", "bazel-bin")), default=len(parts) - 1)
    package = "/".join(parts[start:-1])
    return f"//{package}:{directory.name.removesuffix('.runfiles')}"


def stale_runfiles_hint(module_name: str) -> str:
    """When `module_name` cannot be imported because the Bazel runfiles tree we run from lacks a file its
    manifest lists (the repository's .bazelrc sets --nobuild_runfile_links, so `bazel build` leaves the
    tree of an earlier `bazel run` as it was), the fix; else ""."""
    directory = _runfiles_directory()
    manifest = _runfiles_manifest(directory) if directory is not None else None
    if directory is None or manifest is None:
        return ""
    # Where the module would be, under each import root (sys.path entry) inside the tree.
    relative = module_name.replace(".", "/")
    files, packages = set(), []
    for entry in sys.path:
        for base in (directory, directory.resolve()):
            try:
                root = pathlib.Path(os.path.abspath(entry or ".")).relative_to(base).as_posix()
            except ValueError:
                continue
            prefix = "" if root == "." else f"{root}/"
            files.add(f"{prefix}{relative}.py")
            packages.append(f"{prefix}{relative}/")
    if not files:
        return ""
    try:
        lines = manifest.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    paths = [line.split(" ", 1)[0] for line in lines]
    listed = [path for path in paths if path in files or path.startswith(tuple(packages))]
    if not listed or any((directory / path).exists() for path in listed):
        return ""
    label = _bazel_label(directory)
    return (
        f"the runfiles tree {directory} is stale: its manifest lists {listed[0]} but the tree lacks it "
        f"(bazel build does not refresh runfiles links: .bazelrc sets --nobuild_runfile_links); "
        f"run it with `bazel run {label} -- ...`, or build it with `bazel build --build_runfile_links {label}`"
    )


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
