/* Helpers shared by the int8 kernels' implementations (not part of the API). */
#ifndef OPBRIDGE_KERNELS_INTERNAL_H_
#define OPBRIDGE_KERNELS_INTERNAL_H_

#include <stdint.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernels_s8.h"

static inline int8_t opbridge_clamp_s8(int32_t value, int32_t minimum, int32_t maximum) {
  if (value < minimum) {
    value = minimum;
  }
  if (value > maximum) {
    value = maximum;
  }
  return (int8_t)value;
}

/* acc rescaled by channel `channel`'s multiplier, plus the output offset, clamped. */
static inline int8_t opbridge_requantize_channel_s8(int32_t acc, const opbridge_requantization *requantization,
                                            int32_t channel, int32_t output_offset, int32_t activation_min,
                                            int32_t activation_max) {
  const int32_t index = requantization->count == 1 ? 0 : channel;
  const int32_t scaled = opbridge_multiply_by_quantized_multiplier(acc, requantization->multipliers[index],
                                                                   requantization->shifts[index]);
  return opbridge_clamp_s8(scaled + output_offset, activation_min, activation_max);
}

static inline int32_t opbridge_dims_valid(const opbridge_dims *dims) {
  return dims->batches > 0 && dims->height > 0 && dims->width > 0 && dims->channels > 0;
}

#endif /* OPBRIDGE_KERNELS_INTERNAL_H_ */
