# SPDX-License-Identifier: Apache-2.0
"""docs/architecture.md and docs/adding_an_operator.md: every repository path they name exists.

A path is a `code span` or a link target: `python/opbridge/ops/builtin.py`, `cc/kernels/opbridge_<op>.c`
(a <placeholder> or * matches any name; at least one file must match), `aot/resolve.py` (relative to
python/opbridge when its first part is there), `ops/shared/` (a folder), `opbridge_status.h` (a bare
file name: some file of that name), `//tests/registration:operator_table` (a Bazel package),
`opbridge.ops.definition` (a module, or an attribute of one), [memory_planner.md](memory_planner.md)
(a page beside it). Under Bazel the test sees the files its `data` lists: a path it cannot find may
also be one missing there (tests/docs/BUILD.bazel)."""

import ast
import pathlib
import re

import pytest

PAGES = (pathlib.Path("docs/architecture.md"), pathlib.Path("docs/adding_an_operator.md"))
PACKAGE = pathlib.Path("python/opbridge")
ROOT_FOLDERS = ("python/", "cc/", "tests/", "docs/", "examples/", "toolchains/", "tools/", "third_party/")
# Files opbridge writes into an emitted module, named by the pages but not in the repository.
EMITTED_FILES = {"CMakeLists.txt", "plan.json"}
FILE_SUFFIXES = (".py", ".md", ".c", ".h", ".cc", ".bzl", ".bazel", ".txt", ".json", ".yaml")

_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
_LABEL = re.compile(r"(?<![\w/])//([\w/<>*.-]*)(?::[\w<>*./-]+)?")
_LIST_GAP = re.compile(r"^(,\s*|,?\s+and\s+)$")
_PATH = re.compile(r"^[\w./<>*-]+$")
_MODULE = re.compile(r"^opbridge(?:\.\w+)+$")


def _glob(relative: str) -> list[pathlib.Path]:
    """The files or folders a repository path names (placeholders as wildcards)."""
    pattern = re.sub(r"<[^>]+>", "*", relative.rstrip("/"))
    if not any(character in pattern for character in "*?["):
        return [pathlib.Path(pattern)] if pathlib.Path(pattern).exists() else []
    return list(pathlib.Path(".").glob(pattern))


def _bare_names() -> set[str]:
    return {path.name for folder in ("python", "cc", "tests", "examples") for path in pathlib.Path(folder).rglob("*")}


def _module_file(name: str) -> pathlib.Path | None:
    base = PACKAGE.joinpath(*name.split(".")[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _top_level_names(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(target.id for target in targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _module_exists(name: str) -> bool:
    """`opbridge.a.b` is a module, or a name one defines (read from the source, not imported)."""
    if _module_file(name) is not None:
        return True
    module, _, attribute = name.rpartition(".")
    path = _module_file(module)
    return path is not None and attribute in _top_level_names(path)


def named_paths(page: pathlib.Path) -> list[str]:
    """Every path-like code span, link target and Bazel label of a page, in order. A bare file name
    listed right after a path (`frontends/onnx/importer.py`, `preparation.py`) is in that path's folder."""
    text = page.read_text()
    found = []
    folder, end = "", 0
    for match in _CODE_SPAN.finditer(text):
        span = match.group(1)
        if not _LIST_GAP.match(text[end : match.start()]):
            folder = ""
        end = match.end()
        found += [f"//{label.group(1)}" for label in _LABEL.finditer(span)]
        token = span.strip().rstrip(".,;:")
        if token.startswith("//") or token.startswith("ctx.") or not (_PATH.match(token) or _MODULE.match(token)):
            folder = ""
            continue
        if "/" in token:
            found.append(token)
            folder = token.rsplit("/", 1)[0] if not token.endswith("/") else ""
        elif token.endswith(FILE_SUFFIXES):
            found.append(f"{folder}/{token}" if folder else token)
        elif _MODULE.match(token):
            found.append(token)
    found += [f"docs/{target}" for target in _LINK.findall(text) if "://" not in target and target.endswith(".md")]
    return found


def missing(path: str, bare_names: set[str]) -> str | None:
    """Why `path` names nothing in the repository, or None when it does."""
    if path in EMITTED_FILES:
        return None
    if _MODULE.match(path):
        return None if _module_exists(path) else "no such module"
    if path.startswith("//"):
        package = path[2:].split(":")[0].removesuffix("/...").rstrip("/")
        return None if _glob(f"{package}/BUILD.bazel") else "no Bazel package there"
    if path.startswith(ROOT_FOLDERS):
        return None if _glob(path) else "no such file or folder"
    if "/" in path:
        first = re.sub(r"<[^>]+>", "*", path.split("/")[0])
        if _glob(str(PACKAGE / first)) or (PACKAGE / f"{first}.py").is_file():
            return None if _glob(str(PACKAGE / path)) else f"no such file or folder in {PACKAGE}"
        return f"not a path from the repository root nor from {PACKAGE}"
    pattern = re.compile(re.sub(r"<[^>]+>|\\\*", ".*", re.escape(path)) + "$")
    return None if any(pattern.match(name) for name in bare_names) else "no file of that name"


@pytest.mark.parametrize("page", PAGES, ids=str)
def test_every_named_path_exists(page: pathlib.Path) -> None:
    paths = named_paths(page)
    assert len(paths) >= 30, f"{page}: only {len(paths)} paths found; is the page still there?"
    bare_names = _bare_names()
    problems = [f"{path}: {why}" for path in paths if (why := missing(path, bare_names))]
    assert not problems, f"{page} names paths that do not exist:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("path", "exists"),
    [
        ("python/opbridge/ops/builtin.py", True),
        ("python/opbridge/ops/no_such_module.py", False),
        ("cc/kernels/opbridge_<op>.c", True),
        ("cc/kernels/opbridge_no_such_<op>.c", False),
        ("aot/resolve.py", True),
        ("aot/no_such_stage.py", False),
        ("ops/shared/", True),
        ("opbridge_status.h", True),
        ("opbridge_no_such_header.h", False),
        ("//tests/registration:operator_table", True),
        ("//tests/no_such_package/...", False),
        ("opbridge.ops.definition", True),
        ("opbridge.ops.definition.OperatorDefinition", True),
        ("opbridge.ops.no_such_module", False),
        ("docs/memory_planner.md", True),
        ("docs/no_such_page.md", False),
    ],
)
def test_the_check_tells_a_path_that_exists_from_one_that_does_not(path: str, exists: bool) -> None:
    assert (missing(path, _bare_names()) is None) == exists
