# SPDX-License-Identifier: Apache-2.0
"""A C test program that checks an emitted module against the reference interpreter.

The program holds seeded inputs and the outputs the NumPy reference gives
for them, runs the module on each, and compares byte for byte; it also
checks the module's error statuses. It exits 0 only if everything matches,
so one source serves every platform (toolchains/emulated_test.bzl).
"""

from collections.abc import Callable

import numpy as np

from opbridge.backends.c.emit_context import C_TYPES, GENERATED_NOTICE
from opbridge.backends.c.emitter import c_array
from opbridge.backends.c.golden_inputs import provenance, seeded_inputs
from opbridge.backends.reference import ReferenceInterpreter
from opbridge.ir import DType, Graph
from opbridge.registry_context import OperatorRegistry

# How far (in units in the last place) a float32 output of the C module may be
# from the NumPy reference's (docs/onnx.md states the float tolerances).
FLOAT_ULP_TOLERANCE = 64

# printf conversions of integer outputs: signed types print signed (an int8 -127 is not 129), and only
# 64-bit types need long long (which some embedded printf builds lack).
_PRINTED_AS = {
    "int8_t": ("%ld", "long"),
    "int16_t": ("%ld", "long"),
    "int32_t": ("%ld", "long"),
    "int64_t": ("%lld", "long long"),
    "uint8_t": ("%lu", "unsigned long"),
    "uint32_t": ("%lu", "unsigned long"),
    "uint64_t": ("%llu", "unsigned long long"),
}


def mismatch_reporter(ctype: str) -> str:
    """The C function that prints the first element of an integer output that differs from the golden one,
    in the output's own C type, e.g. `report_mismatch_int8`. Outputs are compared byte for byte first."""
    conversion, cast = _PRINTED_AS[ctype]
    return f"""static void report_mismatch_{ctype.removesuffix("_t")}(int c, int output, const void *found_data,
                                  const {ctype} *expected, size_t count) {{
  const unsigned char *found = (const unsigned char *)found_data;
  for (size_t i = 0; i < count; ++i) {{
    {ctype} value;
    memcpy(&value, found + i * sizeof value, sizeof value);
    if (value != expected[i]) {{
      printf("FAIL case %d output %d ({ctype}): element %lu is {conversion}, expected {conversion}\\n", c, output,
             (unsigned long)i, ({cast})value, ({cast})expected[i]);
      return;
    }}
  }}
}}

"""


# The golden inputs and outputs go to their own linker section, which the boards' shared layout puts in a
# region with room for them (platforms/boards/common/cortex_m_sections.ld: the M55's 2 MiB SRAM, not its
# 512 KiB ITCM), so a large model keeps its default number of cases.
GOLDEN_PLACEMENT = """/* The golden data's linker section: ".golden", which the Cortex-M boards place in their
 * large read-only region (platforms/boards/common/cortex_m_sections.ld); elsewhere one more
 * read-only section. Define GOLDEN_DATA_PLACEMENT when compiling to override it. */
#ifndef GOLDEN_DATA_PLACEMENT
#if defined(__ELF__)
#define GOLDEN_DATA_PLACEMENT __attribute__((section(".golden")))
#else
#define GOLDEN_DATA_PLACEMENT
#endif
#endif
"""
GOLDEN_STORAGE = "static const GOLDEN_DATA_PLACEMENT"


# The comparison of float32 outputs, in golden tests of modules that have them.
FLOAT_COMPARE = """/* float32 outputs: the C kernels and NumPy may round differently (libm's
 * expf, summation order), so they may differ by FLOAT_ULP_TOLERANCE units in
 * the last place; integer outputs are compared byte for byte. */
#define FLOAT_ULP_TOLERANCE @TOLERANCE@

static int64_t float_order(float value) {
  int32_t bits;
  memcpy(&bits, &value, sizeof bits);
  return bits < 0 ? (int64_t)INT32_MIN - (int64_t)bits : (int64_t)bits;
}

static int floats_close(const void *found_data, const float *expected, size_t count, int c, int output) {
  const float *found = (const float *)found_data;
  for (size_t i = 0; i < count; ++i) {
    int64_t apart = float_order(found[i]) - float_order(expected[i]);
    if (apart < 0) {
      apart = -apart;
    }
    if (apart > FLOAT_ULP_TOLERANCE) {
      printf("FAIL case %d output %d: element %lu is %.9g, expected %.9g (%lld ulps)\\n", c, output,
             (unsigned long)i, (double)found[i], (double)expected[i], (long long)apart);
      return 0;
    }
  }
  return 1;
}

"""


def input_value_ranges(graph: Graph, registry: OperatorRegistry) -> dict[int, tuple[int, int]]:
    """The range [low, high) each graph input must stay in for every operator that indexes with it
    (OperatorDefinition.input_ranges), the intersection when several do."""
    inputs = set(graph.inputs)
    ranges: dict[int, tuple[int, int]] = {}
    for node in graph.nodes:
        definition = registry.get(node.op_type)
        if definition is None or definition.input_ranges is None:
            continue
        for position, (low, high) in definition.input_ranges(graph, node).items():
            index = node.inputs[position]
            if index is None or index not in inputs:
                continue
            known_low, known_high = ranges.get(index, (low, high))
            ranges[index] = (max(low, known_low), min(high, known_high))
    return {index: bounds for index, bounds in ranges.items() if bounds[0] < bounds[1]}


