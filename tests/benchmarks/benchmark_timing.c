/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/benchmarks/benchmark_timing.h"

#include <stdio.h>

#include "platforms/boards/common/opbridge_board_timer.h"

/* Ticks of each node, summed over the module's runs (the modules' nodes are few; later ones share the last
 * slot's count). */
#define MAX_TIMED_NODES 256
static uint64_t node_ticks[MAX_TIMED_NODES];
static const char *node_types[MAX_TIMED_NODES];
static uint64_t node_start;
static int32_t nodes_timed = 0;

void opbridge_node_timer(int32_t node, const char *op_type, int32_t end) {
  const uint64_t now = opbridge_board_timer_ticks();
  if (!end) {
    node_start = now;
    return;
  }
  const int32_t slot = node < MAX_TIMED_NODES ? node : MAX_TIMED_NODES - 1;
  node_ticks[slot] += now - node_start;
  node_types[slot] = op_type;
  nodes_timed = slot + 1 > nodes_timed ? slot + 1 : nodes_timed;
}

void benchmark_print_u64(const char *label, uint64_t value) {
  if (value >= 1000000000u) {
    printf("%s%lu%09lu\n", label, (unsigned long)(value / 1000000000u), (unsigned long)(value % 1000000000u));
  } else {
    printf("%s%lu\n", label, (unsigned long)value);
  }
}

void benchmark_print_nodes(void) {
  for (int32_t node = 0; node < nodes_timed; ++node) {
    if (node_types[node] != NULL) {
      printf("node=%ld %s ", (long)node, node_types[node]);
      benchmark_print_u64("", opbridge_board_instructions(node_ticks[node]));
    }
  }
}
