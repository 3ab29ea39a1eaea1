/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Undefined behaviour on request, in a library of its own: sanitizer_probe_test.py checks that
 * sanitized_test (toolchains/emulated_test.bzl) builds a program's dependencies with the
 * sanitizers too, not only the program.
 */
#include "tests/toolchains/sanitizer_probe_lib.h"

int32_t sanitizer_probe_add(int32_t a, int32_t b) { return a + b; }

int8_t sanitizer_probe_read(const int8_t *values, int32_t index) { return values[index]; }
