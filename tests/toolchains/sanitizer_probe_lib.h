/* SPDX-License-Identifier: Apache-2.0 */
#ifndef TESTS_TOOLCHAINS_SANITIZER_PROBE_LIB_H_
#define TESTS_TOOLCHAINS_SANITIZER_PROBE_LIB_H_

#include <stdint.h>

/* a + b: a signed overflow when it does not fit. */
int32_t sanitizer_probe_add(int32_t a, int32_t b);

/* values[index], unchecked: here nothing knows the array's size, so only ASan sees an overrun. */
int8_t sanitizer_probe_read(const int8_t *values, int32_t index);

#endif /* TESTS_TOOLCHAINS_SANITIZER_PROBE_LIB_H_ */
