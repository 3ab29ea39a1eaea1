# SPDX-License-Identifier: Apache-2.0
"""The folded forms' differential tests cover what they claim: each form's hypothesis-drawn graph
exercises the code paths form_cases.FEATURES names, the node index steers the quantization regime
and CONV_2D's windowing path, every node takes the folded form, and the graphs are reproducible."""

import pathlib
import re

import numpy as np
import pytest
from form_cases import (
    FEATURES,
    FILTER_FORMS,
    FORMS,
    QUANT_REGIMES,
    form_graph,
    node_features,
    per_channel_of,
    regime_of,
)
from generate import write_form_test
from opbridge.ir import Graph

BUILD = pathlib.Path("cc/kernels/BUILD.bazel")


@pytest.fixture(scope="module", params=sorted(FORMS))
def form(request: pytest.FixtureRequest) -> tuple[str, Graph]:
    return request.param, form_graph(request.param)


def test_the_bazel_form_list_is_form_cases() -> None:
    match = re.search(r"KERNEL_FORMS = \[(.*?)\]", BUILD.read_text(), re.DOTALL)
    assert match, f"no KERNEL_FORMS list in {BUILD}"
    assert re.findall(r'"(\w+)"', match.group(1)) == sorted(FORMS)


def test_the_graph_covers_the_features(form: tuple[str, Graph]) -> None:
    name, graph = form
    assert [node.op_type for node in graph.nodes] == [FORMS[name].op_type] * FORMS[name].nodes
    covered: set[str] = set()
    for node in graph.nodes:
        covered |= node_features(graph, node)
    missing = sorted(FEATURES[name] - covered)
    assert not missing, f"{name}: no node covers {missing}; steer form_cases.py's strategies back to them"


def test_the_index_steers_the_quantization(form: tuple[str, Graph]) -> None:
    name, graph = form
    if name not in FILTER_FORMS:
        return
    assert {regime_of(index) for index in range(len(graph.nodes))} == set(QUANT_REGIMES)
    for index, node in enumerate(graph.nodes):
        features = node_features(graph, node)
        regime = regime_of(index)
        if regime == "left_shift":
            assert "left_shift" in features, node.name
        if regime == "tiny":
            assert "left_shift" not in features, node.name
        if not per_channel_of(index):
            assert "shared_multiplier" in features, node.name


def test_conv_2d_takes_both_windowing_paths() -> None:
    graph = form_graph("conv_2d_folded")
    for index, node in enumerate(graph.nodes):
        expected = "patch" if (index // 8) % 2 == 0 else "in_place"
        assert expected in node_features(graph, node), node.name


def test_every_node_takes_the_folded_form(form: tuple[str, Graph], tmp_path: pathlib.Path) -> None:
    # generate.py fails unless each node's emitted C calls the form's kernel.
    name, _ = form
    write_form_test(name, tmp_path)
    assert (tmp_path / f"{name}_golden_test.c").is_file()


def test_the_graphs_are_reproducible() -> None:
    for name in FORMS:
        first, second = form_graph(name), form_graph(name)
        assert [(t.shape, t.quantization) for t in first.tensors] == [(t.shape, t.quantization) for t in second.tensors]
        assert all(
            (a.data is None and b.data is None) or np.array_equal(a.data, b.data)
            for a, b in zip(first.tensors, second.tensors, strict=True)
        )


def test_the_python_bounds_are_the_kernels() -> None:
    """The emitter's and form_cases' copies of the Helium kernels' bounds equal the C macros."""
    from form_cases import DEPTHWISE_LINES_BYTES
    from opbridge.ops.conv_2d.emit_c import (
        CONV_BLOCKS_MAX_WINDOW,
        CONV_PAIRS_BAND_BYTES,
        CONV_PLANE_BYTES,
        CONV_PLANE_MAX_WINDOW,
        CONV_PLANE_WEIGHT_BYTES,
        DEPTHWISE_PLANE_BYTES,
        DEPTHWISE_PLANE_MAX_TAPS,
        DEPTHWISE_PLANE_WEIGHT_BYTES,
        POINTWISE_BY_CHANNEL_MAX_DEPTH,
    )

    header = pathlib.Path("cc/kernels/opbridge_kernels_folded_s8.h").read_text()
    helium = pathlib.Path("cc/kernels/opbridge_depthwise_conv_2d_s8_folded_helium.c").read_text()
    for name, source, value in (
        ("OPBRIDGE_CONV_BLOCKS_MAX_WINDOW", header, CONV_BLOCKS_MAX_WINDOW),
        ("OPBRIDGE_CONV_PAIRS_BAND_BYTES", header, CONV_PAIRS_BAND_BYTES),
        ("OPBRIDGE_DEPTHWISE_PLANE_BYTES", header, DEPTHWISE_PLANE_BYTES),
        ("OPBRIDGE_DEPTHWISE_PLANE_MAX_TAPS", header, DEPTHWISE_PLANE_MAX_TAPS),
        ("OPBRIDGE_DEPTHWISE_PLANE_WEIGHT_BYTES", header, DEPTHWISE_PLANE_WEIGHT_BYTES),
        ("OPBRIDGE_CONV_PLANE_BYTES", header, CONV_PLANE_BYTES),
        ("OPBRIDGE_CONV_PLANE_MAX_WINDOW", header, CONV_PLANE_MAX_WINDOW),
        ("OPBRIDGE_CONV_PLANE_WEIGHT_BYTES", header, CONV_PLANE_WEIGHT_BYTES),
        ("OPBRIDGE_POINTWISE_BY_CHANNEL_MAX_DEPTH", header, POINTWISE_BY_CHANNEL_MAX_DEPTH),
        ("OPBRIDGE_DEPTHWISE_LINES_BYTES", helium, DEPTHWISE_LINES_BYTES),
    ):
        match = re.search(rf"#define {name} (\d+)", source)
        assert match, f"no {name} in the kernels"
        assert int(match.group(1)) == value, f"{name} is {match.group(1)} in C, {value} in Python"


def test_the_python_constant_steps_are_the_assemblys() -> None:
    """The emitter's copy of the window steps the planes' assembly takes as constants equals the
    C table (opbridge_plane_channel_of)."""
    from opbridge.ops.conv_2d.emit_c import PLANE_CONSTANT_STEPS

    planes = pathlib.Path("cc/kernels/opbridge_folded_planes_helium.c").read_text()
    table = {(int(v), int(s)) for v, s in re.findall(r"\{(\d), (\d+), \{opbridge_plane_channel", planes)}
    assert table == PLANE_CONSTANT_STEPS
