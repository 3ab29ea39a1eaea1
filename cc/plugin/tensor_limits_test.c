/* SPDX-License-Identifier: Apache-2.0 */
/* The size limits, from C: boundaries, overflow, empty tensors. */
#include "cc/plugin/tensor_limits.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect(int condition, const char* what) {
  if (!condition) {
    fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

int main(void) {
  char message[256];
  int64_t count = -1;
  size_t bytes = 0;
  const int64_t exact[] = {4, 1024, 1024}; /* 4 Mi float32 = 16 MiB */
  expect(opbridge_check_tensor(1, exact, 3, &count, &bytes, message, sizeof message) == 0, "16 MiB tensor");
  expect(count == 4 * 1024 * 1024 && bytes == 16u << 20, "count and bytes");
  const int64_t at_limit[] = {16, 1024, 1024}; /* exactly 64 MiB of float32 */
  expect(opbridge_check_tensor(1, at_limit, 3, NULL, NULL, message, sizeof message) == 0, "64 MiB accepted");
  const int64_t over[] = {16 * 1024 * 1024 + 1};
  expect(opbridge_check_tensor(1, over, 1, NULL, NULL, message, sizeof message) != 0, "64 MiB + 4 rejected");
  expect(strstr(message, "67108864-byte limit") != NULL, "limit named");
  const int64_t overflow[] = {INT64_MAX, INT64_MAX, 2};
  expect(opbridge_check_tensor(2, overflow, 3, NULL, NULL, message, sizeof message) != 0, "overflow rejected");
  const int64_t empty[] = {INT64_MAX, 0, INT64_MAX};
  expect(opbridge_check_tensor(1, empty, 3, &count, &bytes, message, sizeof message) == 0 && count == 0 && bytes == 0,
         "an empty tensor is valid whatever its other dimensions");
  const int64_t negative[] = {2, -1};
  expect(opbridge_check_tensor(1, negative, 2, NULL, NULL, message, sizeof message) != 0, "negative dimension");
  expect(strstr(message, "dimension 1 is negative") != NULL, "negative dimension named");
  int64_t ones[17];
  for (int i = 0; i < 17; ++i) ones[i] = 1;
  expect(opbridge_check_tensor(1, ones, 16, &count, NULL, message, sizeof message) == 0 && count == 1, "rank 16");
  expect(opbridge_check_tensor(1, ones, 17, NULL, NULL, message, sizeof message) != 0, "rank 17");
  expect(opbridge_check_tensor(1, NULL, 0, &count, &bytes, message, sizeof message) == 0 && count == 1 && bytes == 4,
         "a scalar");
  expect(opbridge_check_tensor(8, NULL, 0, NULL, NULL, message, sizeof message) != 0, "strings are unsupported");
  expect(opbridge_check_model_size((size_t)16 << 20, message, sizeof message) == 0, "16 MiB model");
  expect(opbridge_check_model_size(((size_t)16 << 20) + 1, message, sizeof message) != 0, "16 MiB + 1 model");
  expect(opbridge_dtype_size(16) == 2 && strcmp(opbridge_dtype_name(16), "bfloat16") == 0, "bfloat16");
  if (failures == 0) puts("tensor_limits_test: all checks passed");
  return failures == 0 ? 0 : 1;
}
