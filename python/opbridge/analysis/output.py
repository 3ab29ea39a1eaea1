# SPDX-License-Identifier: Apache-2.0
"""The report's files: report.json and report.html (`opbridge convert --report`, `opbridge analyze -o`)."""

import pathlib

from opbridge.analysis.html import render_html
from opbridge.analysis.report import Report
from opbridge.output_paths import writing_to


def write_report(report: Report, directory: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """report.json and report.html in `directory` (beside a module, so CI artefacts carry them)."""
    json_path, html_path = directory / "report.json", directory / "report.html"
    with writing_to(json_path, "report", "--report"):
        json_path.write_text(report.to_json())
    with writing_to(html_path, "report", "--report"):
        html_path.write_text(render_html(report))
    return json_path, html_path
