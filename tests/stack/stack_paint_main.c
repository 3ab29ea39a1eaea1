/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The stack high-water mark of one model's init and run on an emulated
 * Cortex-M board (tests/stack/stack_bound_test.py). The stack below main's
 * frame, down to 16 KiB above the heap's start, is painted with a pattern
 * (in main, by a loop that calls nothing, so nothing below sp is in use);
 * then model_init and model_run run on a drawn input, and the lowest word
 * no longer holding the pattern gives the deepest stack they used, in bytes
 * below main's sp at the calls.
 */
#include <stdint.h>
#include <stdio.h>

#include "model.h"

#define STACK_PATTERN 0x5AC3E17Bu  /* bytes differ: no loop of it becomes a memset call */
#define HEAP_ROOM 16384u

extern uint32_t end; /* the heap's start (cortex_m_sections.ld) */

static model_context context;

int main(void) {
  uintptr_t sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  volatile uint32_t *const low = (volatile uint32_t *)((((uintptr_t)&end) + HEAP_ROOM + 3u) & ~(uintptr_t)3u);
  for (volatile uint32_t *word = low; (uintptr_t)word < sp; ++word) {
    *word = STACK_PATTERN;
  }
  int32_t status = model_init(&context, NULL, 0);
  uint32_t seed = 12345u;
  for (int32_t i = 0; status == 0 && i < MODEL_INPUT_COUNT; ++i) {
    volatile uint8_t *data = (volatile uint8_t *)context.inputs[i].data;
    for (size_t b = 0; b < context.inputs[i].bytes; ++b) {
      seed = seed * 1103515245u + 12345u;
      data[b] = (uint8_t)(seed >> 16);
    }
  }
  if (status == 0) {
    status = model_run(&context);
  }
  volatile uint32_t *word = low;
  while ((uintptr_t)word < sp && *word == STACK_PATTERN) {
    ++word;
  }
  printf("status=%ld painted=%lu high_water=%lu\n", (long)status, (unsigned long)(sp - (uintptr_t)low),
         (unsigned long)(sp - (uintptr_t)word));
  return status == 0 ? 0 : 1;
}
