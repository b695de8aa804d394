/* One RDNA3 wave on random instructions through the single-step API (umbra/rdna3_step.h).
 *
 * Input: byte 0 = set-up flags (bit 0 wave64, bit 1 --check-waitcnt, bits 2-3 alignment mode),
 * bytes 1-8 = EXEC, the rest = code (seeds: .text of the RDNA3 test kernels). The wave starts
 * with pointers into mapped memory in its registers (global memory, a buffer descriptor,
 * scratch, LDS), so that memory instructions reach past the address checks, and runs at most
 * RDNA3_FUZZ_BUDGET instructions. Any status is fine; a sanitizer report or a crash is not. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "umbra/rdna3_step.h"

#define RDNA3_FUZZ_BUDGET 4096
#define GLOBAL_BASE 0x100000ull
#define GLOBAL_SIZE 0x10000ull
#define SCRATCH_BASE 0x200000ull
#define SCRATCH_PER_LANE 256u
#define HEADER 9u

static void set_up_registers(umb_rdna3_stepper *s, unsigned wave)
{
    umb_rdna3_step_set_sgpr(s, 0, (uint32_t)GLOBAL_BASE);          /* s[0:1]: a global pointer */
    umb_rdna3_step_set_sgpr(s, 1, 0);
    umb_rdna3_step_set_sgpr(s, 4, (uint32_t)GLOBAL_BASE);          /* s[4:7]: a raw buffer */
    umb_rdna3_step_set_sgpr(s, 5, 0);
    umb_rdna3_step_set_sgpr(s, 6, (uint32_t)GLOBAL_SIZE);
    umb_rdna3_step_set_sgpr(s, 7, 0x31014fac);                     /* dst_sel xyzw, 32-bit format */
    umb_rdna3_step_set_sgpr(s, 8, 64);
    umb_rdna3_step_set_m0(s, 0xffffffffu);
    for (unsigned lane = 0; lane < wave; lane++) {
        umb_rdna3_step_set_vgpr(s, 0, lane, lane * 4);               /* v0: byte offset per lane */
        umb_rdna3_step_set_vgpr(s, 1, lane, (uint32_t)GLOBAL_BASE + lane * 8);   /* v[1:2]: address */
        umb_rdna3_step_set_vgpr(s, 2, lane, 0);
        umb_rdna3_step_set_vgpr(s, 3, lane, lane);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER + 4) return 0;
    uint8_t flags = data[0];
    uint64_t exec = 0;
    for (int i = 0; i < 8; i++) exec |= (uint64_t)data[1 + i] << (8 * i);
    unsigned wave = (flags & 1) ? 64 : 32;
    size_t code_bytes = (size - HEADER) & ~(size_t)3;
    umb_device *dev = fuzz_device(0);
    if (!dev) return 0;
    umb_rdna3_stepper *s = NULL;
    if (umb_mem_map(dev, GLOBAL_BASE, GLOBAL_SIZE) == UMB_OK &&
        umb_mem_map(dev, SCRATCH_BASE, (uint64_t)SCRATCH_PER_LANE * 64) == UMB_OK &&
        umb_rdna3_step_create(dev, wave, &s) == UMB_OK &&
        umb_rdna3_step_load(s, data + HEADER, code_bytes) == UMB_OK) {
        umb_rdna3_step_set_check_waitcnt(s, flags & 2);
        umb_rdna3_step_set_alignment_mode(s, (flags >> 2) & 3);
        umb_rdna3_step_set_scratch(s, SCRATCH_BASE, SCRATCH_PER_LANE);
        umb_rdna3_step_set_lds_size(s, 65536);
        set_up_registers(s, wave);
        if (exec) umb_rdna3_step_set_exec(s, exec);
        uint64_t executed = 0;
        umb_rdna3_step_run(s, RDNA3_FUZZ_BUDGET, &executed);
        umb_rdna3_step_error(s);
        if (executed > RDNA3_FUZZ_BUDGET) abort();
    }
    if (s) umb_rdna3_step_destroy(s);
    umb_device_destroy(dev);
    return 0;
}
