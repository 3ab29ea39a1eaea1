/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counts the instructions of micro_speech's audio front end (the frontend
 * module of examples/micro_speech) over one 1 s clip: 49 frames of 30 ms,
 * 20 ms apart, as the main job runs them. Run by cycles.py under
 * qemu-system-arm -icount shift=5 in a folder holding the clip as raw
 * little-endian int16 samples (frontend_clip.raw, read by semihosting): the
 * front end's work depends on the audio (the FFT's scale, the noise
 * estimate), so it is timed on real speech, not on zeros.
 *
 * Prints instructions_run= (all 49 frontend_run calls), instructions_empty=
 * (one empty timed region) and frames=. With TIME_NODES, the program links
 * the module built with OPBRIDGE_TIME_NODES and also prints each node's
 * instructions summed over the 49 frames ("node=<index> <op type> <count>").
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "frontend.h"
#include "platforms/boards/common/opbridge_board_timer.h"
#include "tests/benchmarks/benchmark_timing.h"

#define SAMPLE_COUNT 16000 /* 1 s at 16 kHz */
#define WINDOW_SAMPLES 480 /* 30 ms */
#define STRIDE_SAMPLES 320 /* 20 ms */
#define FRAMES 49
#define CLIP_PATH "frontend_clip.raw"

static int16_t audio[SAMPLE_COUNT];

int main(void) {
  FILE *clip = fopen(CLIP_PATH, "rb");
  if (clip == NULL) {
    printf("cannot open %s\n", CLIP_PATH);
    return 1;
  }
  const size_t count = fread(audio, sizeof(audio[0]), SAMPLE_COUNT, clip);
  fclose(clip);
  if (count != SAMPLE_COUNT) {
    printf("%s holds %lu samples, expected %d\n", CLIP_PATH, (unsigned long)count, SAMPLE_COUNT);
    return 1;
  }
  frontend_context ctx;
  if (frontend_init(&ctx, NULL, 0) != 0 || ctx.inputs[0].bytes != WINDOW_SAMPLES * sizeof(int16_t)) {
    printf("init failed, or the module's input is not 480 samples\n");
    return 1;
  }
  opbridge_board_timer_start();
  const uint64_t empty_start = opbridge_board_timer_ticks();
  const uint64_t empty_end = opbridge_board_timer_ticks();
  uint64_t ticks = 0;
  for (int frame = 0; frame < FRAMES; ++frame) {
    memcpy(ctx.inputs[0].data, audio + frame * STRIDE_SAMPLES, WINDOW_SAMPLES * sizeof(int16_t));
    const uint64_t start = opbridge_board_timer_ticks();
    const int32_t status = frontend_run(&ctx);
    ticks += opbridge_board_timer_ticks() - start;
    if (status != 0) {
      printf("run failed: %ld\n", (long)status);
      return 1;
    }
  }
  opbridge_board_timer_stop();
  benchmark_print_u64("instructions_run=", opbridge_board_instructions(ticks));
  benchmark_print_u64("instructions_empty=", opbridge_board_instructions(empty_end - empty_start));
  printf("frames=%d\n", FRAMES);
#ifdef TIME_NODES
  benchmark_print_nodes();
#endif
  return 0;
}
