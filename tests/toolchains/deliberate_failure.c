/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A program that fails on purpose, in the way chosen by OPBRIDGE_FAILURE:
 * 1 returns a non-zero status, 2 faults (an undefined instruction), 3 hangs.
 * Built as `manual` emulated tests; emulated_failures_test.py checks that
 * each of them fails, and fails for the right reason, on every platform.
 */
#include <stdio.h>

#define FAILURE_EXIT_STATUS 1
#define FAILURE_FAULT 2
#define FAILURE_HANG 3

int main(void) {
#if OPBRIDGE_FAILURE == FAILURE_EXIT_STATUS
  printf("deliberate failure: returning 3\n");
  return 3;
#elif OPBRIDGE_FAILURE == FAILURE_FAULT
  printf("deliberate failure: executing an undefined instruction\n");
  fflush(stdout);
  __builtin_trap();
#elif OPBRIDGE_FAILURE == FAILURE_HANG
  printf("deliberate failure: spinning forever\n");
  fflush(stdout);
  for (volatile int spin = 0;; spin = spin + 1) {
  }
#else
#error "define OPBRIDGE_FAILURE as 1 (exit status), 2 (fault) or 3 (hang)"
#endif
}
