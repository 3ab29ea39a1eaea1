# SPDX-License-Identifier: Apache-2.0
"""examples/schema_library/README.md: its Python blocks run, its C excerpts are verbatim parts of the library."""

import re
from pathlib import Path

README = Path("examples/schema_library/README.md")
_BLOCK = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SOURCE = re.compile(r"^// from (\S+)\n")


def blocks(language: str) -> list[str]:
    return [match.group(2) for match in _BLOCK.finditer(README.read_text()) if match.group(1) == language]


def test_python_blocks_run() -> None:
    namespace: dict[str, object] = {"__name__": "doc:README.md"}
    python = blocks("python")
    for number, code in enumerate(python, 1):
        exec(compile(code, f"{README}:python block {number}", "exec"), namespace)
    assert len(python) == 3


def test_c_excerpts_are_verbatim() -> None:
    excerpts = blocks("c")
    for code in excerpts:
        source = _SOURCE.match(code)
        assert source, f"{README}: a C block does not start with // from <path>"
        assert code[source.end() :] in Path(source.group(1)).read_text(), f"not verbatim:\n{code}"
    assert len(excerpts) == 3
