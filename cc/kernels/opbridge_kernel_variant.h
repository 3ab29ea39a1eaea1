/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which instruction-set variant of the kernel forms this build compiles
 * (docs/kernels.md). Each form has a portable C99 file and, where it pays,
 * a file per instruction set; every file is compiled everywhere and keeps
 * only the variant this header selects, so an emitted module folder builds
 * with any compiler and flags, in Bazel, CMake or an IDE.
 *
 *   OPBRIDGE_KERNELS_HELIUM   1 on cores with integer Helium (MVE), e.g. Cortex-M55
 *   OPBRIDGE_KERNELS_DSP      1 on 32-bit Arm cores with the DSP extension and no Helium,
 *                             e.g. Cortex-M4: the C99 code with SMLAD dot products
 *   OPBRIDGE_KERNELS_PORTABLE 1 otherwise (x86_64, aarch64)
 *
 * The target's compiler flags decide (-mcpu=cortex-m55 defines
 * __ARM_FEATURE_MVE); defining OPBRIDGE_FORCE_PORTABLE_KERNELS (Bazel:
 * --//cc/kernels:portable) selects the portable variant on any core, for
 * debugging and for measuring the portable figure.
 */
#ifndef OPBRIDGE_KERNEL_VARIANT_H_
#define OPBRIDGE_KERNEL_VARIANT_H_

#if !defined(OPBRIDGE_FORCE_PORTABLE_KERNELS) && defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#define OPBRIDGE_KERNELS_HELIUM 1
#define OPBRIDGE_KERNELS_DSP 0
#define OPBRIDGE_KERNELS_PORTABLE 0
#elif !defined(OPBRIDGE_FORCE_PORTABLE_KERNELS) && defined(__ARM_FEATURE_DSP) && !defined(__aarch64__)
#define OPBRIDGE_KERNELS_HELIUM 0
#define OPBRIDGE_KERNELS_DSP 1
#define OPBRIDGE_KERNELS_PORTABLE 0
#else
#define OPBRIDGE_KERNELS_HELIUM 0
#define OPBRIDGE_KERNELS_DSP 0
#define OPBRIDGE_KERNELS_PORTABLE 1
#endif

/* 1 where the DSP variant's assembly builds (Thumb-2, little-endian): emitted modules then write
 * the filters of opbridge_fully_connected_s8_folded_dsp_layout in that assembly's layout
 * (docs/kernels.md, "The DSP variant"). */
#if OPBRIDGE_KERNELS_DSP && defined(__thumb2__) && !defined(__ARM_BIG_ENDIAN)
#define OPBRIDGE_DSP_WEIGHT_LAYOUT 1
#else
#define OPBRIDGE_DSP_WEIGHT_LAYOUT 0
#endif

/* 1 in the Helium variant: emitted modules then write the filters of
 * opbridge_conv_2d_s8_folded_pairs in its pairs layout (opbridge_kernels_folded_s8.h). */
#define OPBRIDGE_HELIUM_WEIGHT_LAYOUT OPBRIDGE_KERNELS_HELIUM

/* The variant's name, for programs that report which one they run. */
#if OPBRIDGE_KERNELS_HELIUM
#define OPBRIDGE_KERNEL_VARIANT_NAME "helium"
#elif OPBRIDGE_KERNELS_DSP
#define OPBRIDGE_KERNEL_VARIANT_NAME "dsp"
#else
#define OPBRIDGE_KERNEL_VARIANT_NAME "portable"
#endif

/* Code that runs rarely or once per call (tails, fallbacks, set-up) or for a small share of any
 * model's time, optimised for size whatever the build's level: it is much of the flash a module
 * pays for and little of its time. */
#if defined(__GNUC__) && !defined(__clang__)
#define OPBRIDGE_OPTIMIZE_FOR_SIZE __attribute__((optimize("Os")))
#else
#define OPBRIDGE_OPTIMIZE_FOR_SIZE
#endif

#endif /* OPBRIDGE_KERNEL_VARIANT_H_ */
