/* SPDX-License-Identifier: Apache-2.0 */
/* The custom no-op's own status reaches the caller of custom_noop_run, and a
 * normal run copies the input. Built for all four platforms. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "custom_noop_common.h"

int main(void) {
  custom_noop_context ctx;
  int failures = 0;
  if (custom_noop_init(&ctx, NULL, 0) != CUSTOM_NOOP_STATUS_OK) {
    printf("FAIL: init\n");
    return 1;
  }
  int8_t *input = (int8_t *)ctx.inputs[0].data;
  for (size_t i = 0; i < ctx.inputs[0].bytes; ++i) {
    input[i] = (int8_t)(i * 7 - 50);
  }
  if (custom_noop_run(&ctx) != CUSTOM_NOOP_STATUS_OK ||
      memcmp(ctx.outputs[0].data, ctx.inputs[0].data, ctx.outputs[0].bytes) != 0) {
    printf("FAIL: the copy\n");
    ++failures;
  }
  /* The operator returns custom_noop_status_custom_first when a tensor is missing. */
  void *saved = ctx.tensor_ptrs[custom_noop_tensor_0];
  ctx.tensor_ptrs[custom_noop_tensor_0] = NULL;
  const int32_t status = custom_noop_run(&ctx);
  ctx.tensor_ptrs[custom_noop_tensor_0] = saved;
  if (status != custom_noop_status_custom_first || status < CUSTOM_NOOP_STATUS_CUSTOM_FIRST ||
      status > CUSTOM_NOOP_STATUS_CUSTOM_LAST) {
    printf("FAIL: custom_noop_run returned %ld, expected the operator's own %d\n", (long)status,
           custom_noop_status_custom_first);
    ++failures;
  }
  printf("custom_noop status test: %d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
