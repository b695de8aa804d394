/* Simulated device time (UMBRA_TIMING, docs/OPENCL.md "Profiling"): how long each command takes
 * on the simulated GPU, and the profiling clock that reports it.
 *
 * Each queue has a device clock: the simulated time at which its last command ended. A command
 * starts when both the device is free (that clock) and the host has submitted it (SUBMIT, host
 * time), so START >= SUBMIT >= QUEUED holds; it ends its simulated duration later, and the clock
 * moves there. Durations: a kernel's cycles on the timing model divided by the machine's clock;
 * a transfer between host and device from a PCIe model; a copy or fill inside device memory at
 * the DRAM bandwidth below; markers, barriers and migrations none. */
#include <math.h>
#include <time.h>

#include "ocl.h"

/* PCIe 4.0 x16, as the RX 7900 XTX has: 31.5 GB/s raw each way, about 25 GB/s achieved by DMA,
 * and a fixed cost per transfer (command processing, DMA set-up). */
#define HOST_LINK_BYTES_PER_NS 25.0
#define HOST_LINK_SETUP_NS 1000.0
/* The RX 7900 XTX's GDDR6: 960 GB/s; a copy reads and writes each byte. */
#define DEVICE_MEM_BYTES_PER_NS 960.0

static cl_ulong host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

bool ocl_timing_on(void) { return ocl_device()->timing != NULL; }

cl_ulong ocl_timing_cycles_to_ns(uint64_t cycles)
{
    return (cl_ulong)llround((double)cycles * 1000.0 / umb_timing_clock_mhz(ocl_device()->timing));
}

static cl_ulong host_link_ns(size_t bytes) { return (cl_ulong)llround(HOST_LINK_SETUP_NS + bytes / HOST_LINK_BYTES_PER_NS); }
static cl_ulong device_mem_ns(size_t bytes) { return (cl_ulong)llround(bytes / DEVICE_MEM_BYTES_PER_NS); }

/* The command's simulated duration, from the bytes its run function moves. */
static cl_ulong command_ns(const ocl_cmd *c, cl_command_type type)
{
    size_t region = c->region[0] * c->region[1] * c->region[2];
    switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL: case CL_COMMAND_TASK: return c->device_ns;
    case CL_COMMAND_READ_BUFFER: case CL_COMMAND_WRITE_BUFFER: return host_link_ns(c->size);
    case CL_COMMAND_READ_BUFFER_RECT: case CL_COMMAND_WRITE_BUFFER_RECT: return host_link_ns(region);
    case CL_COMMAND_COPY_BUFFER: return device_mem_ns(2 * c->size);
    case CL_COMMAND_COPY_BUFFER_RECT: return device_mem_ns(2 * region);
    case CL_COMMAND_FILL_BUFFER: return device_mem_ns(c->size);
    case CL_COMMAND_MAP_BUFFER:
        return c->map->flags & CL_MAP_WRITE_INVALIDATE_REGION ? 0 : host_link_ns(c->map->size);
    case CL_COMMAND_UNMAP_MEM_OBJECT:
        return c->map->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) ? host_link_ns(c->map->size) : 0;
    default: return 0;   /* markers, barriers, migrations */
    }
}

void ocl_timing_command_done(ocl_cmd *c, bool ran)
{
    if (!ocl_timing_on()) return;
    c->ev->device_ns = ran ? command_ns(c, c->ev->type) : 0;
}

/* Caller holds ocl_lock (ocl_event_set_status). */
cl_ulong ocl_profile_time(cl_event ev, cl_profiling_info stage)
{
    cl_command_queue q = ev->queue;
    if (!q || !ocl_timing_on()) return host_ns();
    switch (stage) {
    case CL_PROFILING_COMMAND_START: {
        cl_ulong submit = ev->times[1];
        return q->device_clock > submit ? q->device_clock : submit;
    }
    case CL_PROFILING_COMMAND_END:
        q->device_clock = ev->times[2] + ev->device_ns;
        return q->device_clock;
    default: return host_ns();   /* QUEUED, SUBMIT: when the host did it */
    }
}
