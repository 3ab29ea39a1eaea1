/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Size limits of the native plugin hosts, checked before anything is copied
 * or allocated. The Python wrappers check the same limits first (raising
 * ValueError); these checks protect C and C++ callers.
 */
#ifndef OPBRIDGE_TENSOR_LIMITS_H_
#define OPBRIDGE_TENSOR_LIMITS_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OPBRIDGE_MAX_MODEL_BYTES ((size_t)16 << 20)
#define OPBRIDGE_MAX_TENSOR_BYTES ((size_t)64 << 20)
#define OPBRIDGE_MAX_RANK 16

/* Bytes per element of an OpbridgeDType (ONNX numbering); 0 if unsupported. */
size_t opbridge_dtype_size(int32_t dtype);

/* A lower-case name ("float32", "bfloat16"); "unsupported" otherwise. */
const char* opbridge_dtype_name(int32_t dtype);

/*
 * Checks a tensor of `dtype` and `shape` (rank entries) against the limits.
 * On success returns 0 and stores the element count and byte size. On
 * failure returns nonzero and writes a message naming the limit into
 * message (message_size bytes, always terminated when message_size > 0).
 */
int opbridge_check_tensor(int32_t dtype, const int64_t* shape, int64_t rank, int64_t* element_count,
                          size_t* bytes, char* message, size_t message_size);

/* The same for a serialized model of `size` bytes. */
int opbridge_check_model_size(size_t size, char* message, size_t message_size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OPBRIDGE_TENSOR_LIMITS_H_ */
