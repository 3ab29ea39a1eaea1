/* SPDX-License-Identifier: Apache-2.0 */
#include "cc/plugin/tensor_limits.h"

#include <stdio.h>

size_t opbridge_dtype_size(int32_t dtype) {
  switch (dtype) {
    case 2:  /* uint8 */
    case 3:  /* int8 */
    case 9:  /* bool */
      return 1;
    case 4:  /* uint16 */
    case 5:  /* int16 */
    case 10: /* float16 */
    case 16: /* bfloat16 */
      return 2;
    case 1:  /* float32 */
    case 6:  /* int32 */
    case 12: /* uint32 */
      return 4;
    case 7:  /* int64 */
    case 11: /* float64 */
    case 13: /* uint64 */
      return 8;
    default:
      return 0;
  }
}

const char* opbridge_dtype_name(int32_t dtype) {
  switch (dtype) {
    case 1: return "float32";
    case 2: return "uint8";
    case 3: return "int8";
    case 4: return "uint16";
    case 5: return "int16";
    case 6: return "int32";
    case 7: return "int64";
    case 9: return "bool";
    case 10: return "float16";
    case 11: return "float64";
    case 12: return "uint32";
    case 13: return "uint64";
    case 16: return "bfloat16";
    default: return "unsupported";
  }
}

int opbridge_check_tensor(int32_t dtype, const int64_t* shape, int64_t rank, int64_t* element_count,
                          size_t* bytes, char* message, size_t message_size) {
  const size_t item = opbridge_dtype_size(dtype);
  if (item == 0) {
    snprintf(message, message_size, "element type %d is not supported", (int)dtype);
    return 1;
  }
  if (rank < 0 || rank > OPBRIDGE_MAX_RANK) {
    snprintf(message, message_size, "rank %lld is outside 0..%d", (long long)rank, OPBRIDGE_MAX_RANK);
    return 1;
  }
  if (rank > 0 && shape == NULL) {
    snprintf(message, message_size, "a rank-%lld shape without dimensions", (long long)rank);
    return 1;
  }
  /* Multiply in bytes against the byte limit: no step can overflow, since
   * every partial product stays at most OPBRIDGE_MAX_TENSOR_BYTES. An empty
   * tensor (a zero dimension) is valid whatever the other dimensions. */
  const uint64_t limit = OPBRIDGE_MAX_TENSOR_BYTES;
  uint64_t count = 1;
  int empty = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (shape[i] < 0) {
      snprintf(message, message_size, "dimension %lld is negative (%lld)", (long long)i, (long long)shape[i]);
      return 1;
    }
    if (shape[i] == 0) empty = 1;
  }
  for (int64_t i = 0; i < rank && !empty; ++i) {
    const uint64_t dim = (uint64_t)shape[i];
    if (dim > limit / item || count > limit / item / dim) {
      snprintf(message, message_size, "the tensor exceeds the %llu-byte limit per tensor",
               (unsigned long long)limit);
      return 1;
    }
    count *= dim;
  }
  if (empty) count = 0;
  if (element_count != NULL) *element_count = (int64_t)count;
  if (bytes != NULL) *bytes = (size_t)(count * item);
  if (message_size > 0) message[0] = '\0';
  return 0;
}

int opbridge_check_model_size(size_t size, char* message, size_t message_size) {
  if (size > OPBRIDGE_MAX_MODEL_BYTES) {
    snprintf(message, message_size, "the model has %zu bytes, more than the %zu-byte limit", size,
             (size_t)OPBRIDGE_MAX_MODEL_BYTES);
    return 1;
  }
  if (message_size > 0) message[0] = '\0';
  return 0;
}
