/* SPDX-License-Identifier: Apache-2.0 */
/* Runs the opbridge-compiled MLPerf Tiny keyword-spotting model once on a
 * fixed input and prints its top class. Built for the Cortex-M55 and run
 * under qemu-system-arm by kws_demo.py. */
#include <stdio.h>
#include <string.h>

#include "examples/kws_m55/kws_demo_input.h"
#include "kws.h"

int main(void) {
  kws_context ctx;
  int32_t status = kws_init(&ctx, NULL, 0);
  if (status != KWS_STATUS_OK) {
    printf("kws_init failed: %ld\n", (long)status);
    return 1;
  }
  memcpy(ctx.inputs[0].data, demo_input, KWS_DEMO_INPUT_BYTES);
  status = kws_run(&ctx);
  if (status != KWS_STATUS_OK) {
    printf("kws_run failed: %ld\n", (long)status);
    return 1;
  }
  const int8_t *scores = (const int8_t *)ctx.outputs[0].data;
  int top = 0;
  for (int c = 1; c < KWS_DEMO_CLASSES; ++c) {
    if (scores[c] > scores[top]) {
      top = c;
    }
  }
  printf("top class: %d (%s), score %d/127\n", top, demo_labels[top], scores[top]);
  printf("reference interpreter's top class: %d (%s)\n", KWS_DEMO_EXPECTED_CLASS,
         demo_labels[KWS_DEMO_EXPECTED_CLASS]);
  return top == KWS_DEMO_EXPECTED_CLASS ? 0 : 2;
}
