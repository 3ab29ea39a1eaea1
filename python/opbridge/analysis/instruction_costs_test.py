# SPDX-License-Identifier: Apache-2.0
"""The instruction lines: the fit recovers non-negative coefficients from exact data, never goes
negative, and the committed figures cover the benchmark's operators on both cores."""

from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.analysis.instruction_costs import (
    ANY_DTYPE,
    InstructionCosts,
    Line,
    fit_line,
    generic_key,
    load_instruction_costs,
)

coefficient = st.floats(min_value=0, max_value=50, allow_nan=False)


@settings(max_examples=50, deadline=None)
@given(
    per_mac=coefficient,
    per_output=coefficient,
    per_call=st.floats(min_value=0, max_value=5000),
    nodes=st.lists(st.tuples(st.integers(1, 10**6), st.integers(1, 10**5)), min_size=4, max_size=12, unique=True),
)
def test_fit_reproduces_exact_lines(
    per_mac: float, per_output: float, per_call: float, nodes: list[tuple[int, int]]
) -> None:
    samples = [(macs, outputs, round(per_mac * macs + per_output * outputs + per_call)) for macs, outputs in nodes]
    line = fit_line(samples)
    assert line.nodes == len(samples)
    for macs, outputs, instructions in samples:
        assert abs(line.apply(macs, outputs) - instructions) <= 1 + 1e-6 * instructions


@given(
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**5), st.integers(0, 10**7)), min_size=1, max_size=10)
)
def test_fit_never_goes_negative(samples: list[tuple[int, int, int]]) -> None:
    line = fit_line(samples)
    assert min(line.per_mac, line.per_output, line.per_call) >= 0


def test_committed_figures_cover_both_cores() -> None:
    costs = load_instruction_costs()
    assert set(costs.cores) == {"cortex_m55", "cortex_m4"}
    for core in costs.cores:
        assert costs.estimate(core, "CONV_2D", "int8", macs=1000, output_elements=100) is not None
        assert costs.has_own_line(core, "CONV_2D", "int8")
        # An operator no timed node had takes the generic line of its dtype (or of every dtype).
        assert not costs.has_own_line(core, "NOT_AN_OPERATOR", "int8")
        for dtype in ("int8", "float32", "bool"):
            for macs in (0, 1000):
                generic = costs.estimate(core, "NOT_AN_OPERATOR", dtype, macs=macs, output_elements=100)
                assert generic is not None and generic > 0, (core, dtype, macs)


def test_an_operator_without_a_line_takes_its_dtype_s_generic_line() -> None:
    own = Line(per_mac=0.0, per_output=2.0, per_call=10.0, nodes=3)
    int8_moves = Line(per_mac=0.0, per_output=5.0, per_call=0.0, nodes=9)
    int8_macs = Line(per_mac=1.0, per_output=0.0, per_call=0.0, nodes=9)
    anything = Line(per_mac=0.0, per_output=7.0, per_call=0.0, nodes=20)
    lines = {
        "ADD/int8": own,
        generic_key("int8", False): int8_moves,
        generic_key("int8", True): int8_macs,
        generic_key(ANY_DTYPE, False): anything,
    }
    costs = InstructionCosts("test", {"cortex_m55": lines})
    assert costs.estimate("cortex_m55", "ADD", "int8", macs=0, output_elements=10) == 30
    assert costs.estimate("cortex_m55", "TRANSPOSE", "int8", macs=0, output_elements=10) == 50
    assert costs.estimate("cortex_m55", "NEW_CONV", "int8", macs=100, output_elements=10) == 100
    assert costs.estimate("cortex_m55", "TRANSPOSE", "float32", macs=0, output_elements=10) == 70
    assert costs.estimate("cortex_m55", "NEW_CONV", "float32", macs=100, output_elements=10) is None


@settings(max_examples=30, deadline=None)
@given(
    per_mac=coefficient,
    per_input=coefficient,
    per_call=st.floats(min_value=0, max_value=5000),
    nodes=st.lists(
        st.tuples(st.integers(1, 10**6), st.integers(1, 10**5), st.integers(1, 10**5)),
        min_size=5,
        max_size=12,
        unique=True,
    ),
)
def test_fit_reproduces_lines_in_the_elements_read(
    per_mac: float, per_input: float, per_call: float, nodes: list[tuple[int, int, int]]
) -> None:
    samples = [
        (macs, outputs, inputs, round(per_mac * macs + per_input * inputs + per_call))
        for macs, outputs, inputs in nodes
    ]
    line = fit_line(samples)
    for macs, outputs, inputs, instructions in samples:
        assert abs(line.apply(macs, outputs, inputs) - instructions) <= 1 + 1e-6 * instructions


def test_a_kernel_paths_line_is_taken_when_fitted_and_the_operators_otherwise() -> None:
    operator_line = Line(per_mac=1.0, per_output=0.0, per_call=0.0, nodes=5)
    path_line = Line(per_mac=0.25, per_output=0.0, per_call=0.0, nodes=3)
    costs = InstructionCosts(
        "test", {"cortex_m55": {"CONV_2D/int8": operator_line, "CONV_2D/int8/pointwise_narrow": path_line}}
    )
    assert costs.estimate("cortex_m55", "CONV_2D", "int8", 1000, 10, "pointwise_narrow") == 250
    assert costs.estimate("cortex_m55", "CONV_2D", "int8", 1000, 10, "blocks") == 1000
    assert costs.estimate("cortex_m55", "CONV_2D", "int8", 1000, 10) == 1000


@settings(max_examples=30, deadline=None)
@given(
    per_mac=coefficient,
    per_row_block=st.floats(min_value=0, max_value=500),
    per_call=st.floats(min_value=0, max_value=5000),
    nodes=st.lists(
        st.tuples(st.integers(1, 10**6), st.integers(1, 10**5), st.integers(1, 10**4)),
        min_size=5,
        max_size=12,
        unique=True,
    ),
)
def test_fit_reproduces_lines_in_the_row_blocks(
    per_mac: float, per_row_block: float, per_call: float, nodes: list[tuple[int, int, int]]
) -> None:
    samples = [
        (macs, outputs, 0, row_blocks, round(per_mac * macs + per_row_block * row_blocks + per_call))
        for macs, outputs, row_blocks in nodes
    ]
    line = fit_line(samples)
    for macs, outputs, _, row_blocks, instructions in samples:
        assert abs(line.apply(macs, outputs, 0, row_blocks) - instructions) <= 1 + 1e-6 * instructions
