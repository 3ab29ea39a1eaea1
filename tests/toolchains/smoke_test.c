/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
int main(void) {
  volatile float x = 1.5f;
  printf("hello %d\n", (int)(x * 2.0f));
  return (int)(x * 2.0f) == 3 ? 0 : 1;
}
