# SPDX-License-Identifier: Apache-2.0
"""Checks a docs/ page: runs its ```python blocks in order, in one namespace,
and checks that each ```cpp / ```c block that starts with a
`// from <path>` line, and each ```python block that starts with a
`# from <path>` line, is a verbatim excerpt of that file (so quoted code is
code that is compiled and tested; excerpts are not run)."""

import re
from pathlib import Path

_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SOURCE = re.compile(r"^// from (\S+)\n")
_PYTHON_SOURCE = re.compile(r"^# from (\S+)\n")


def blocks(page: Path) -> list[tuple[str, str]]:
    return [(match.group(1), match.group(2)) for match in _BLOCK.finditer(page.read_text())]


def run_python_blocks(page: Path) -> int:
    namespace: dict[str, object] = {"__name__": f"doc:{page.name}"}
    count = 0
    for language, code in blocks(page):
        if language == "python" and not _PYTHON_SOURCE.match(code):
            exec(compile(code, f"{page}:python block {count + 1}", "exec"), namespace)
            count += 1
    return count


def check_excerpts(page: Path, root: Path) -> int:
    count = 0
    for language, code in blocks(page):
        source = _SOURCE.match(code) if language in ("c", "cpp") else _PYTHON_SOURCE.match(code)
        if language in ("c", "cpp", "python") and source:
            excerpt = code[source.end() :]
            text = (root / source.group(1)).read_text()
            assert excerpt in text, f"{page}: the excerpt from {source.group(1)} is not in that file:\n{excerpt}"
            count += 1
    return count
