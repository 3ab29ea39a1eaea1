# SPDX-License-Identifier: Apache-2.0
"""The layer order of docs/architecture.md holds in python/opbridge: no module imports a higher layer, no
import cycle, no import of the test helpers (python/opbridge_testing) nor of the test-only modules beside
the code (op_test.py, ops/<op>/kernel_cases.py); and the checks catch what they should (each rule broken on
purpose in a scratch package)."""

import pathlib

import pytest

from tests.architecture.import_graph import (
    Import,
    cycles,
    declared_layers,
    imports_of,
    layer_of,
    package_modules,
    package_test_modules,
)

ROOT = pathlib.Path("python")
PAGE = pathlib.Path("docs/architecture.md")
TEST_HELPERS = "opbridge_testing"


def layer_violations(root: pathlib.Path, package: str, layers: dict[str, int]) -> list[str]:
    modules = package_modules(root, package)
    test_only = package_test_modules(root, package)
    problems = []
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        importer_layer = layer_of(name, layers)
        if importer_layer is None:
            problems.append(f"{name} is in no layer of {PAGE}: add it to the table")
            continue
        for found in imports_of(name, path, {**modules, **test_only}):
            if found.imported in test_only:
                problems.append(
                    f"{found.importer} (line {found.line}) imports the test-only module {found.imported}: "
                    "the library must not depend on it"
                )
                continue
            problems += import_problems(found, importer_layer, layers, package)
            if found.imported in modules and found.imported != name:
                edges.setdefault(name, set()).add(found.imported)
    for component in cycles(edges):
        problems.append(f"import cycle: {' -> '.join(component)}")
    return problems


def import_problems(found: Import, importer_layer: int, layers: dict[str, int], package: str) -> list[str]:
    where = f"{found.importer} (line {found.line})"
    if found.imported == TEST_HELPERS or found.imported.startswith(TEST_HELPERS + "."):
        return [f"{where} imports the test helpers {found.imported}: the library must not depend on them"]
    if not (found.imported == package or found.imported.startswith(package + ".")):
        return []
    imported_layer = layer_of(found.imported, layers)
    if imported_layer is not None and imported_layer > importer_layer:
        return [
            f"{where}, layer {importer_layer}, imports {found.imported}, layer {imported_layer}: "
            "move the shared code down, or the importer up (docs/architecture.md, Layers)"
        ]
    return []


def test_opbridge_keeps_the_declared_layers() -> None:
    layers = declared_layers(PAGE)
    assert layers, f"{PAGE} declares no layers"
    assert layer_violations(ROOT, "opbridge", layers) == []


def test_every_declared_layer_names_real_modules() -> None:
    modules = package_modules(ROOT, "opbridge")
    stale = [
        prefix for prefix in declared_layers(PAGE) if not any(layer_of(m, {prefix: 0}) is not None for m in modules)
    ]
    assert stale == [], f"{PAGE} names modules that do not exist: {stale}"


# The checks themselves, on a scratch package that breaks each rule.


def write(root: pathlib.Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


SCRATCH_LAYERS = {"pkg.low": 1, "pkg.high": 2}


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"pkg/low.py": "from pkg.high import x\n", "pkg/high.py": "x = 1\n"}, "layer 1, imports pkg.high, layer 2"),
        ({"pkg/low.py": "def f():\n    import pkg.high\n", "pkg/high.py": ""}, "layer 1, imports pkg.high"),
        ({"pkg/low.py": "import opbridge_testing.single_op\n", "pkg/high.py": ""}, "imports the test helpers"),
        ({"pkg/low.py": "", "pkg/high.py": "", "pkg/stray.py": ""}, "pkg.stray is in no layer"),
        (
            {
                "pkg/low.py": "",
                "pkg/high.py": "from pkg.ops.x import kernel_cases\n",
                "pkg/ops/x/kernel_cases.py": "import opbridge_testing\n",
            },
            "pkg.high (line 1) imports the test-only module pkg.ops.x.kernel_cases",
        ),
        (
            {
                "pkg/low.py": "",
                "pkg/high/a.py": "from pkg.high import b\n",
                "pkg/high/b.py": "from pkg.high import a\n",
            },
            "import cycle: pkg.high.a -> pkg.high.b",
        ),
    ],
)
def test_a_broken_rule_is_reported(tmp_path: pathlib.Path, files: dict[str, str], expected: str) -> None:
    write(tmp_path, {"pkg/__init__.py": "", **files})
    problems = layer_violations(
        tmp_path, "pkg", {"pkg": 2, **SCRATCH_LAYERS} if "pkg/stray.py" not in files else {"pkg.low": 1, "pkg.high": 2}
    )
    assert any(expected in problem for problem in problems), problems


def test_test_only_modules_may_import_the_test_helpers(tmp_path: pathlib.Path) -> None:
    # An operator folder's op_test.py and kernel_cases.py draw on opbridge_testing; they are not the library.
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low.py": "",
            "pkg/high.py": "",
            "pkg/ops/x/op_test.py": "import opbridge_testing\n",
            "pkg/ops/x/kernel_cases.py": "from opbridge_testing import kernel_case_builders\n",
        },
    )
    assert layer_violations(tmp_path, "pkg", {"pkg": 2, **SCRATCH_LAYERS}) == []


def test_clean_scratch_package_passes(tmp_path: pathlib.Path) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/low.py": "x = 1\n", "pkg/high.py": "from pkg.low import x\n"})
    assert layer_violations(tmp_path, "pkg", {"pkg": 2, **SCRATCH_LAYERS}) == []
