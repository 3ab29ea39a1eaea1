# SPDX-License-Identifier: Apache-2.0
"""The import graph of a Python package, read from its source (every import, function-level ones
included), and the layer table docs/architecture.md declares."""

import ast
import dataclasses
import pathlib
import re


@dataclasses.dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int


def module_name(root: pathlib.Path, path: pathlib.Path) -> str:
    name = ".".join(path.relative_to(root).with_suffix("").parts)
    return name.removesuffix(".__init__")


def is_test_only(path: pathlib.Path) -> bool:
    """Tests (*_test.py, the operator folders' op_test.py among them) and the operator folders' kernel-test
    cases (ops/<op>/kernel_cases.py): modules beside the library's code that may import the test helpers,
    which Bazel leaves out of the library and the library never imports."""
    return path.name.endswith("_test.py") or (path.name == "kernel_cases.py" and path.parent.parent.name == "ops")


def package_modules(root: pathlib.Path, package: str) -> dict[str, pathlib.Path]:
    """Every module of `package` under `root` (the test-only ones left out) by dotted name."""
    return {module_name(root, path): path for path in sorted((root / package).rglob("*.py")) if not is_test_only(path)}


def package_test_modules(root: pathlib.Path, package: str) -> dict[str, pathlib.Path]:
    """The test-only modules of `package` under `root` (is_test_only) by dotted name."""
    return {module_name(root, path): path for path in sorted((root / package).rglob("*.py")) if is_test_only(path)}


def imports_of(name: str, path: pathlib.Path, modules: dict[str, pathlib.Path]) -> list[Import]:
    """The absolute imports in one module; `from a.b import c` names a.b.c when that is a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.append(Import(name, submodule if submodule in modules else node.module, node.lineno))
        elif isinstance(node, ast.Import):
            found.extend(Import(name, alias.name, node.lineno) for alias in node.names)
    return found


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return components


LAYER_TABLE = re.compile(r"<!-- layers:.*?-->(.*?)<!-- end layers -->", re.S)


def declared_layers(page: pathlib.Path) -> dict[str, int]:
    """Module name prefix -> layer number, from the table between the page's layer markers."""
    match = LAYER_TABLE.search(page.read_text())
    if match is None:
        raise ValueError(f"{page} has no table between <!-- layers: --> and <!-- end layers -->")
    layers: dict[str, int] = {}
    for row in match.group(1).splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) != 2 or not cells[0].isdigit():
            continue
        for prefix in re.findall(r"`([A-Za-z0-9_.]+)`", cells[1]):
            if prefix in layers:
                raise ValueError(f"{page}: {prefix} is in layers {layers[prefix]} and {cells[0]}")
            layers[prefix] = int(cells[0])
    return layers


def layer_of(module: str, layers: dict[str, int]) -> int | None:
    """The layer of the longest declared prefix of `module` (a prefix is a name or a dotted parent)."""
    matches = [prefix for prefix in layers if module == prefix or module.startswith(prefix + ".")]
    return layers[max(matches, key=len)] if matches else None
