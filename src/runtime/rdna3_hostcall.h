/* AMD's hostcall mechanism, the host side (what ROCm's hostcall listener does): HIP device code's
 * printf, malloc/free and assert reach the host through a buffer of packets that the runtime
 * passes as the hidden_hostcall_buffer kernel argument (docs/RDNA3.md, "Hostcall").
 *
 * Device memory of one launch's buffer (one allocation, freed after the launch):
 *
 *   +0    buffer header, as ockl reads it: headers (u64 address), payloads (u64 address), doorbell
 *         (u64: the address of an amd_signal_t), free_stack (u64), ready_stack (u64), index_mask
 *   +64   the doorbell, an amd_signal_t: kind 1 (user), value (+8, the device adds 1 per packet),
 *         event_mailbox_ptr (+16) -> +128, event_id (+24) 0
 *   +128  the event mailbox (the device stores the event id there, then s_sendmsg(MSG_INTERRUPT))
 *   +256  N packet headers of 24 bytes: next (u64), activemask (u64), service (u32), control (u32,
 *         bit 0 = ready)
 *   then, 4 KiB aligned, N payloads of 64 lanes x 8 u64 (lane l's arguments and return values)
 *
 * The stacks hold tagged pointers: packet index in the bits of index_mask (N rounded up to a power
 * of two, minus one), a tag above it that each return to the free stack advances, so that the
 * value 0 always means "empty". The free stack starts as N-1, N-2, ..., 1, 0 (packet 0 with tag 1).
 */
#ifndef UMBRA_RUNTIME_RDNA3_HOSTCALL_H
#define UMBRA_RUNTIME_RDNA3_HOSTCALL_H

#include <stdint.h>

#include "isa/rdna3/rdna3.h"
#include "umbra/rdna3.h"

/* ROCm's service ids (ockl: __ockl_call_host_function, __ockl_printf_*, __ockl_devmem_request). */
enum {
    RDNA3_HOSTCALL_FUNCTION_CALL = 1,   /* a host function pointer from the device: never provided */
    RDNA3_HOSTCALL_PRINTF = 2,
    RDNA3_HOSTCALL_DEVMEM = 3,
    RDNA3_HOSTCALL_SANITIZER = 4,       /* device AddressSanitizer reports: not provided */
};

typedef struct rdna3_hostcall rdna3_hostcall;

/* Packets a launch needs: one per wave that can be resident at once (a wave holds at most one,
 * and ockl pops without looking whether the free stack is empty): one per wave slot of the device
 * (RDNA3_WAVE_SLOTS_PER_CU per CU, the timing model's machine's when it runs), or one per wave of
 * the grid if fewer. */
#define RDNA3_WAVE_SLOTS_PER_CU 32u   /* gfx1100 in CU mode: 2 SIMD32 x 16 waves */
uint32_t rdna3_hostcall_packets(uint64_t grid_waves, uint64_t wave_slots);

/* Allocate and initialise a launch's buffer. printf_fn / ctx receive the device's stdout text
 * (NULL: stdout). `kernel` is the escaped name for messages. Errors set the device's error. */
umb_status rdna3_hostcall_create(umb_device *dev, const char *kernel, uint32_t wave_size, uint32_t npackets,
                                 umb_rdna3_printf_fn printf_fn, void *printf_ctx, rdna3_hostcall **out);
/* Its device address (the kernarg value) and its services (rdna3_kernel.host). */
uint64_t rdna3_hostcall_address(const rdna3_hostcall *h);
rdna3_host *rdna3_hostcall_host(rdna3_hostcall *h);
/* After the launch (guest code no longer runs): device stderr text not named by a trap report goes
 * to stderr, memory the kernel freed is released, the buffer is freed. NULL is a no-op. */
void rdna3_hostcall_destroy(rdna3_hostcall *h);

/* The device-malloc heap of code object v5 kernels (hidden_heap_v1): ockl's allocator state, 128
 * KiB of zeros in device memory, one per device, kept as long as the device (what the kernels
 * allocate outlives their launch). */
umb_status rdna3_device_heap(umb_device *dev, uint64_t *addr);

#endif
