/* SPDX-License-Identifier: Apache-2.0 */
/*
 * FULLY_CONNECTED's folded form at every alignment of its input and filter: the Helium variant
 * reads word-aligned rows with VLDM and takes byte loads otherwise (emitted modules align their
 * constants, so only a caller of the kernel API with its own buffers reaches the second path).
 * Both must equal a scalar computation of the same arithmetic (the fixed-point helpers, checked
 * in opbridge_fixed_point_test.c), on drawn shapes and stages, on every platform; so must the
 * _per_tensor entry point, on shared stages and (its units path on Helium) per-channel ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/kernels/opbridge_fixed_point.h"
#include "cc/kernels/opbridge_kernels_folded_s8.h"

#define MAX_DEPTH 208
#define MAX_UNITS 72

static int failures = 0;
static uint32_t state = 12345u;

static uint32_t next_random(void) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

static int8_t input_storage[MAX_DEPTH + 16] __attribute__((aligned(16)));
static int8_t filter_storage[MAX_UNITS * MAX_DEPTH + 16] __attribute__((aligned(16)));
static int8_t input_values[MAX_DEPTH];
static int8_t filter_values[MAX_UNITS * MAX_DEPTH];
static int32_t folded_bias[MAX_UNITS];
static int32_t multipliers[MAX_UNITS];
static int32_t shifts[MAX_UNITS];

/* What every unit's output must be: the folded bias plus the dot product, rescaled, offset and
 * clamped, one unit at a time in plain C. */
static int8_t expected_output(const opbridge_folded_requantization *rq, int32_t depth, int32_t unit) {
  int32_t acc = rq->folded_bias[unit];
  for (int32_t i = 0; i < depth; ++i) {
    acc += (int32_t)input_values[i] * (int32_t)filter_values[unit * depth + i];
  }
  const int32_t index = rq->per_channel ? unit : 0;
  int32_t value = opbridge_multiply_by_quantized_multiplier(acc, rq->multipliers[index], rq->shifts[index]);
  value += rq->output_offset;
  value = value < rq->activation_min ? rq->activation_min : value;
  value = value > rq->activation_max ? rq->activation_max : value;
  return (int8_t)value;
}

static void check_case(int32_t depth, int32_t units, int32_t per_channel) {
  for (int32_t i = 0; i < depth; ++i) {
    input_values[i] = (int8_t)(next_random() & 0xFF);
  }
  for (int32_t i = 0; i < units * depth; ++i) {
    filter_values[i] = (int8_t)((int32_t)(next_random() % 255u) - 127);
  }
  for (int32_t u = 0; u < units; ++u) {
    folded_bias[u] = (int32_t)(next_random() % 2000001u) - 1000000;
    multipliers[u] = (int32_t)(0x40000000u | (next_random() & 0x3FFFFFFFu));
    shifts[u] = (int32_t)(next_random() % 16u) - 13; /* -13 .. 2: left shifts too */
  }
  const int32_t clamped = (int32_t)(next_random() % 2u);
  opbridge_fully_connected_s8_folded_params params;
  params.batches = 1;
  params.input_depth = depth;
  params.output_depth = units;
  params.requantization.folded_bias = folded_bias;
  params.requantization.multipliers = multipliers;
  params.requantization.shifts = shifts;
  params.requantization.per_channel = per_channel;
  params.requantization.output_offset = (int32_t)(next_random() % 41u) - 20;
  params.requantization.activation_min = clamped ? -100 : -128;
  params.requantization.activation_max = clamped ? 50 : 127;
  for (int32_t input_offset = 0; input_offset < 4; ++input_offset) {
    for (int32_t filter_offset = 0; filter_offset < 4; ++filter_offset) {
      int8_t *input = input_storage + input_offset;
      int8_t *filter = filter_storage + filter_offset;
      memcpy(input, input_values, (size_t)depth);
      memcpy(filter, filter_values, (size_t)(units * depth));
      for (int32_t per_tensor = 0; per_tensor < 2; ++per_tensor) {
        int8_t output[MAX_UNITS];
        const int32_t status = per_tensor
                                   ? opbridge_fully_connected_s8_folded_per_tensor(&params, input, filter, output)
                                   : opbridge_fully_connected_s8_folded(&params, input, filter, output);
        for (int32_t u = 0; u < units; ++u) {
          const int8_t expected = expected_output(&params.requantization, depth, u);
          if ((status != 0 || output[u] != expected) && failures++ < 10) {
            printf("FAIL%s depth %ld units %ld per_channel %ld input +%ld filter +%ld: unit %ld is %d, expected %d "
                   "(status %ld)\n",
                   per_tensor ? " (_per_tensor)" : "", (long)depth, (long)units, (long)per_channel, (long)input_offset,
                   (long)filter_offset, (long)u, output[u], expected, (long)status);
          }
        }
      }
    }
  }
}

int main(void) {
  /* Rows of whole 64-byte chunks, chunks and 1-3 blocks, only 1-3 blocks, and a depth that is not
   * a multiple of 16; groups of four units, a rest, and more groups than one per-channel span. */
  static const int32_t depths[] = {16, 32, 48, 64, 80, 112, 128, 208, 40};
  static const int32_t unit_counts[] = {4, 8, 13, 68};
  for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); ++d) {
    for (size_t u = 0; u < sizeof(unit_counts) / sizeof(unit_counts[0]); ++u) {
      for (int32_t per_channel = 0; per_channel < 2; ++per_channel) {
        check_case(depths[d], unit_counts[u], per_channel);
      }
    }
  }
  if (failures != 0) {
    printf("%d failures\n", failures);
    return EXIT_FAILURE;
  }
  printf("fully connected at every alignment: all checks passed\n");
  return EXIT_SUCCESS;
}
