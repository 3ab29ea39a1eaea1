# SPDX-License-Identifier: Apache-2.0
"""Offset placement on drawn lifetimes: never overlapping, never below the
bound, and equal to the optimum found by exhaustive search on small cases."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from opbridge.backends.c.placement import Request, _conflicts, largest_first, liveness_bound, place


@st.composite
def requests(draw: st.DrawFn, max_count: int = 12, max_size: int = 64) -> list[Request]:
    result = []
    for _ in range(draw(st.integers(1, max_count))):
        first = draw(st.integers(-1, 8))
        last = draw(st.integers(first, first + draw(st.integers(0, 4))))
        result.append(Request(draw(st.integers(1, max_size)), first, last, draw(st.sampled_from([1, 2, 4, 8]))))
    return result


def _check(placed: list[Request], offsets: tuple[int, ...], end: int) -> None:
    for (a, offset_a), (b, offset_b) in itertools.combinations(zip(placed, offsets, strict=True), 2):
        if a.overlaps_in_time(b):
            assert offset_a + a.size <= offset_b or offset_b + b.size <= offset_a, (a, offset_a, b, offset_b)
    for request, offset in zip(placed, offsets, strict=True):
        assert offset >= 0 and offset % request.alignment == 0
        assert offset + request.size <= end


def _fits(placed: list[Request], arena: int) -> bool:
    """Exhaustive: does some assignment of aligned offsets fit in `arena` bytes?"""
    order = sorted(range(len(placed)), key=lambda i: -placed[i].size)
    offsets: dict[int, int] = {}

    def assign(position: int) -> bool:
        if position == len(order):
            return True
        index = order[position]
        request = placed[index]
        for offset in range(0, arena - request.size + 1, request.alignment):
            if all(
                offset + request.size <= offsets[j] or offsets[j] + placed[j].size <= offset
                for j in offsets
                if placed[j].overlaps_in_time(request)
            ):
                offsets[index] = offset
                if assign(position + 1):
                    return True
                del offsets[index]
        return False

    return assign(0)


def _optimum(placed: list[Request]) -> int:
    arena = liveness_bound(placed)
    while not _fits(placed, arena):
        arena += 1
    return arena


@settings(max_examples=300, deadline=None)
@given(requests())
def test_no_two_live_buffers_share_bytes(placed: list[Request]) -> None:
    placement = place(placed)
    _check(placed, placement.offsets, placement.end)
    assert placement.end >= placement.lower_bound == liveness_bound(placed)
    assert placement.end == max(o + r.size for o, r in zip(placement.offsets, placed, strict=True))
    if placement.end == placement.lower_bound:
        assert placement.optimal


@settings(max_examples=300, deadline=None)
@given(requests(max_count=6, max_size=12))
def test_small_cases_reach_the_exhaustive_optimum(placed: list[Request]) -> None:
    placement = place(placed)
    _check(placed, placement.offsets, placement.end)
    assert placement.optimal  # small enough for the exact search to finish
    assert placement.end == _optimum(placed)


@settings(max_examples=50, deadline=None)
@given(requests())
def test_plans_are_deterministic(placed: list[Request]) -> None:
    assert place(placed) == place(list(placed))


def _end(placed: list[Request], offsets: tuple[int, ...]) -> int:
    return max(o + r.size for o, r in zip(offsets, placed, strict=True))


def test_largest_first_leaves_a_gap_the_other_orders_avoid() -> None:
    # Found by drawing: largest first needs 16 bytes, the optimum is 12.
    placed = [Request(5, 4, 7), Request(4, 0, 1), Request(6, 2, 3), Request(5, 3, 4), Request(7, 5, 5)]
    assert _end(placed, largest_first(placed)) == 16
    placement = place(placed)
    assert placement.end == _optimum(placed) == 12 and placement.optimal


def test_the_exact_search_beats_every_heuristic() -> None:
    # Found by drawing: the best of the ten greedy plans needs 25 bytes, the optimum is 20.
    placed = [
        Request(10, 1, 1),
        Request(3, 0, 2),
        Request(8, 2, 5),
        Request(10, 4, 5),
        Request(5, 2, 3),
        Request(4, 0, 2),
    ]
    greedy = place(placed, search_budget=0)
    assert greedy.end == 25 and not greedy.optimal
    placement = place(placed)
    _check(placed, placement.offsets, placement.end)
    assert placement.end == _optimum(placed) == 20
    assert placement.strategy == "exact search" and placement.optimal


def test_large_graphs_keep_the_greedy_plan_without_deep_recursion() -> None:
    # 1,000 buffers whose greedy plans miss the bound (alignment padding): no RecursionError.
    placed = [Request(5 + i % 7, i // 3, i // 3 + 2, 4) for i in range(1000)]
    placement = place(placed)
    _check(placed, placement.offsets, placement.end)
    assert placement.end >= placement.lower_bound


@settings(max_examples=300, deadline=None)
@given(requests())
def test_conflicts_are_every_other_request_sharing_a_step(drawn: list[Request]) -> None:
    """The sweep finds what comparing every pair finds, in index order."""
    assert _conflicts(drawn) == [
        [j for j, other in enumerate(drawn) if j != i and request.overlaps_in_time(other)]
        for i, request in enumerate(drawn)
    ]
