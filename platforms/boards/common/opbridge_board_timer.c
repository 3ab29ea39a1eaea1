/* SPDX-License-Identifier: Apache-2.0 */
#include "platforms/boards/common/opbridge_board_timer.h"

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE_CPU (1u << 2)
#define SYST_RELOAD 0xFFFFFFu

static volatile uint32_t timer_wraps = 0;

/* Overrides the start-up code's weak default handler (cortex_m_startup.c). */
void opbridge_board_systick_handler(void);
void opbridge_board_systick_handler(void) { timer_wraps = timer_wraps + 1; }

void opbridge_board_timer_start(void) {
  SYST_CSR = 0;
  timer_wraps = 0;
  SYST_RVR = SYST_RELOAD;
  SYST_CVR = 0;
  SYST_CSR = SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE_CPU;
}

void opbridge_board_timer_stop(void) { SYST_CSR = 0; }

uint64_t opbridge_board_timer_ticks(void) {
  uint32_t wraps;
  uint32_t value;
  do { /* re-read when a wrap lands between the two reads */
    wraps = timer_wraps;
    value = SYST_CVR;
  } while (wraps != timer_wraps);
  return (uint64_t)wraps * (SYST_RELOAD + 1u) + (SYST_RELOAD - value);
}
