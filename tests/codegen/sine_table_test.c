/* SPDX-License-Identifier: Apache-2.0 */
/* The generated table is compiled into this program and checked against
 * the C library's sinf on every platform. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/codegen/sine_table.h"

int main(void) {
  int failures = 0;
  for (int i = 0; i < SINE_TABLE_ENTRIES; ++i) {
    const float angle = 6.28318530718f * (float)i / (float)SINE_TABLE_ENTRIES;
    const float expected = sinf(angle) * 32767.0f;
    const float error = (float)sine_table_q15[i] - expected;
    if (error > 1.0f || error < -1.0f) {
      printf("FAIL entry %d: %d, sinf gives %f\n", i, sine_table_q15[i], (double)expected);
      ++failures;
    }
  }
  if (sine_table_q15[SINE_TABLE_ENTRIES / 4] != 32767 || sine_table_q15[0] != 0) {
    printf("FAIL: table does not start at 0 or peak at 32767\n");
    ++failures;
  }
  printf("sine table: %d entries, %d failures\n", SINE_TABLE_ENTRIES, failures);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
