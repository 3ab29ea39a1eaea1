/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Status codes shared by opbridge's kernels and emitted modules.
 * 0 is success; module and kernel errors are below 1000; 1000..1999 are
 * reserved for custom operators.
 */
#ifndef OPBRIDGE_KERNELS_STATUS_H_
#define OPBRIDGE_KERNELS_STATUS_H_

#include <stdint.h>

#define OPBRIDGE_STATUS_OK 0
#define OPBRIDGE_STATUS_INVALID_ARGUMENT 1   /* a NULL pointer or an impossible parameter */
#define OPBRIDGE_STATUS_UNSUPPORTED 2        /* parameters this kernel does not handle */
#define OPBRIDGE_STATUS_ARENA_TOO_SMALL 3    /* a caller-supplied arena below the planned size */
#define OPBRIDGE_STATUS_NOT_INITIALIZED 4    /* run before init */
#define OPBRIDGE_STATUS_CUSTOM_FIRST 1000    /* first status reserved for custom operators */
#define OPBRIDGE_STATUS_CUSTOM_LAST 1999     /* last status reserved for custom operators */

#endif /* OPBRIDGE_KERNELS_STATUS_H_ */
