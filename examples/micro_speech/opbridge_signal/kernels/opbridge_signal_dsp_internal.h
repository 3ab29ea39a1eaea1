/* SPDX-License-Identifier: Apache-2.0 */
/* The Signal kernels' DSP (Cortex-M4) loops, one file each (opbridge_signal_<op>_dsp.c), compiled
 * everywhere and empty but where cc/kernels/opbridge_kernel_variant.h selects OPBRIDGE_KERNELS_DSP. Not
 * part of the kernels' API: each portable kernel calls its loop. (The RFFT's variants are declared in
 * opbridge_signal_rfft_internal.h.) */
#ifndef OPBRIDGE_SIGNAL_DSP_INTERNAL_H_
#define OPBRIDGE_SIGNAL_DSP_INTERNAL_H_

#include <stdint.h>

#include "opbridge_signal_integer.h"

#if OPBRIDGE_KERNELS_DSP
/* The DSP variant's loop over one run of `count` samples
 * (opbridge_signal_window_dsp.c, built for the Cortex-M4), which opbridge_signal_window calls. */
void opbridge_signal_window_dsp(const int16_t *input, const int16_t *weights, int32_t count, int32_t shift,
                                int16_t *output);

/* The DSP variant's passes (opbridge_signal_fft_auto_scale_dsp.c,
 * built for the Cortex-M4), which opbridge_signal_fft_auto_scale calls. The first returns the OR
 * of the samples' |x| as 16-bit patterns (0x8000 set where a sample is -32768), the second stores
 * input[i] << bits wrapped to int16 (0 <= bits <= 14; output may be input). */
uint32_t opbridge_signal_fft_auto_scale_magnitudes_dsp(const int16_t *input, int32_t count);
void opbridge_signal_fft_auto_scale_shift_dsp(const int16_t *input, int32_t count, int32_t bits, int16_t *output);

/* The DSP variant (opbridge_signal_energy_dsp.c, built for the
 * Cortex-M4), which opbridge_signal_energy calls once the range is checked. */
void opbridge_signal_energy_dsp(const int16_t *spectrum, int32_t start_index, int32_t end_index, int32_t bin_count,
                                uint32_t *output);
#endif

#endif /* OPBRIDGE_SIGNAL_DSP_INTERNAL_H_ */
