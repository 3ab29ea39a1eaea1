# SPDX-License-Identifier: Apache-2.0
"""The report's files: report.json and report.html (`opbridge convert --report`, `opbridge analyze -o`)."""

import os
import pathlib

from opbridge.analysis.html import render_html
from opbridge.analysis.report import Report
from opbridge.output_paths import writing_to


def write_report(report: Report, directory: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """report.json and report.html in `directory` (beside a module, so CI artefacts carry them);
    both are written beside their places first and then renamed, so a failure leaves no half pair."""
    paths = {directory / "report.json": report.to_json(), directory / "report.html": render_html(report)}
    staged = []
    try:
        for path, text in paths.items():
            with writing_to(path, "report", "--report"):
                temporary = path.with_name(f".{path.name}.partial")
                staged.append(temporary)
                temporary.write_text(text)
        for path, temporary in zip(paths, staged, strict=True):
            os.replace(temporary, path)
    finally:
        for temporary in staged:
            temporary.unlink(missing_ok=True)
    json_path, html_path = paths
    return json_path, html_path
