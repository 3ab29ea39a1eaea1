# SPDX-License-Identifier: Apache-2.0
"""A graph to a C module: resolve its operators, plan its memory, emit it (the converter's back half).

Knows no operator: it takes the registry to resolve with, so a test of one operator compiles
with that operator's registry alone (the converter, opbridge/converter.py, passes the built-ins
and plugins)."""

import pathlib
from collections.abc import Sequence
from typing import Protocol

from opbridge.aot.definition_registration import as_registry_context
from opbridge.aot.resolve import OperatorRule, ResolvedGraph, resolve_operators
from opbridge.backends.c.emitter import EmittedModule, emit_module
from opbridge.backends.c.memory_plan import DEFAULT_ALIGNMENT, MemoryPlan, plan_memory
from opbridge.backends.c.placement import DEFAULT_SEARCH_BUDGET
from opbridge.ir import Graph
from opbridge.registry_context import OperatorRegistry, RegistryContext


class PlannerSettings(Protocol):
    """The memory planner's settings of a conversion (the converter's ConvertArgs has them)."""

    @property
    def max_arena_bytes(self) -> int | None: ...
    @property
    def plan_search_budget(self) -> int: ...
    @property
    def arena_section(self) -> str | None: ...
    @property
    def constants_section(self) -> str | None: ...
    @property
    def in_place(self) -> bool: ...


def compile_graph(
    graph: Graph,
    registry_context: RegistryContext | OperatorRegistry,
    prefix: str,
    directory: pathlib.Path,
    *,
    alignment: int = DEFAULT_ALIGNMENT,
    bundle_kernels: bool = True,
    rules: Sequence[OperatorRule] = (),
    cmake_lists: bool = True,
) -> tuple[MemoryPlan, EmittedModule]:
    """Resolves, plans and emits a graph (the converter's back half)."""
    resolved = resolve_operators(graph, as_registry_context(registry_context), prefix, rules)
    return plan_and_emit(
        graph,
        resolved,
        prefix,
        directory,
        alignment=alignment,
        bundle_kernels=bundle_kernels,
        cmake_lists=cmake_lists,
    )


def plan_and_emit(
    graph: Graph,
    resolved: ResolvedGraph,
    prefix: str,
    directory: pathlib.Path,
    *,
    alignment: int = DEFAULT_ALIGNMENT,
    bundle_kernels: bool = True,
    memory: PlannerSettings | None = None,
    cmake_lists: bool = True,
) -> tuple[MemoryPlan, EmittedModule]:
    """Plans and emits; `memory` carries the planner's settings (budget, sections, search)."""
    plan = plan_graph(graph, resolved, alignment, memory)
    module = emit_module(graph, resolved.operators, plan, prefix, directory, bundle_kernels, cmake_lists)
    return plan, module


def plan_graph(
    graph: Graph,
    resolved: ResolvedGraph,
    alignment: int,
    memory: PlannerSettings | None,
    *,
    enforce_budget: bool = True,
) -> MemoryPlan:
    """The memory plan with `memory`'s settings (None: the defaults); `enforce_budget=False`
    plans past `max_arena_bytes` instead of raising (to compare plans)."""
    return plan_memory(
        graph,
        alignment=alignment,
        max_arena_bytes=memory.max_arena_bytes if memory and enforce_budget else None,
        search_budget=memory.plan_search_budget if memory else DEFAULT_SEARCH_BUDGET,
        arena_section=memory.arena_section if memory else None,
        constants_section=memory.constants_section if memory else None,
        **resolved.memory_arguments(memory is None or memory.in_place),
    )
