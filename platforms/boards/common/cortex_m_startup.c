/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Start-up code and fault reporting for the emulated Cortex-M boards.
 *
 * Reset: enable the FPU (and, on the M55, Helium/MVE, which shares the
 * CP10/CP11 enable bits), copy .data, clear .bss, open the semihosting
 * console, run C/C++ constructors, then exit(main()). newlib's rdimon
 * exit() reports the status to QEMU through semihosting, so the program's
 * exit status becomes QEMU's exit status.
 *
 * Faults: every fault handler prints what faulted (fault status registers
 * and the stacked PC) on the semihosting console and exits QEMU with
 * status OPBRIDGE_FAULT_EXIT_STATUS, so a faulting test fails instead of
 * hanging.
 */
#include <stdint.h>
#include <stdlib.h>

#define OPBRIDGE_FAULT_EXIT_STATUS 134

/* Semihosting operations (Arm "Semihosting for AArch32 and AArch64"). */
#define SEMIHOST_SYS_WRITE0 0x04
#define SEMIHOST_SYS_EXIT_EXTENDED 0x20
#define SEMIHOST_ADP_STOPPED_APPLICATION_EXIT 0x20026

/* System Control Block registers (Armv7-M / Armv8-M). */
#define SCB_CCR (*(volatile uint32_t *)0xE000ED14u)
#define SCB_SHCSR (*(volatile uint32_t *)0xE000ED24u)
#define SCB_CFSR (*(volatile uint32_t *)0xE000ED28u)
#define SCB_HFSR (*(volatile uint32_t *)0xE000ED2Cu)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define SCB_BFAR (*(volatile uint32_t *)0xE000ED38u)
#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)

#define CCR_DIV_0_TRP (1u << 4)
#define SHCSR_MEMFAULTENA (1u << 16)
#define SHCSR_BUSFAULTENA (1u << 17)
#define SHCSR_USGFAULTENA (1u << 18)
#define CPACR_CP10_CP11_FULL_ACCESS (0xFu << 20)

/* Symbols from the board's linker script. */
extern uint32_t __data_load_start__;
extern uint32_t __data_start__;
extern uint32_t __data_end__;
extern uint32_t __bss_start__;
extern uint32_t __bss_end__;
extern uint32_t __stack_top__;

extern int main(void);
extern void initialise_monitor_handles(void);
extern void __libc_init_array(void);

void opbridge_reset_handler(void);
void opbridge_fault_handler(void);
void opbridge_default_handler(void);
/* A program that enables SysTick defines this (benchmarks count timer wraps). */
void opbridge_board_systick_handler(void) __attribute__((weak, alias("opbridge_default_handler")));

static int semihost_call(int operation, const void *argument) {
  register int r0 __asm__("r0") = operation;
  register const void *r1 __asm__("r1") = argument;
  __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static void semihost_write(const char *text) { semihost_call(SEMIHOST_SYS_WRITE0, text); }

static void semihost_write_hex(const char *label, uint32_t value) {
  char text[24];
  const char *digits = "0123456789abcdef";
  int length = 0;
  while (*label != '\0' && length < 10) {
    text[length++] = *label++;
  }
  text[length++] = '0';
  text[length++] = 'x';
  for (int shift = 28; shift >= 0; shift -= 4) {
    text[length++] = digits[(value >> shift) & 0xFu];
  }
  text[length++] = '\0';
  semihost_write(text);
}

static void semihost_exit(int status) {
  const uint32_t block[2] = {SEMIHOST_ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
  semihost_call(SEMIHOST_SYS_EXIT_EXTENDED, block);
  for (;;) {
  }
}

/* Called from the naked fault entry with the stacked exception frame. */
void opbridge_report_fault(const uint32_t *frame, uint32_t exc_return);
void opbridge_report_fault(const uint32_t *frame, uint32_t exc_return) {
  uint32_t active_exception;
  __asm__ volatile("mrs %0, ipsr" : "=r"(active_exception));
  semihost_write("\n*** opbridge board: FAULT (exception ");
  semihost_write_hex("", active_exception & 0x1FFu);
  semihost_write(") ");
  semihost_write_hex("CFSR=", SCB_CFSR);
  semihost_write_hex(" HFSR=", SCB_HFSR);
  semihost_write_hex(" MMFAR=", SCB_MMFAR);
  semihost_write_hex(" BFAR=", SCB_BFAR);
  semihost_write_hex(" PC=", frame[6]);
  semihost_write_hex(" LR=", frame[5]);
  semihost_write_hex(" EXC_RETURN=", exc_return);
  semihost_write("\n");
  semihost_exit(OPBRIDGE_FAULT_EXIT_STATUS);
}

/* Picks the stack the faulting code used and passes its frame on. */
__attribute__((naked)) void opbridge_fault_handler(void) {
  __asm__ volatile(
      "tst lr, #4\n"
      "ite eq\n"
      "mrseq r0, msp\n"
      "mrsne r0, psp\n"
      "mov r1, lr\n"
      "b opbridge_report_fault\n");
}

void opbridge_default_handler(void) {
  semihost_write("\n*** opbridge board: unexpected interrupt\n");
  semihost_exit(OPBRIDGE_FAULT_EXIT_STATUS);
}

/* -nostartfiles drops crti.o/crtn.o, which define these for newlib's
 * __libc_init_array/__libc_fini_array; constructors run from .init_array. */
void _init(void);
void _fini(void);
void _init(void) {}
void _fini(void) {}

void opbridge_reset_handler(void) {
  SCB_CPACR |= CPACR_CP10_CP11_FULL_ACCESS;
  __asm__ volatile("dsb\nisb" ::: "memory");
  SCB_SHCSR |= SHCSR_MEMFAULTENA | SHCSR_BUSFAULTENA | SHCSR_USGFAULTENA;
  SCB_CCR |= CCR_DIV_0_TRP;

  const uint32_t *source = &__data_load_start__;
  for (uint32_t *destination = &__data_start__; destination < &__data_end__;) {
    *destination++ = *source++;
  }
  for (uint32_t *destination = &__bss_start__; destination < &__bss_end__;) {
    *destination++ = 0;
  }

  initialise_monitor_handles();
  __libc_init_array();
  exit(main());
}

typedef void (*vector_entry)(void);

/* The 16 system exceptions; the boards' peripheral interrupts stay off. */
__attribute__((section(".vectors"), used)) const vector_entry opbridge_vector_table[16] = {
    (vector_entry)(uintptr_t)&__stack_top__, /* initial main stack pointer */
    opbridge_reset_handler,
    opbridge_default_handler, /* NMI */
    opbridge_fault_handler,   /* HardFault */
    opbridge_fault_handler,   /* MemManage */
    opbridge_fault_handler,   /* BusFault */
    opbridge_fault_handler,   /* UsageFault */
    opbridge_fault_handler,   /* SecureFault (Armv8-M) */
    0,
    0,
    0,
    opbridge_default_handler, /* SVCall */
    opbridge_default_handler, /* DebugMonitor */
    0,
    opbridge_default_handler, /* PendSV */
    opbridge_board_systick_handler, /* SysTick */
};
