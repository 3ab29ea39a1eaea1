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
#include "tests/benchmarks/benchmark_timing.h"

#define CONCATENATE_(a, b) a##b
#define CONCATENATE(a, b) CONCATENATE_(a, b)
#define MODEL(name) CONCATENATE(MODEL_PREFIX, name)

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
  benchmark_print_u64("instructions_run=", opbridge_board_instructions(end - start));
  benchmark_print_u64("instructions_empty=", opbridge_board_instructions(empty_end - empty_start));
#ifdef TIME_NODES
  benchmark_print_nodes();
#endif
  return 0;
}
