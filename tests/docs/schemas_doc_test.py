# SPDX-License-Identifier: Apache-2.0
"""docs/schemas.md and docs/onnx.md: their Python snippets run."""

from pathlib import Path

from tests.docs.doc_snippets import run_python_blocks


def test_schemas_page_snippets_run() -> None:
    assert run_python_blocks(Path("docs/schemas.md")) >= 6


def test_onnx_page_snippets_run() -> None:
    assert run_python_blocks(Path("docs/onnx.md")) >= 1
