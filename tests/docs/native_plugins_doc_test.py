# SPDX-License-Identifier: Apache-2.0
"""docs/native_plugins.md: its Python snippets run, its C++ excerpts are real code."""

from pathlib import Path

from tests.docs.doc_snippets import check_excerpts, run_python_blocks

PAGE = Path("docs/native_plugins.md")


def test_python_snippets_run() -> None:
    assert run_python_blocks(PAGE) >= 6


def test_cpp_excerpts_are_verbatim() -> None:
    assert check_excerpts(PAGE, Path(".")) >= 2
