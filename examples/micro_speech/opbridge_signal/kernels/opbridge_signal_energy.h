/* SPDX-License-Identifier: Apache-2.0 */
/* TFLM's SignalEnergy: squared magnitudes of a complex int16 spectrum,
 * bit-exact with TFLM. */
#ifndef OPBRIDGE_SIGNAL_ENERGY_H_
#define OPBRIDGE_SIGNAL_ENERGY_H_

#include <stdint.h>

/* output[i] = re[i]^2 + im[i]^2 for start_index <= i < end_index, where
 * spectrum holds bin_count (re, im) pairs; the other bins are set to 0
 * (TFLM leaves them unwritten). Returns nonzero on an invalid range. */
int32_t opbridge_signal_energy(const int16_t *spectrum, int32_t start_index, int32_t end_index, int32_t bin_count,
                               uint32_t *output);

#endif /* OPBRIDGE_SIGNAL_ENERGY_H_ */
