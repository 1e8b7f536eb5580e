/* The cross-platform determinism check on a Cortex-M4F (QEMU mps2-an386, semihosting): runs
 * collide2d's determinism scene (a World of 310 bodies, 300 steps; newlib's heap through the
 * C library's allocator) and prints its hash as 16 hex digits, the line every platform of
 * scripts/determinism.sh must print. collide2d_determinism_hash is in libcollide2d.a built
 * with the clib feature `determinism`; it is not part of the header. */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>

uint64_t collide2d_determinism_hash(uint32_t steps);

/* The C library's allocator asks for alignments above 8 with POSIX's posix_memalign, which
 * newlib for arm-none-eabi lacks; its memalign does the job. */
int posix_memalign(void **out, size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size) {
    void *p = memalign(align, size);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

int main(void) {
    uint64_t h = collide2d_determinism_hash(300);
    if (h == 0) {
        printf("determinism scene failed\n");
        return 1;
    }
    printf("determinism hash %08lx%08lx\n", (unsigned long)(h >> 32), (unsigned long)(h & 0xffffffffu));
    return 0;
}
