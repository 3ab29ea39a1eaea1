# SPDX-License-Identifier: Apache-2.0
"""Offsets for buffers with known lifetimes: the smallest arena we can find.

This is dynamic storage allocation (NP-hard in general), solved in two stages:

1. **Heuristics** (Pisarchyk & Lee, "Efficient Memory Management for Deep
   Neural Net Inference", 2020): five orders (largest first, as TFLite Micro
   does; longest lifetime; largest size x lifetime; earliest start; most
   conflicting bytes) times two fits (lowest offset; best fit, the tightest
   gap). Each takes O(n^2); the best result is kept.
2. **Exact search** (in the spirit of MiniMalloc, Moffitt, ASPLOS 2023),
   only when no heuristic reached the liveness bound: branch and bound over
   *canonical* solutions. Any plan can be pushed down until every buffer
   sits at offset 0 or on (the aligned end of) a buffer it shares time with;
   listing such a plan by increasing offset, each buffer rests on one listed
   before it. So the search places buffers in non-decreasing offset order,
   each at 0 or on an already placed neighbour in time, and prunes with a
   per-step bound: the buffers still to place that are live at one step
   stack above the current offset. When the search runs to the end, the
   result is optimal; it stops when it has spent `search_budget` units of
   work (each node costs the lengths of the per-step live lists plus the
   neighbour lists it walks: a count, not a clock, so plans are the same on
   every machine) and keeps the best found.
"""

import bisect
import dataclasses
from collections.abc import Callable, Sequence

# Work the exact stage may do (see the module docstring): at most about 0.4 s on our
# machines at any graph size. A count rather than a time keeps plans deterministic.
DEFAULT_SEARCH_BUDGET = 1_000_000
# The search recurses once per buffer; beyond this many buffers it would not
# get far within the budget anyway, so the greedy plans stand.
MAX_SEARCH_BUFFERS = 400


@dataclasses.dataclass(frozen=True)
class Request:
    """One buffer to place: `size` bytes, live from `first_step` to `last_step` inclusive."""

    size: int
    first_step: int
    last_step: int
    alignment: int = 1

    def overlaps_in_time(self, other: "Request") -> bool:
        return self.first_step <= other.last_step and other.first_step <= self.last_step


@dataclasses.dataclass(frozen=True)
class Placement:
    offsets: tuple[int, ...]
    end: int  # the highest byte used, plus one
    lower_bound: int  # the liveness bound: the most bytes live at one step
    strategy: str  # which heuristic or search produced the offsets
    optimal: bool  # proven: equal to the bound, or the exact search ran to the end
    largest_first_end: int  # what TFLite Micro's greedy plan (largest first, lowest fit) needs, for comparison


