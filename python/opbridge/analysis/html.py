# SPDX-License-Identifier: Apache-2.0
"""The report as one self-contained HTML page: totals, the arena over time, MACs per layer, the node table.

The two plots are SVG written here by hand rather than drawn by matplotlib:
they are rectangles and a few labels, and matplotlib (with its fonts and
NumPy-version constraints) would add tens of megabytes to the pinned venv
for them. The page loads nothing: no script, no style sheet, no font, so
it opens the same from a CI artefact, an e-mail or a file share.
"""

import html

from opbridge.analysis.report import ArenaBar, Report
from opbridge.backends.c.stack_usage import StackBound

PLOT_WIDTH = 960
ARENA_HEIGHT = 420
MACS_HEIGHT = 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 80, 20, 20, 44
NAME_WIDTH = 32
COLOURS = {"tensor": "#5b8e7d", "scratch": "#f4a259", "state": "#bc4b51"}

STYLE = """
body { font-family: sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table { border-collapse: collapse; font-size: 12px; }
th, td { border-bottom: 1px solid #ddd; padding: 3px 8px; text-align: right; }
th { background: #f3f3f3; } td.text, th.text { text-align: left; }
.totals td:first-child { text-align: left; color: #555; }
.legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: middle; }
p.note { color: #555; font-size: 12px; }
svg text { font-size: 11px; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _figure(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def render_html(report: Report) -> str:
    """The whole page."""
    title = f"{report.model}: opbridge analysis"
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            f"<title>{_e(title)}</title>",
            f"<style>{STYLE}</style>",
            "</head>",
            "<body>",
            f"<h1>{_e(title)}</h1>",
            _totals(report),
            "<h2>Arena over time</h2>",
            '<p class="legend">each bar is one planned tensor (or scratch, or state) at its offset, across the steps'
            " it lives"
            + "".join(f'<span style="background:{colour}"></span>{kind}' for kind, colour in COLOURS.items())
            + '<span style="background:#c00;height:2px"></span>liveness bound</p>',
            arena_svg(report),
            "<h2>MACs per layer</h2>",
            macs_svg(report),
            "<h2>Nodes</h2>",
            _node_table(report),
            *(f'<p class="note">{_e(note)}</p>' for note in report.notes),
            f'<p class="note">instructions: estimated from {_e(report.instruction_source)}</p>',
            "</body>",
            "</html>",
            "",
        ]
    )


def _stack_text(bound: StackBound) -> str:
    """A stack bound as the totals table shows it (docs/kernels.md, "Stack")."""
    if bound.kind == "exact-static":
        return f"{bound.bytes:,} B (worst case, {' '.join(bound.flags)}); deepest path: {bound.path_text()}"
    return bound.summary().split(": ", 1)[1]


def _totals(report: Report) -> str:
    tflm = report.tflm
    if tflm is None:
        tflm_text = "not measured (--no-tflm, or not a .tflite model, or the tflite-micro package is not installed)"
    elif tflm.total_bytes is None:
        tflm_text = f"TFLite Micro {tflm.version}: {tflm.note}"
    else:
        tflm_text = (
            f"{tflm.total_bytes:,} B (tflite-micro {tflm.version}: {tflm.head_bytes:,} B of tensors, "
            f"{tflm.tail_bytes:,} B of its own structures and persistent buffers)"
        )
    proof = "optimal" if report.optimal else "not proven optimal"
    budget = (
        []
        if report.max_arena_bytes is None
        else [("RAM budget (max_arena_bytes)", report.budget_line().split(": ", 1)[1])]
    )
    rows = [
        ("arena", f"{report.arena_bytes:,} B, placed by {report.strategy} ({proof})"),
        ("liveness lower bound", f"{report.lower_bound_bytes:,} B (peak at step {report.peak_step})"),
        ("largest-first placement (TFLite Micro's planner)", f"{report.largest_first_bytes:,} B"),
        ("TFLite Micro's recorded arena", tflm_text),
        *budget,
        ("constants (flash)", f"{report.constant_bytes:,} B"),
        ("MACs", f"{report.macs:,} (MACs/16, the M55's floor: {report.macs // 16:,})"),
        *((f"estimated instructions, {core}", _figure(report.estimated_instructions(core))) for core in report.cores),
        *((f"stack, {bound.core}", _stack_text(bound)) for bound in report.stack),
    ]
    body = "".join(f"<tr><td>{_e(name)}</td><td class='text'>{_e(value)}</td></tr>" for name, value in rows)
    return f'<table class="totals" id="totals">{body}</table>'


def _node_table(report: Report) -> str:
    heads = ["step", "node", "operator", "inputs", "outputs", "MACs", "weights B", "in B", "out B", "scratch B"]
    heads += ["live B", "top B", *(f"{core.replace('cortex_', '').upper()} instr (est.)" for core in report.cores)]
    text_columns = {1, 2, 3, 4}
    header = "".join(f"<th{' class=text' if i in text_columns else ''}>{_e(h)}</th>" for i, h in enumerate(heads))
    lines = []
    for row in report.rows:
        cells = [
            str(row.step),
            row.name,
            row.op_type,
            " ".join(row.inputs),
            " ".join(row.outputs),
            _figure(row.macs),
            _figure(row.weight_bytes),
            _figure(row.input_bytes),
            _figure(row.output_bytes),
            _figure(row.scratch_bytes),
            _figure(row.live_bytes),
            _figure(row.arena_top_bytes),
            *(_figure(row.instructions.get(core)) for core in report.cores),
        ]
        # LiteRT names are long ';'-joined lists of the layers folded into a node: the start shows, the rest on hover.
        name = row.name if len(row.name) <= NAME_WIDTH else row.name[: NAME_WIDTH - 1] + "\u2026"
        cells[1] = name
        lines.append(
            "<tr>"
            + "".join(
                f"<td{' class=text' if i in text_columns else ''}"
                + (f' title="{_e(row.name)}"' if i == 1 else "")
                + f">{_e(c)}</td>"
                for i, c in enumerate(cells)
            )
            + "</tr>"
        )
    return f'<table id="nodes"><tr>{header}</tr>{"".join(lines)}</table>'


def _svg_open(name: str, height: int, label: str) -> str:
    return (
        f'<svg id="{name}" xmlns="http://www.w3.org/2000/svg" width="{PLOT_WIDTH}" height="{height}" '
        f'viewBox="0 0 {PLOT_WIDTH} {height}" role="img" aria-label="{_e(label)}" font-family="sans-serif">'
    )


def arena_svg(report: Report) -> str:
    """The arena over time: x the schedule step (inputs, each node, outputs), y the arena offset."""
    steps = len(report.rows)
    plot_width = PLOT_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_height = ARENA_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    column = plot_width / (steps + 2)  # step -1 (inputs) .. steps (outputs)
    scale = plot_height / max(report.arena_bytes, 1)
    bottom = MARGIN_TOP + plot_height
    parts = [
        _svg_open("arena-plot", ARENA_HEIGHT, f"arena of {report.model} over time"),
        f'<rect x="{MARGIN_LEFT}" y="{MARGIN_TOP}" width="{plot_width}" height="{plot_height}" fill="#fafafa" '
        'stroke="#888"/>',
    ]
    for bar in report.bars:
        parts.append(_bar(bar, column, scale, bottom))
    bound_y = bottom - report.lower_bound_bytes * scale
    parts += [
        f'<line class="bound" x1="{MARGIN_LEFT}" y1="{bound_y:.1f}" x2="{MARGIN_LEFT + plot_width}" '
        f'y2="{bound_y:.1f}" stroke="#c00" stroke-dasharray="5 3"/>',
        f'<text x="{MARGIN_LEFT + plot_width - 4}" y="{bound_y - 4:.1f}" text-anchor="end" fill="#c00">'
        f"liveness bound {report.lower_bound_bytes:,} B</text>",
        f'<text x="{MARGIN_LEFT - 6}" y="{bottom + 4}" text-anchor="end">0 B</text>',
        f'<text x="{MARGIN_LEFT - 6}" y="{MARGIN_TOP + 10}" text-anchor="end">{report.arena_bytes:,} B</text>',
    ]
    for step in range(-1, steps + 1, max(1, (steps + 2) // 20)):
        x = MARGIN_LEFT + (step + 1.5) * column
        label = "in" if step == -1 else "out" if step == steps else str(step)
        parts.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle">{label}</text>')
    parts += [
        f'<text x="{MARGIN_LEFT + plot_width / 2}" y="{ARENA_HEIGHT - 8}" text-anchor="middle">'
        "schedule step (model inputs, nodes, model outputs)</text>",
        "</svg>",
    ]
    return "\n".join(parts)


def _bar(bar: ArenaBar, column: float, scale: float, bottom: float) -> str:
    x = MARGIN_LEFT + (bar.first_step + 1) * column
    width = (bar.last_step - bar.first_step + 1) * column
    y = bottom - (bar.offset + bar.bytes) * scale
    height = max(bar.bytes * scale, 0.5)
    return (
        f'<rect class="bar {bar.kind}" data-offset="{bar.offset}" data-bytes="{bar.bytes}" '
        f'data-first-step="{bar.first_step}" data-last-step="{bar.last_step}" x="{x:.2f}" y="{y:.2f}" '
        f'width="{width:.2f}" height="{height:.2f}" fill="{COLOURS[bar.kind]}" fill-opacity="0.85" '
        f'stroke="white" stroke-width="0.5"><title>{_e(bar.label)}: {bar.bytes:,} B at offset {bar.offset:,}, '
        f"steps {bar.first_step}..{bar.last_step}</title></rect>"
    )


def macs_svg(report: Report) -> str:
    """One bar per node, its height the node's MACs."""
    plot_width = PLOT_WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    plot_height = MACS_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    bottom = MARGIN_TOP + plot_height
    rows = report.rows
    column = plot_width / max(len(rows), 1)
    most = max((row.macs for row in rows), default=0)
    scale = plot_height / max(most, 1)
    parts = [
        _svg_open("macs-plot", MACS_HEIGHT, f"MACs per layer of {report.model}"),
        f'<line x1="{MARGIN_LEFT}" y1="{bottom}" x2="{MARGIN_LEFT + plot_width}" y2="{bottom}" stroke="#888"/>',
        f'<text x="{MARGIN_LEFT - 6}" y="{MARGIN_TOP + 10}" text-anchor="end">{most:,}</text>',
        f'<text x="{MARGIN_LEFT - 6}" y="{bottom + 4}" text-anchor="end">0</text>',
    ]
    for row in rows:
        height = row.macs * scale
        x = MARGIN_LEFT + row.step * column + column * 0.1
        parts.append(
            f'<rect class="macs" data-step="{row.step}" data-macs="{row.macs}" x="{x:.2f}" '
            f'y="{bottom - height:.2f}" width="{column * 0.8:.2f}" height="{height:.2f}" fill="#4a6fa5">'
            f"<title>step {row.step} {_e(row.op_type)} ({_e(row.name)}): {row.macs:,} MACs</title></rect>"
        )
    for row in rows[:: max(1, len(rows) // 20)]:
        x = MARGIN_LEFT + (row.step + 0.5) * column
        parts.append(f'<text x="{x:.1f}" y="{bottom + 14}" text-anchor="middle">{row.step}</text>')
    parts += [
        f'<text x="{MARGIN_LEFT + plot_width / 2}" y="{MACS_HEIGHT - 8}" text-anchor="middle">schedule step</text>',
        "</svg>",
    ]
    return "\n".join(parts)