def golden_test_source(
    graph: Graph,
    registry: OperatorRegistry,
    prefix: str,
    count: int,
    seed: int,
    on_case: Callable[[int], None] | None = None,
) -> str:
    """The golden test program's C; `on_case(n)` is called as each of the `count` reference runs ends."""
    p, m = prefix, prefix.upper()
    interpreter = ReferenceInterpreter(graph, registry)
    ranges = input_value_ranges(graph, registry)
    input_sets = [
        seeded_inputs(tensor, count, seed=seed + position, value_range=ranges.get(tensor.index))
        for position, tensor in enumerate(graph.input_tensors())
    ]
    cases = [[inputs[case] for inputs in input_sets] for case in range(count)]
    expected = []
    for case in cases:
        expected.append(interpreter.run(case))
        if on_case is not None:
            on_case(len(expected))

    arrays = []
    for position, tensor in enumerate(graph.input_tensors()):
        data = np.stack([case[position] for case in cases])
        arrays.append(c_array(C_TYPES[tensor.dtype], f"golden_input_{position}", data, GOLDEN_STORAGE))
    for position, tensor in enumerate(graph.output_tensors()):
        data = np.stack([outputs[position] for outputs in expected])
        arrays.append(c_array(C_TYPES[tensor.dtype], f"golden_output_{position}", data, GOLDEN_STORAGE))

    copy_inputs = "\n".join(
        f"    memcpy(ctx.inputs[{i}].data, golden_input_{i} + (size_t)c * {t.element_count}, {t.bytes});"
        for i, t in enumerate(graph.input_tensors())
    )
    compare_outputs = "\n".join(
        f"""    if (!floats_close(ctx.outputs[{i}].data, golden_output_{i} + (size_t)c * {t.element_count},
                      {t.element_count}, c, {i})) {{
      ++failures;
    }}"""
        if t.dtype is DType.FLOAT32
        else f"""    if (memcmp(ctx.outputs[{i}].data, golden_output_{i} + (size_t)c * {t.element_count},
               {t.bytes}) != 0) {{
      report_mismatch_{C_TYPES[t.dtype].removesuffix("_t")}(c, {i}, ctx.outputs[{i}].data,
                      golden_output_{i} + (size_t)c * {t.element_count}, {t.element_count});
      ++failures;
    }}"""
        for i, t in enumerate(graph.output_tensors())
    )
    has_float_output = any(t.dtype is DType.FLOAT32 for t in graph.output_tensors())
    float_compare = FLOAT_COMPARE.replace("@TOLERANCE@", str(FLOAT_ULP_TOLERANCE)) if has_float_output else ""
    integer_types = sorted({C_TYPES[t.dtype] for t in graph.output_tensors() if t.dtype is not DType.FLOAT32})
    byte_compare = "".join(mismatch_reporter(ctype) for ctype in integer_types)
    return f"""/* {GENERATED_NOTICE} */
/* The golden test of module "{p}".
 * {provenance(seed, count)}
 * outputs: opbridge's NumPy reference interpreter, bit-exact with TFLite Micro. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "{p}.h"

{GOLDEN_PLACEMENT}
#define CASES {count}

{chr(10).join(arrays)}
static uint8_t caller_arena[{m}_ARENA_BYTES + {m}_ARENA_ALIGNMENT]
    __attribute__((aligned({m}_ARENA_ALIGNMENT)));

{byte_compare}{float_compare}static int run_cases({p}_context *ctx_pointer) {{
  {p}_context ctx = *ctx_pointer;
  int failures = 0;
  for (int c = 0; c < CASES; ++c) {{
{copy_inputs}
    const int32_t status = {p}_run(&ctx);
    if (status != {m}_STATUS_OK) {{
      printf("FAIL case %d: {p}_run returned %ld\\n", c, (long)status);
      ++failures;
      continue;
    }}
{compare_outputs}
  }}
  return failures;
}}

int main(void) {{
  {p}_context ctx;
  int failures = 0;
  if ({p}_run(&(({p}_context){{0}})) != {m}_STATUS_NOT_INITIALIZED) {{
    printf("FAIL: run before init did not return NOT_INITIALIZED\\n");
    ++failures;
  }}
  if ({m}_ARENA_BYTES > 0 && {p}_init(&ctx, caller_arena, {m}_ARENA_BYTES - 1) != {m}_STATUS_ARENA_TOO_SMALL) {{
    printf("FAIL: a too-small arena was accepted\\n");
    ++failures;
  }}
  /* The module's own arena, then a caller-supplied one. */
  if ({p}_init(&ctx, NULL, 0) != {m}_STATUS_OK) {{
    printf("FAIL: init with the static arena\\n");
    return 1;
  }}
  failures += run_cases(&ctx);
  if ({p}_init(&ctx, caller_arena, sizeof(caller_arena)) != {m}_STATUS_OK) {{
    printf("FAIL: init with a caller arena\\n");
    return 1;
  }}
  failures += run_cases(&ctx);
  printf("{p}: %d cases x 2 arenas, arena %lu bytes, %d failures\\n", CASES, (unsigned long){m}_ARENA_BYTES, failures);
  return failures == 0 ? 0 : 1;
}}
"""