def _align(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


def liveness_bound(requests: Sequence[Request]) -> int:
    """The most bytes live at any one step: no placement can use less."""
    events: dict[int, int] = {}
    for request in requests:
        events[request.first_step] = events.get(request.first_step, 0) + request.size
        events[request.last_step + 1] = events.get(request.last_step + 1, 0) - request.size
    live = best = 0
    for step in sorted(events):
        live += events[step]
        best = max(best, live)
    return best


def _conflicts(requests: Sequence[Request]) -> list[list[int]]:
    """For each request, the others that share a step with it, in index order. Of two that
    overlap, one starts within the other's life: so each request meets the ones starting
    from its first step to its last (a sweep by first step, not every pair)."""
    order = sorted(range(len(requests)), key=lambda i: requests[i].first_step)
    firsts = [requests[i].first_step for i in order]
    conflicts: list[list[int]] = [[] for _ in requests]
    for i, request in enumerate(requests):
        start = bisect.bisect_left(firsts, request.first_step)
        stop = bisect.bisect_right(firsts, request.last_step)
        for j in order[start:stop]:
            if j != i and (requests[j].first_step > request.first_step or j > i):
                conflicts[i].append(j)
                conflicts[j].append(i)
    for found in conflicts:
        found.sort()
    return conflicts


def _lowest_fit(request: Request, placed: list[tuple[int, int]]) -> int:
    """The lowest aligned offset clear of `placed` (offset, end) intervals."""
    offset = 0
    for start, end in sorted(placed):
        if offset + request.size <= start:
            break
        offset = max(offset, _align(end, request.alignment))
    return offset


def _best_fit(request: Request, placed: list[tuple[int, int]]) -> int:
    """The offset of the tightest gap between `placed` intervals that holds the
    request; above them all (at the lowest such offset) when no gap does."""
    intervals = sorted(placed)
    best: tuple[int, int] | None = None  # (slack, offset)
    for candidate in [0] + [_align(end, request.alignment) for _, end in intervals]:
        top = candidate + request.size
        if any(start < top and candidate < end for start, end in intervals):
            continue
        above = [start for start, _ in intervals if start >= top]
        if above:
            slack = min(above) - top
            if best is None or (slack, candidate) < best:
                best = (slack, candidate)
    return best[1] if best is not None else _lowest_fit(request, intervals)


Fit = Callable[[Request, list[tuple[int, int]]], int]


def _greedy(requests: Sequence[Request], conflicts: list[list[int]], order: list[int], fit: Fit) -> list[int]:
    offsets = [-1] * len(requests)
    for index in order:
        placed = [(offsets[j], offsets[j] + requests[j].size) for j in conflicts[index] if offsets[j] >= 0]
        offsets[index] = fit(requests[index], placed)
    return offsets


def _orders(requests: Sequence[Request], conflicts: list[list[int]]) -> dict[str, list[int]]:
    indices = range(len(requests))
    sizes = [r.size for r in requests]
    spans = [r.last_step - r.first_step + 1 for r in requests]
    crowding = [sum(sizes[j] for j in conflicts[i]) for i in indices]
    return {
        "largest first": sorted(indices, key=lambda i: (-sizes[i], requests[i].first_step, i)),
        "longest lifetime first": sorted(indices, key=lambda i: (-spans[i], -sizes[i], i)),
        "largest size x lifetime first": sorted(indices, key=lambda i: (-sizes[i] * spans[i], i)),
        "earliest start first": sorted(indices, key=lambda i: (requests[i].first_step, -sizes[i], i)),
        "most conflicting bytes first": sorted(indices, key=lambda i: (-crowding[i] - sizes[i], -sizes[i], i)),
    }


class _Search:
    """Branch and bound over canonical placements (see the module docstring)."""

    def __init__(self, requests: Sequence[Request], conflicts: list[list[int]], best: list[int], budget: int) -> None:
        self.requests = requests
        self.conflicts = conflicts
        self.best_offsets = list(best)
        self.best_end = max((o + r.size for o, r in zip(best, requests, strict=True)), default=0)
        self.budget = budget
        self.visited = 0
        self.steps = sorted({r.first_step for r in requests} | {r.last_step for r in requests})
        # Which requests are live at each step worth checking (a start step is
        # where the live set grows, so the bound peaks at one of them).
        self.live_at = {
            step: [i for i, r in enumerate(requests) if r.first_step <= step <= r.last_step]
            for step in sorted({r.first_step for r in requests})
        }
        # What one node costs: the bound walks every live list, the candidates every neighbour list.
        self.node_cost = sum(map(len, self.live_at.values())) + sum(map(len, conflicts)) + len(requests)

    def run(self, lower_bound: int) -> bool:
        """Searches; returns True when it ran to the end (the best is optimal)."""
        self.lower_bound = lower_bound
        offsets = [-1] * len(self.requests)
        complete = self._descend(offsets, 0, -1, 0, len(self.requests))
        return complete

    def _bound(self, offsets: list[int], current: int, end: int) -> int:
        """No completion of `offsets` (the rest at >= `current`) ends below this."""
        bound = max(end, self.lower_bound)
        for live in self.live_at.values():
            stacked = current
            for i in live:
                size = self.requests[i].size
                if offsets[i] < 0:
                    stacked += size
                elif offsets[i] + size > current:
                    stacked += offsets[i] + size - max(offsets[i], current)
            bound = max(bound, stacked)
        return bound

    def _descend(self, offsets: list[int], current: int, last_index: int, end: int, remaining: int) -> bool:
        if remaining == 0:
            if end < self.best_end:
                self.best_end, self.best_offsets = end, list(offsets)
            return True
        self.visited += self.node_cost
        if self.visited > self.budget:
            return False
        if self._bound(offsets, current, end) >= self.best_end:
            return True  # this branch cannot do better: searched
        candidates = []
        for index, request in enumerate(self.requests):
            if offsets[index] >= 0:
                continue
            neighbours = [j for j in self.conflicts[index] if offsets[j] >= 0]
            positions = {0} | {_align(offsets[j] + self.requests[j].size, request.alignment) for j in neighbours}
            for position in positions:
                # Canonical order: non-decreasing offsets, ties by index.
                if position < current or (position == current and index < last_index):
                    continue
                top = position + request.size
                if any(offsets[j] < top and position < offsets[j] + self.requests[j].size for j in neighbours):
                    continue
                candidates.append((position, -request.size, index))
        complete = True
        for position, _, index in sorted(candidates):
            if max(end, position + self.requests[index].size) >= self.best_end:
                continue
            offsets[index] = position
            complete &= self._descend(
                offsets, position, index, max(end, position + self.requests[index].size), remaining - 1
            )
            offsets[index] = -1
            if not complete:
                return False
            if self.best_end <= self.lower_bound:
                return True  # reached the bound: nothing can be better
        return complete


def largest_first(requests: Sequence[Request]) -> tuple[int, ...]:
    """Offsets of TFLite Micro's greedy plan (largest first, lowest offset), for comparison."""
    conflicts = _conflicts(requests)
    return tuple(_greedy(requests, conflicts, _orders(requests, conflicts)["largest first"], _lowest_fit))


def place(requests: Sequence[Request], search_budget: int = DEFAULT_SEARCH_BUDGET) -> Placement:
    """Offsets for `requests` (each a multiple of its alignment); deterministic."""
    if not requests:
        return Placement((), 0, 0, "empty", True, 0)
    conflicts = _conflicts(requests)
    bound = liveness_bound(requests)
    best_name, best_offsets, best_end = "", [], -1
    largest_first_end = -1
    for order_name, order in _orders(requests, conflicts).items():
        for fit_name, fit in (("lowest fit", _lowest_fit), ("best fit", _best_fit)):
            offsets = _greedy(requests, conflicts, order, fit)
            end = max(o + r.size for o, r in zip(offsets, requests, strict=True))
            if largest_first_end < 0:
                largest_first_end = end  # the first plan tried is TFLite Micro's
            if best_end < 0 or end < best_end:
                best_name, best_offsets, best_end = f"{order_name}, {fit_name}", offsets, end
            if best_end <= bound:
                return Placement(tuple(best_offsets), best_end, bound, best_name, True, largest_first_end)
    if search_budget <= 0 or len(requests) > MAX_SEARCH_BUFFERS:
        return Placement(tuple(best_offsets), best_end, bound, best_name, False, largest_first_end)
    search = _Search(requests, conflicts, best_offsets, search_budget)
    complete = search.run(bound)
    if search.best_end < best_end:
        best_name, best_offsets, best_end = "exact search", search.best_offsets, search.best_end
    optimal = complete or best_end <= bound
    if complete and best_name != "exact search":
        best_name += " (proven optimal by exact search)"
    return Placement(tuple(best_offsets), best_end, bound, best_name, optimal, largest_first_end)
