/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counting instructions on the emulated Cortex-M boards.
 *
 * SysTick counts the CPU clock (OPBRIDGE_BOARD_CPU_HZ, defined by the
 * board's library); its 24-bit counter wraps every 2^24 ticks, and the
 * SysTick interrupt counts the wraps. Under qemu-system-arm -icount shift=5
 * QEMU advances virtual time 2^5 ns per instruction, so
 * instructions = ticks x (10^9 / OPBRIDGE_BOARD_CPU_HZ) / 32, exactly
 * enough for benchmarks (QEMU counts instructions, not cycles).
 */
#ifndef OPBRIDGE_BOARD_TIMER_H_
#define OPBRIDGE_BOARD_TIMER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Starts SysTick from 0 (and its interrupt, which counts wraps). */
void opbridge_board_timer_start(void);

/* Stops SysTick. */
void opbridge_board_timer_stop(void);

/* CPU clock ticks since opbridge_board_timer_start. */
uint64_t opbridge_board_timer_ticks(void);

#ifdef OPBRIDGE_BOARD_CPU_HZ /* set for programs by the board's library */
/* Instructions in `ticks` when QEMU runs with -icount shift=5 (32 ns per instruction). */
static inline uint64_t opbridge_board_instructions(uint64_t ticks) {
  return (ticks * (1000000000u / (OPBRIDGE_BOARD_CPU_HZ / 1000u)) + 16000u) / 32000u;
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* OPBRIDGE_BOARD_TIMER_H_ */
