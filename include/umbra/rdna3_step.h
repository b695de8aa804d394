/* umbra/rdna3_step.h — run RDNA3 (gfx1100) instructions one wave at a time.
 *
 * A standalone wave on a device: load instruction words (the bytes `llvm-mc-19 -mcpu=gfx1100
 * --show-encoding` prints), set registers and memory, run N instructions or until s_endpgm, read
 * the registers back. Memory instructions use the device memory (umb_mem_map / copy) and the
 * wave's own LDS. Nothing here is global: several steppers may run on several threads, each on
 * its own device.
 *
 *     umb_rdna3_stepper *s;
 *     umb_rdna3_step_create(dev, 32, &s);
 *     static const uint8_t code[] = {0x01, 0x05, 0x00, 0x4a};   // v_add_nc_u32_e32 v0, v1, v2
 *     umb_rdna3_step_load(s, code, sizeof code);
 *     umb_rdna3_step_set_vgpr(s, 1, 0, 40);  umb_rdna3_step_set_vgpr(s, 2, 0, 2);
 *     umb_rdna3_step_run(s, 1, NULL);                           // v0 lane 0 = 42
 */
#ifndef UMBRA_RDNA3_STEP_H
#define UMBRA_RDNA3_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "umbra/device.h"
#include "umbra/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct umb_rdna3_stepper umb_rdna3_stepper;

/* Where umb_rdna3_step_load puts the code unless umb_rdna3_step_load_at names an address. */
#define UMB_RDNA3_STEP_CODE_BASE 0x7f0000000000ull
/* Apertures the stepper reports through src_shared_base / src_private_base (the Linux values). */
#define UMB_RDNA3_STEP_SHARED_BASE 0x0001000000000000ull
#define UMB_RDNA3_STEP_PRIVATE_BASE 0x0002000000000000ull

/* Why a run stopped. */
typedef enum umb_rdna3_step_state {
    UMB_RDNA3_STEP_RUNNING = 0,   /* ran the requested number of instructions */
    UMB_RDNA3_STEP_ENDED,         /* s_endpgm */
    UMB_RDNA3_STEP_FAULTED,       /* see umb_rdna3_step_error */
} umb_rdna3_step_state;

/* A wave of wave_size (32 or 64) lanes on dev. EXEC starts with every lane on, MODE as LLVM
 * sets it for compute kernels (denormals kept, round to nearest even, IEEE, DX10 clamp). */
umb_status umb_rdna3_step_create(umb_device *dev, unsigned wave_size, umb_rdna3_stepper **out);
void umb_rdna3_step_destroy(umb_rdna3_stepper *s);

/* Copy code into device memory (mapping it) at UMB_RDNA3_STEP_CODE_BASE / at addr, and set the PC
 * to its first byte. Replaces earlier code (and forgets its decoded instructions). */
umb_status umb_rdna3_step_load(umb_rdna3_stepper *s, const void *code, size_t bytes);
umb_status umb_rdna3_step_load_at(umb_rdna3_stepper *s, uint64_t addr, const void *code, size_t bytes);

/* Run up to max_insts instructions (stops early at s_endpgm or a fault; s_barrier completes at
 * once since the wave is alone). executed (may be NULL) gets the number retired. Returns UMB_OK
 * unless the wave faulted (then the fault's status; the message is umb_rdna3_step_error). */
umb_status umb_rdna3_step_run(umb_rdna3_stepper *s, uint64_t max_insts, uint64_t *executed);
umb_rdna3_step_state umb_rdna3_step_get_state(const umb_rdna3_stepper *s);
/* The last fault's complete message ("" if none). */
const char *umb_rdna3_step_error(const umb_rdna3_stepper *s);

/* Registers. SGPR numbers are the operand encodings 0..127 (VCC_LO = 106, M0 = 125, EXEC_LO =
 * 126): s[n] for n < 106. Out-of-range numbers are ignored (get returns 0). */
void umb_rdna3_step_set_sgpr(umb_rdna3_stepper *s, unsigned n, uint32_t v);
uint32_t umb_rdna3_step_get_sgpr(const umb_rdna3_stepper *s, unsigned n);
void umb_rdna3_step_set_vgpr(umb_rdna3_stepper *s, unsigned reg, unsigned lane, uint32_t v);
uint32_t umb_rdna3_step_get_vgpr(const umb_rdna3_stepper *s, unsigned reg, unsigned lane);
void umb_rdna3_step_set_exec(umb_rdna3_stepper *s, uint64_t exec);
uint64_t umb_rdna3_step_get_exec(const umb_rdna3_stepper *s);
void umb_rdna3_step_set_vcc(umb_rdna3_stepper *s, uint64_t vcc);
uint64_t umb_rdna3_step_get_vcc(const umb_rdna3_stepper *s);
void umb_rdna3_step_set_scc(umb_rdna3_stepper *s, bool scc);
bool umb_rdna3_step_get_scc(const umb_rdna3_stepper *s);
void umb_rdna3_step_set_m0(umb_rdna3_stepper *s, uint32_t m0);
uint32_t umb_rdna3_step_get_m0(const umb_rdna3_stepper *s);
void umb_rdna3_step_set_pc(umb_rdna3_stepper *s, uint64_t pc);
uint64_t umb_rdna3_step_get_pc(const umb_rdna3_stepper *s);
/* MODE register (FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9]). */
void umb_rdna3_step_set_mode(umb_rdna3_stepper *s, uint32_t mode);
uint32_t umb_rdna3_step_get_mode(const umb_rdna3_stepper *s);
/* FLAT_SCRATCH (the wave's scratch base in device memory; 0 = none) and bytes per lane. */
void umb_rdna3_step_set_scratch(umb_rdna3_stepper *s, uint64_t flat_scratch, uint32_t bytes_per_lane);
/* SH_MEM_CONFIG.alignment_mode 0..3 (default 3, unaligned). */
void umb_rdna3_step_set_alignment_mode(umb_rdna3_stepper *s, uint32_t mode);
/* --check-waitcnt for this wave (faults on a register read before its s_waitcnt); turning it on
 * or off forgets the outstanding operations tracked so far. */
void umb_rdna3_step_set_check_waitcnt(umb_rdna3_stepper *s, bool on);

/* LDS: size in bytes (0..65536; resizing clears it) and host copies into / out of it. */
umb_status umb_rdna3_step_set_lds_size(umb_rdna3_stepper *s, uint32_t bytes);
umb_status umb_rdna3_step_lds_write(umb_rdna3_stepper *s, uint32_t addr, const void *src, uint32_t bytes);
umb_status umb_rdna3_step_lds_read(const umb_rdna3_stepper *s, uint32_t addr, void *dst, uint32_t bytes);

/* Statistics of every run so far. */
const umb_stats *umb_rdna3_step_stats(const umb_rdna3_stepper *s);

#ifdef __cplusplus
}
#endif
#endif
