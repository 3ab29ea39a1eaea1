/* SPDX-License-Identifier: Apache-2.0 */
/* SignalEnergy, bit-exact with TFLM's SpectrumToEnergy. */
#include "opbridge_signal_energy.h"

int32_t opbridge_signal_energy(const int16_t *spectrum, int32_t start_index, int32_t end_index, int32_t bin_count,
                               uint32_t *output) {
  int32_t i;
  if (start_index < 0 || end_index < start_index || end_index > bin_count) {
    return 1;
  }
  for (i = 0; i < bin_count; ++i) {
    const int32_t real = spectrum[2 * i];
    const int32_t imag = spectrum[2 * i + 1];
    /* Each square fits int32; their sum may reach 2^31, so add as uint32
     * (TFLM's int32 sum wraps to the same bits). Bins outside the range are
     * zeroed so the output does not depend on what the buffer held. */
    output[i] = (i >= start_index && i < end_index) ? (uint32_t)(real * real) + (uint32_t)(imag * imag) : 0u;
  }
  return 0;
}
