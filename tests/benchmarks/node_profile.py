# SPDX-License-Identifier: Apache-2.0
"""Where a model's instructions go, against the floor: per operator type and per node.

The floor of a node is its multiply-accumulates at the core's widest int8
rate: 16 per instruction on the Cortex-M55 (one VMLADAVA.S8 of 16 lanes),
2 on the Cortex-M4 (one SMLAD). A node that multiplies nothing has no
floor. The cycles benchmark times every node (OPBRIDGE_TIME_NODES) and
prints, per model and core, each operator type's instructions, share and
ratio to its floor, and the nodes that spend the most above their floor
with their shapes, kernel form and parameters: where to look first.
"""

import collections
import dataclasses
import math
from collections.abc import Sequence

from opbridge.analysis.instruction_costs import node_work
from opbridge.aot.operators import NodeCodeOperator
from opbridge.converter import PlannedModel
from opbridge.ir import Graph, Node
from opbridge.registry_context import OperatorRegistry

# MACs per instruction at the core's widest int8 multiply-accumulate.
FLOOR_MACS_PER_INSTRUCTION = {"cortex_m55": 16, "cortex_m4": 2}
WORST_NODES = 5
# Attributes worth printing, when a node's attributes have them.
_SHOWN_ATTRIBUTES = ("padding", "stride_height", "stride_width", "depth_multiplier", "activation")


@dataclasses.dataclass(frozen=True)
class TimedNode:
    index: int
    op_type: str
    instructions: int
    macs: int

    def floor(self, core: str) -> float:
        return self.macs / FLOOR_MACS_PER_INSTRUCTION[core]

    def above_floor(self, core: str) -> float:
        return self.instructions - self.floor(core)


def timed_nodes(
    graph: Graph, operators: OperatorRegistry, measured: Sequence[tuple[int, str, int]], empty: int
) -> list[TimedNode]:
    """The program's timed nodes (index, op type, instructions), less the timer's own `empty` region, with
    their MACs from `graph` (the module's graph: its node order is the program's)."""
    nodes = []
    for index, op_type, instructions in measured:
        node = graph.nodes[index]
        if node.op_type != op_type:
            raise RuntimeError(f"node {index} is {op_type} in the program but {node.op_type} in the module's graph")
        macs = node_work(graph, node, operators).macs
        nodes.append(TimedNode(index, op_type, max(instructions - empty, 0), macs))
    return nodes


def kernel_forms(planned: PlannedModel) -> dict[int, str]:
    """Node index -> the kernel its C calls (its NodeCode's KernelCall, without "opbridge_"), for the nodes
    of a planned module whose code is one kernel call; an aliased RESHAPE, say, calls none."""
    forms = {}
    for operator in planned.operators.operators:
        if not isinstance(operator, NodeCodeOperator):
            continue
        operator.plan = planned.plan  # what emitting the module sets before each node's code
        call = operator.emit_node_code(operator.emit_context()).call
        if call is not None:
            forms[operator.node.index] = call.function.removeprefix("opbridge_")
    return forms


def left_shifts(graph: Graph, node: Node) -> str:
    """For an int8 node with per-channel weights: how many channels' requantization multipliers are >= 1
    (TFLite's left shifts), e.g. "left shifts 3/16"; else ""."""
    if len(node.inputs) < 2 or node.inputs[1] is None:
        return ""
    source, weights, output = graph.tensor(node.inputs[0]), graph.tensor(node.inputs[1]), graph.tensor(node.outputs[0])
    if source.quantization is None or weights.quantization is None or output.quantization is None:
        return ""
    if not weights.is_constant or len(weights.quantization.scales) < 2:
        return ""
    multipliers = [
        source.quantization.scales[0] * scale / output.quantization.scales[0] for scale in weights.quantization.scales
    ]
    # frexp's exponent is TFLite's shift: positive (a left shift) when the multiplier is at least 1.
    count = sum(1 for multiplier in multipliers if math.frexp(multiplier)[1] > 0)
    return f"left shifts {count}/{len(multipliers)}"


def describe_node(graph: Graph, node: Node, form: str | None) -> str:
    """`CONV_2D [1,48,48,8]->[1,48,48,16] w[16,1,1,8] conv_2d_s8_folded_pointwise stride 1x1 left shifts 0/16`."""
    inputs = [graph.tensor(index) for index in node.inputs if index is not None]
    activations = [tensor for tensor in inputs if not tensor.is_constant]
    weights = [tensor for tensor in inputs if tensor.is_constant and len(tensor.shape) >= 2]
    parts = [node.op_type]
    shapes = "->".join(
        ",".join(f"[{','.join(map(str, tensor.shape))}]" for tensor in group)
        for group in (activations, [graph.tensor(index) for index in node.outputs])
    )
    parts.append(shapes)
    if weights:
        parts.append(f"w[{','.join(map(str, weights[0].shape))}]")
    if form:
        parts.append(form)
    attributes = node.attributes
    if attributes is not None:
        for name in _SHOWN_ATTRIBUTES:
            value = getattr(attributes, name, None)
            if value is not None:
                parts.append(f"{name}={getattr(value, 'name', value)}")
    shifts = left_shifts(graph, node)
    if shifts:
        parts.append(shifts)
    return " ".join(parts)


def ratio(instructions: float, floor: float) -> str:
    return f"{instructions / floor:.1f}x" if floor else "-"


def profile_lines(model: str, core: str, graph: Graph, nodes: Sequence[TimedNode], forms: dict[int, str]) -> list[str]:
    """The per-type table and the worst nodes of one model on one core, as printed lines."""
    total = sum(node.instructions for node in nodes) or 1
    macs = sum(node.macs for node in nodes)
    floor = macs / FLOOR_MACS_PER_INSTRUCTION[core]
    lines = [f"{model} on the {core} ({total} instructions in nodes, {ratio(total, floor)} its floor)"]
    by_type: dict[str, list[TimedNode]] = collections.defaultdict(list)
    for node in nodes:
        by_type[node.op_type].append(node)
    ranked = sorted(by_type.items(), key=lambda item: -sum(n.instructions for n in item[1]))
    for op_type, members in ranked:
        instructions = sum(n.instructions for n in members)
        type_floor = sum(n.floor(core) for n in members)
        lines.append(
            f"    {op_type:<28}{len(members):>4} nodes{instructions:>12}{100 * instructions / total:>7.1f}%"
            f"{ratio(instructions, type_floor):>9}"
        )
    worst = sorted(nodes, key=lambda n: -n.above_floor(core))[:WORST_NODES]
    lines.append("    worst nodes (instructions above their floor):")
    for node in worst:
        description = describe_node(graph, graph.nodes[node.index], forms.get(node.index))
        lines.append(
            f"      node {node.index:<4}{node.instructions:>10} ({ratio(node.instructions, node.floor(core))})  "
            f"{description}"
        )
    return lines
