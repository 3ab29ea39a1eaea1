/* SPDX-License-Identifier: Apache-2.0 */
/* What the instruction-counting programs share (cycles_main.c, frontend_cycles_main.c): printing 64-bit
 * counts, and the per-node timer a module built with OPBRIDGE_TIME_NODES calls (benchmark_timing.c). */
#ifndef OPBRIDGE_BENCHMARK_TIMING_H_
#define OPBRIDGE_BENCHMARK_TIMING_H_

#include <stdint.h>

/* Prints "<label><value>\n" (newlib-nano's printf has no %llu). */
void benchmark_print_u64(const char *label, uint64_t value);

/* Prints "node=<index> <op type> <instructions>" for each node timed so far (summed over its runs). */
void benchmark_print_nodes(void);

/* Called by a module built with OPBRIDGE_TIME_NODES before (end 0) and after (end 1) each node. */
void opbridge_node_timer(int32_t node, const char *op_type, int32_t end);

#endif /* OPBRIDGE_BENCHMARK_TIMING_H_ */
