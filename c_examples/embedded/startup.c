/* Minimal Cortex-M4F startup for QEMU mps2-an386: vector table, FPU on, then newlib's
 * semihosting C runtime (rdimon), which zeroes .bss, copies nothing (RAM-loaded image) and
 * calls main. */
#include <stdint.h>

extern void _start(void);
extern uint32_t __stack_top;

void Reset_Handler(void) {
    /* CPACR: full access to CP10/CP11 (the FPU), required by the hard-float ABI. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm volatile("dsb\n isb");
    _start();
    for (;;) {
    }
}

static void Default_Handler(void) {
    for (;;) {
    }
}

/* The Cortex-M vector table: initial stack pointer, then handlers. */
struct VectorTable {
    uint32_t *stack;
    void (*handlers[15])(void);
};

__attribute__((section(".vectors"), used)) const struct VectorTable vectors = {
    &__stack_top, {Reset_Handler, Default_Handler, Default_Handler}};
