/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `sanitizer_probe overflow|out_of_bounds|none`: a signed overflow, a read one past a 4-byte heap
 * array (both in sanitizer_probe_lib.c), or neither. The values come from the command line, so
 * the compiler cannot see them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/toolchains/sanitizer_probe_lib.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s overflow|out_of_bounds|none\n", argv[0]);
    return 2;
  }
  const int32_t one = (int32_t)strlen(argv[1]) > 0 ? 1 : 0;
  int8_t *values = malloc(4);
  if (values == NULL) {
    return 2;
  }
  memset(values, 7, 4);
  if (strcmp(argv[1], "overflow") == 0) {
    printf("%ld\n", (long)sanitizer_probe_add(INT32_MAX, one));
  } else if (strcmp(argv[1], "out_of_bounds") == 0) {
    printf("%d\n", sanitizer_probe_read(values, 3 + one));
  } else {
    printf("%ld %d\n", (long)sanitizer_probe_add(1, one), sanitizer_probe_read(values, 3));
  }
  free(values);
  return 0;
}
