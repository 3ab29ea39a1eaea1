/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counts the instructions of one <prefix>_run of an emitted module on the
 * emulated Cortex-M55 (run by cycles.py under qemu-system-arm -icount).
 *
 * With -icount shift=5 QEMU advances virtual time 2^5 ns per instruction,
 * and SysTick counts the 32 MHz CPU clock of the mps3-an547 model, so
 * instructions = ticks * 31.25 / 32. The timer's 24-bit counter wraps every
 * 2^24 ticks; the SysTick handler counts the wraps.
 *
 * MODEL_PREFIX (e.g. kws) and MODEL_HEADER (e.g. "kws.h") come from the build.
 * With TIME_NODES, the program links the module built with OPBRIDGE_TIME_NODES
 * and also prints each node's ticks ("node=<index> <op type> <ticks>").
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include MODEL_HEADER

#define CONCATENATE_(a, b) a##b
#define CONCATENATE(a, b) CONCATENATE_(a, b)
#define MODEL(name) CONCATENATE(MODEL_PREFIX, name)

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE_CPU (1u << 2)
#define SYST_RELOAD 0xFFFFFFu

static volatile uint32_t timer_wraps = 0;

void opbridge_board_systick_handler(void);
void opbridge_board_systick_handler(void) { timer_wraps = timer_wraps + 1; }

/* Ticks since the timer started; re-reads when a wrap lands mid-read. */
static uint64_t ticks_now(void) {
  uint32_t wraps;
  uint32_t value;
  do {
    wraps = timer_wraps;
    value = SYST_CVR;
  } while (wraps != timer_wraps);
  return (uint64_t)wraps * (SYST_RELOAD + 1u) + (SYST_RELOAD - value);
}

#ifdef TIME_NODES
/* Ticks of each node (the module's nodes are few; later ones share the last slot's count). */
#define MAX_TIMED_NODES 256
static uint64_t node_ticks[MAX_TIMED_NODES];
static const char *node_types[MAX_TIMED_NODES];
static uint64_t node_start;
static int32_t nodes_timed = 0;

void opbridge_node_timer(int32_t node, const char *op_type, int32_t end);
void opbridge_node_timer(int32_t node, const char *op_type, int32_t end) {
  const uint64_t now = ticks_now();
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
  SYST_RVR = SYST_RELOAD;
  SYST_CVR = 0;
  SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE_CPU;

  const uint64_t empty_start = ticks_now();
  const uint64_t empty_end = ticks_now();
  const uint64_t start = ticks_now();
  const int32_t status = MODEL(_run)(&ctx);
  const uint64_t end = ticks_now();
  SYST_CSR = 0;
  if (status != 0) {
    printf("run failed: %ld\n", (long)status);
    return 1;
  }
  print_u64("ticks_run=", end - start);
  print_u64("ticks_empty=", empty_end - empty_start);
#ifdef TIME_NODES
  for (int32_t node = 0; node < nodes_timed; ++node) {
    if (node_types[node] != NULL) {
      printf("node=%ld %s ", (long)node, node_types[node]);
      print_u64("", node_ticks[node]);
    }
  }
#endif
  return 0;
}
