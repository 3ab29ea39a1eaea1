/*
 * The platform tour's program: requantizes a fixed, pseudo-random set of
 * int32 accumulators to int8 the way TFLite's quantized kernels do (a
 * fixed-point multiplier, a shift, an output zero point, saturation) and
 * prints a checksum of the results. The same source is built for every
 * platform; identical checksums mean bit-exact results everywhere.
 */
#include <stdint.h>
#include <stdio.h>

#include "cc/kernels/opbridge_fixed_point.h"

#define ACCUMULATOR_COUNT 4096

static uint32_t random_state = 0x12345678u;

static uint32_t next_random(void) { /* xorshift32: the same sequence everywhere */
  random_state ^= random_state << 13;
  random_state ^= random_state >> 17;
  random_state ^= random_state << 5;
  return random_state;
}

static int8_t requantize(int32_t accumulator, int32_t multiplier, int32_t shift,
                         int32_t zero_point) {
  int32_t value = opbridge_multiply_by_quantized_multiplier(accumulator, multiplier, shift);
  value += zero_point;
  if (value < -128) {
    value = -128;
  }
  if (value > 127) {
    value = 127;
  }
  return (int8_t)value;
}

int main(void) {
  const int32_t multipliers[] = {1073741824, 1518500250, 2004318071};
  const int32_t shifts[] = {-9, -7, 1};
  const int32_t zero_points[] = {-128, 0, 5};
  uint32_t checksum = 2166136261u; /* FNV-1a over every output byte */
  int8_t first_outputs[8];

  for (int i = 0; i < ACCUMULATOR_COUNT; ++i) {
    const int32_t accumulator = (int32_t)(next_random() % 131071u) - 65535;
    const int variant = i % 3;
    const int8_t output =
        requantize(accumulator, multipliers[variant], shifts[variant], zero_points[variant]);
    if (i < 8) {
      first_outputs[i] = output;
    }
    checksum = (checksum ^ (uint8_t)output) * 16777619u;
  }

  printf("requantized %d int32 accumulators to int8; first outputs:", ACCUMULATOR_COUNT);
  for (int i = 0; i < 8; ++i) {
    printf(" %d", first_outputs[i]);
  }
  printf("\nchecksum=0x%08lx\n", (unsigned long)checksum);
  return 0;
}
