/* SPDX-License-Identifier: Apache-2.0 */
/* micro_speech on a microcontroller: TFLM's audio front end and its speech
 * classifier, both compiled by opbridge, in one C program.
 *
 * Reads 1 s of 16 kHz mono int16 audio (raw little-endian samples) from
 * the file micro_speech_clip.raw in the working directory (semihosting on
 * the emulated Cortex-M boards, stdio on Linux), computes 49 frames of 40
 * features (30 ms windows, 20 ms stride) with the front end, classifies
 * them, and prints the features, the four scores and the word. On the
 * emulated boards it also prints the instructions the front end (all 49
 * frames) and the classifier took, counted with SysTick (exact when QEMU
 * runs with -icount shift=5; platforms/boards/common/opbridge_board_timer.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "frontend.h"
#include "micro_speech.h"

#ifdef OPBRIDGE_BOARD_CPU_HZ /* an emulated Cortex-M board */
#include "platforms/boards/common/opbridge_board_timer.h"
#define TIMER_START() opbridge_board_timer_start()
#define TIMER_TICKS() opbridge_board_timer_ticks()
#else
#define TIMER_START() ((void)0)
#define TIMER_TICKS() ((uint64_t)0)
#endif

#define SAMPLE_RATE 16000
#define WINDOW_SAMPLES 480 /* 30 ms */
#define STRIDE_SAMPLES 320 /* 20 ms */
#define FRAMES 49
#define FEATURES_PER_FRAME 40
#define CLIP_PATH "micro_speech_clip.raw"

static const char *const kLabels[] = {"silence", "unknown", "yes", "no"};

static int16_t audio[SAMPLE_RATE];
static int8_t features[FRAMES * FEATURES_PER_FRAME];

static int read_clip(void) {
  FILE *file = fopen(CLIP_PATH, "rb");
  if (file == NULL) {
    printf("error: cannot open %s\n", CLIP_PATH);
    return 1;
  }
  const size_t count = fread(audio, sizeof(audio[0]), SAMPLE_RATE, file);
  fclose(file);
  if (count != SAMPLE_RATE) {
    printf("error: %s holds %lu samples, expected %d\n", CLIP_PATH, (unsigned long)count, SAMPLE_RATE);
    return 1;
  }
  return 0;
}

static int check(const char *what, int32_t status) {
  if (status != 0) {
    printf("error: %s returned status %ld\n", what, (long)status);
  }
  return status != 0;
}

int main(void) {
  frontend_context frontend;
  micro_speech_context classifier;
  if (read_clip() != 0) {
    return 1;
  }
  /* Init resets the front end's state (its noise estimate) for a new clip. */
  if (check("frontend_init", frontend_init(&frontend, NULL, 0)) ||
      check("micro_speech_init", micro_speech_init(&classifier, NULL, 0))) {
    return 1;
  }
  if (frontend.inputs[0].bytes != WINDOW_SAMPLES * sizeof(int16_t) ||
      frontend.outputs[0].bytes != FEATURES_PER_FRAME || classifier.inputs[0].bytes != sizeof(features)) {
    printf("error: the modules' shapes are not those of micro_speech\n");
    return 1;
  }
  uint64_t frontend_ticks = 0;
  TIMER_START();
  for (int frame = 0; frame < FRAMES; ++frame) {
    memcpy(frontend.inputs[0].data, audio + frame * STRIDE_SAMPLES, WINDOW_SAMPLES * sizeof(int16_t));
    const uint64_t start = TIMER_TICKS();
    const int32_t status = frontend_run(&frontend);
    frontend_ticks += TIMER_TICKS() - start;
    if (check("frontend_run", status)) {
      return 1;
    }
    memcpy(features + frame * FEATURES_PER_FRAME, frontend.outputs[0].data, FEATURES_PER_FRAME);
  }
  memcpy(classifier.inputs[0].data, features, sizeof(features));
  const uint64_t classifier_start = TIMER_TICKS();
  const int32_t classifier_status = micro_speech_run(&classifier);
  const uint64_t classifier_ticks = TIMER_TICKS() - classifier_start;
  if (check("micro_speech_run", classifier_status)) {
    return 1;
  }
  for (int frame = 0; frame < FRAMES; ++frame) {
    printf("features %2d:", frame);
    for (int i = 0; i < FEATURES_PER_FRAME; ++i) {
      printf(" %d", features[frame * FEATURES_PER_FRAME + i]);
    }
    printf("\n");
  }
  const int8_t *scores = (const int8_t *)classifier.outputs[0].data;
  int best = 0;
  printf("scores:");
  for (int i = 0; i < 4; ++i) {
    printf(" %s=%d", kLabels[i], scores[i]);
    if (scores[i] > scores[best]) {
      best = i;
    }
  }
  printf("\nword: %s\n", kLabels[best]);
  printf("arena: front end %lu bytes, classifier %lu bytes\n", (unsigned long)FRONTEND_ARENA_BYTES,
         (unsigned long)MICRO_SPEECH_ARENA_BYTES);
#ifdef OPBRIDGE_BOARD_CPU_HZ
  /* Below 2^32 for one clip; newlib-nano's printf has no %llu. */
  printf("instructions: front end %lu, classifier %lu\n", (unsigned long)opbridge_board_instructions(frontend_ticks),
         (unsigned long)opbridge_board_instructions(classifier_ticks));
#else
  (void)frontend_ticks;
  (void)classifier_ticks;
#endif
  return 0;
}
