# SPDX-License-Identifier: Apache-2.0
"""python/opbridge/operator_deps.bzl, generated from the operator folders' imports: which folders each
operator folder's library target depends on, and which each op test needs besides its own.

    python3 -m tests.architecture.operator_deps --write   # from the repository root, after an import changes

An op test needs the folders that op_test.py imports, those the test helpers it imports import
(python/opbridge_testing, followed through their imports), and those it names in USES_OPERATORS: a
tuple of folder names, for operators its graphs gain in conversion without an import (an ONNX
importer's QUANTIZE, a layout TRANSPOSE). tests/architecture/operator_deps_test.py fails when the file
is stale. Standard library only: it reads the source, it does not import it.
"""

import argparse
import ast
import functools
import pathlib
import sys

from tests.architecture.import_graph import imports_of, is_test_only, module_name

ROOT = pathlib.Path("python")
OPS = ROOT / "opbridge" / "ops"
TEST_HELPERS = "opbridge_testing"
OUTPUT = ROOT / "opbridge" / "operator_deps.bzl"
# Folders that share one Bazel target (they import each other); python/opbridge/BUILD.bazel aliases them.
MERGED_OPERATOR_FOLDERS = {"depthwise_conv_2d": "conv_2d"}
USES_OPERATORS = "USES_OPERATORS"


@functools.cache
def operator_folders() -> list[str]:
    return sorted(path.parent.name for path in OPS.glob("*/__init__.py") if path.parent.name != "shared")


def target_of(folder: str) -> str:
    return MERGED_OPERATOR_FOLDERS.get(folder, folder)


def folder_of(module: str) -> str | None:
    """The operator folder a module name lies in (opbridge.ops.<folder>...), or None."""
    parts = module.split(".")
    # ops/shared is what every operator may use (OPERATOR_CORE in python/opbridge/BUILD.bazel), no folder.
    if len(parts) >= 3 and parts[:2] == ["opbridge", "ops"] and parts[2] in operator_folders():
        return parts[2]
    return None


def all_modules() -> dict[str, pathlib.Path]:
    return {module_name(ROOT, path): path for path in sorted(ROOT.rglob("*.py"))}


def imported_folders(paths: list[pathlib.Path], modules: dict[str, pathlib.Path]) -> set[str]:
    return {
        folder
        for path in paths
        for found in imports_of(module_name(ROOT, path), path, modules)
        if (folder := folder_of(found.imported)) is not None
    }


def library_deps(folder: str, modules: dict[str, pathlib.Path]) -> set[str]:
    """The targets a folder's target imports (its library modules; not op_test.py nor kernel_cases.py)."""
    members = [f for f in operator_folders() if target_of(f) == folder]
    paths = [path for member in members for path in sorted((OPS / member).rglob("*.py")) if not is_test_only(path)]
    return {target_of(f) for f in imported_folders(paths, modules)} - {folder}


def declared_uses(path: pathlib.Path) -> set[str]:
    """The folder names a test module lists in USES_OPERATORS (a tuple of strings at module level)."""
    for node in ast.parse(path.read_text(), str(path)).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == USES_OPERATORS for target in node.targets
        ):
            value = ast.literal_eval(node.value)
            if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
                raise SystemExit(f"{path}: {USES_OPERATORS} must be a tuple of operator folder names")
            unknown = sorted(set(value) - set(operator_folders()))
            if unknown:
                raise SystemExit(f"{path}: {USES_OPERATORS} names no operator folder: {unknown}")
            return set(value)
    return set()


def helper_closure(path: pathlib.Path, modules: dict[str, pathlib.Path]) -> list[pathlib.Path]:
    """`path` and every test-helper module it imports, followed through their imports."""
    seen: dict[str, pathlib.Path] = {}
    pending = [path]
    while pending:
        current = pending.pop()
        for found in imports_of(module_name(ROOT, current), current, modules):
            name = found.imported
            if (name == TEST_HELPERS or name.startswith(TEST_HELPERS + ".")) and name in modules and name not in seen:
                seen[name] = modules[name]
                pending.append(modules[name])
    return [path, *seen.values()]


def op_test_deps(folder: str, modules: dict[str, pathlib.Path]) -> set[str]:
    """The folders folder's op test needs besides its own target."""
    test = OPS / folder / "op_test.py"
    needed = imported_folders(helper_closure(test, modules), modules) | declared_uses(test)
    return {target_of(f) for f in needed} - {target_of(folder)}


def render_dict(name: str, comment: str, entries: dict[str, set[str]]) -> list[str]:
    lines = [f"# {comment}", f"{name} = {{"]
    for key in sorted(entries):
        if entries[key]:
            values = ", ".join(f'"{value}"' for value in sorted(entries[key]))
            lines.append(f'    "{key}": [{values}],')
    return [*lines, "}"]


def render() -> str:
    modules = all_modules()
    folders = operator_folders()
    targets = sorted({target_of(f) for f in folders})
    lines = [
        "# SPDX-License-Identifier: Apache-2.0",
        "# Generated by tests/architecture/operator_deps.py from the operator folders' imports; do not edit.",
        "# After an import between operator folders changes: python3 -m tests.architecture.operator_deps --write",
        "",
        "# Operator folders that share one target with another (they import each other).",
        "MERGED_OPERATOR_FOLDERS = {"
        + ", ".join(f'"{folder}": "{into}"' for folder, into in sorted(MERGED_OPERATOR_FOLDERS.items()))
        + "}",
        "",
        *render_dict(
            "OPERATOR_DEPS",
            "The operator folders each operator folder's library modules import (their :ops_<folder> deps).",
            {target: library_deps(target, modules) for target in targets},
        ),
        "",
        *render_dict(
            "OP_TEST_OPERATORS",
            "The operator folders each op test needs besides its own: what op_test.py and the test helpers it "
            "imports import, and its USES_OPERATORS.",
            {folder: op_test_deps(folder, modules) for folder in folders if (OPS / folder / "op_test.py").is_file()},
        ),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {OUTPUT} (else print it)")
    args = parser.parse_args(argv)
    text = render()
    if args.write:
        OUTPUT.write_text(text)
        print(f"wrote {OUTPUT}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
