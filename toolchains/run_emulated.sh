#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one test program on an emulated target; its exit status is the test's.
#
#   run_emulated.sh EMULATOR TIMEOUT_SECONDS PROGRAM
#
# EMULATOR is one of:
#   qemu-aarch64  Linux user-mode emulation, libraries from /usr/aarch64-linux-gnu
#   mps3-an547    Cortex-M55 board, semihosting for console and exit status
#   mps2-an386    Cortex-M4 board, semihosting for console and exit status
#
# A program that has not exited after TIMEOUT_SECONDS is killed and the test
# fails with status 124 (a hang). Board faults are reported by the board's
# fault handler (platforms/boards/common/cortex_m_startup.c) with status 134.
set -u

if [[ $# -ne 3 ]]; then
  echo "usage: run_emulated.sh qemu-aarch64|mps3-an547|mps2-an386 TIMEOUT_SECONDS PROGRAM" >&2
  exit 2
fi
emulator=$1 timeout_seconds=$2 program=$3

case "$emulator" in
  qemu-aarch64)
    command=(qemu-aarch64 -L /usr/aarch64-linux-gnu "$program")
    ;;
  mps3-an547 | mps2-an386)
    command=(qemu-system-arm -M "$emulator" -nographic -monitor none -serial null
      -semihosting-config enable=on,target=native -kernel "$program")
    # OPBRIDGE_COUNT_INSTRUCTIONS=1: 32 ns of virtual time per instruction, so that SysTick
    # counts instructions (platforms/boards/common/opbridge_board_timer.h).
    if [[ "${OPBRIDGE_COUNT_INSTRUCTIONS:-0}" == 1 ]]; then
      command+=(-icount shift=5)
    fi
    ;;
  *)
    echo "run_emulated.sh: unknown emulator '$emulator' (expected qemu-aarch64, mps3-an547 or mps2-an386)" >&2
    exit 2
    ;;
esac

if ! command -v "${command[0]}" >/dev/null; then
  echo "run_emulated.sh: ${command[0]} not found; run ./bazelw, which installs the pinned qemu packages" >&2
  exit 2
fi

timeout --kill-after=5 "$timeout_seconds" "${command[@]}"
status=$?
case $status in
  0) ;;
  124 | 137) echo "run_emulated.sh: FAIL: $program did not exit within ${timeout_seconds}s on $emulator (hang?)" >&2 ;;
  134) echo "run_emulated.sh: FAIL: $program faulted on $emulator (see the fault report above)" >&2 ;;
  *) echo "run_emulated.sh: FAIL: $program exited with status $status on $emulator" >&2 ;;
esac
exit $status
