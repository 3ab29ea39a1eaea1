/* SPDX-License-Identifier: Apache-2.0 */
/* SignalFilterBank: accumulates a power spectrum into triangular filter bank channels. */
#ifndef OPBRIDGE_SIGNAL_FILTER_BANK_H_
#define OPBRIDGE_SIGNAL_FILTER_BANK_H_

#include <stdint.h>

/* Returned when a band reaches outside the spectrum or its weight table. */
#define OPBRIDGE_SIGNAL_FILTER_BANK_BAD_BAND ((int32_t)1)

/*
 * Band b (0 <= b <= num_channels) covers spectrum[channel_frequency_starts[b] + k]
 * for 0 <= k < channel_widths[b], with filter weights from index
 * channel_weight_starts[b]. Output channel c is the weighted sum over band c + 1
 * (rising edge, `weights`) plus the unweighted sum over band c (falling edge,
 * `unweights`), modulo 2^64. The three channel tables hold num_channels + 1
 * entries. Returns 0, or OPBRIDGE_SIGNAL_FILTER_BANK_BAD_BAND.
 */
int32_t opbridge_signal_filter_bank(const uint32_t *spectrum, int32_t spectrum_length, const int16_t *weights,
                                    int32_t weights_length, const int16_t *unweights, int32_t unweights_length,
                                    const int16_t *channel_frequency_starts, const int16_t *channel_weight_starts,
                                    const int16_t *channel_widths, int32_t num_channels, uint64_t *output);

/*
 * The same channels from tables merged at conversion time (filter_bank/emit_c.py): channel c is the
 * dot product of spectrum[starts[c] + k], 0 <= k < widths[c], with the next widths[c] entries of
 * `weights` (each channel's run follows the previous one's). A merged weight is the sum of a bin's
 * rising- and falling-edge weights; the emitter checks every run against the spectrum.
 */
int32_t opbridge_signal_filter_bank_merged(const uint32_t *spectrum, const uint16_t *starts, const uint16_t *widths,
                                           const uint16_t *weights, int32_t num_channels, uint64_t *output);

#endif /* OPBRIDGE_SIGNAL_FILTER_BANK_H_ */
