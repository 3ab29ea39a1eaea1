# SPDX-License-Identifier: Apache-2.0
"""Per-node reports of what a model costs (`opbridge analyze`, `opbridge convert --report`)."""

from opbridge.analysis.html import render_html
from opbridge.analysis.output import write_report
from opbridge.analysis.report import ArenaBar, NodeRow, Report, analyze_model, build_report

__all__ = ["ArenaBar", "NodeRow", "Report", "analyze_model", "build_report", "render_html", "write_report"]
