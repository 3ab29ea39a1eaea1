# SPDX-License-Identifier: Apache-2.0
"""docs/custom_ops.md: its Python snippets run, its excerpts are real code."""

from pathlib import Path

from tests.docs.doc_snippets import check_excerpts, run_python_blocks

PAGE = Path("docs/custom_ops.md")


def test_python_snippets_run() -> None:
    assert run_python_blocks(PAGE) >= 11


def test_excerpts_are_verbatim() -> None:
    assert check_excerpts(PAGE, Path(".")) >= 4
