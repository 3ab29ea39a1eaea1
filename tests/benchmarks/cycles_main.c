/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counts the instructions of one <prefix>_run of an emitted module on an
 * emulated Cortex-M board (run by cycles.py under qemu-system-arm -icount
 * shift=5; platforms/boards/common/opbridge_board_timer.h converts SysTick
 * ticks to instructions).
 *
 * MODEL_PREFIX (e.g. kws) and MODEL_HEADER (e.g. "kws.h") come from the build.
 * With TIME_NODES, the program links the module built with OPBRIDGE_TIME_NODES
 * and also prints each node's instructions ("node=<index> <op type> <ticks>").
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include MODEL_HEADER
#include "platforms/boards/common/opbridge_board_timer.h"

#define CONCATENATE_(a, b) a##b
#define CONCATENATE(a, b) CONCATENATE_(a, b)
#define MODEL(name) CONCATENATE(MODEL_PREFIX, name)

#ifdef TIME_NODES
/* Ticks of each node (the module's nodes are few; later ones share the last slot's count). */
#define MAX_TIMED_NODES 256
static uint64_t node_ticks[MAX_TIMED_NODES];
static const char *node_types[MAX_TIMED_NODES];
static uint64_t node_start;
static int32_t nodes_timed = 0;

void opbridge_node_timer(int32_t node, const char *op_type, int32_t end);
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
#endif

static void print_u64(const char *label, uint64_t value) {
  /* newlib-nano's printf has no %llu: print in two parts. */
  if (value >= 1000000000u) {
    printf("%s%lu%09lu\n", label, (unsigned long)(value / 1000000000u), (unsigned long)(value % 1000000000u));
  } else {
    printf("%s%lu\n", label, (unsigned long)value);
  }
}

int main(void) {
  MODEL(_context) ctx;
  if (MODEL(_init)(&ctx, NULL, 0) != 0) {
    printf("init failed\n");
    return 1;
  }
  for (int i = 0; i < (int)(sizeof(ctx.inputs) / sizeof(ctx.inputs[0])); ++i) {
    memset(ctx.inputs[i].data, 0, ctx.inputs[i].bytes);
  }
  opbridge_board_timer_start();

  const uint64_t empty_start = opbridge_board_timer_ticks();
  const uint64_t empty_end = opbridge_board_timer_ticks();
  const uint64_t start = opbridge_board_timer_ticks();
  const int32_t status = MODEL(_run)(&ctx);
  const uint64_t end = opbridge_board_timer_ticks();
  opbridge_board_timer_stop();
  if (status != 0) {
    printf("run failed: %ld\n", (long)status);
    return 1;
  }
  print_u64("instructions_run=", opbridge_board_instructions(end - start));
  print_u64("instructions_empty=", opbridge_board_instructions(empty_end - empty_start));
#ifdef TIME_NODES
  for (int32_t node = 0; node < nodes_timed; ++node) {
    if (node_types[node] != NULL) {
      printf("node=%ld %s ", (long)node, node_types[node]);
      print_u64("", opbridge_board_instructions(node_ticks[node]));
    }
  }
#endif
  return 0;
}
