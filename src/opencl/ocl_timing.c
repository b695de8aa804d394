/* Simulated device time (UMBRA_TIMING, docs/OPENCL.md "Profiling"): how long each command takes
 * on the simulated GPU, and the profiling clock that reports it.
 *
 * Each queue has a device clock: the simulated time at which its last command ended. A command
 * starts when both the device is free (that clock) and the host has submitted it (SUBMIT, host
 * time), so START >= SUBMIT >= QUEUED holds; it ends its simulated duration later, and the clock
 * moves there. Durations: a kernel's cycles on the timing model divided by the machine's clock;
 * a transfer between host and device from a PCIe model; a copy or fill inside device memory at
 * the DRAM bandwidth below; markers, barriers and migrations none. */
#include "ocl.h"

bool ocl_timing_on(void) { return ocl_device()->p.timing != NULL; }

cl_ulong ocl_timing_cycles_to_ns(uint64_t cycles) { return plat_cycles_to_ns(&ocl_device()->p, cycles); }

static cl_ulong host_link_ns(size_t bytes) { return plat_host_link_ns(bytes); }
static cl_ulong device_mem_ns(size_t bytes) { return plat_device_fill_ns(bytes); }

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

/* Caller holds ocl_lock (the event hooks of ocl_queue.c). */
cl_ulong ocl_profile_time(cl_event ev, cl_profiling_info stage)
{
    cl_command_queue q = ev->queue;
    if (!q || !ocl_timing_on()) return plat_host_ns();
    switch (stage) {
    case CL_PROFILING_COMMAND_START: {
        cl_ulong submit = ev->times[1];
        return q->device_clock > submit ? q->device_clock : submit;
    }
    case CL_PROFILING_COMMAND_END:
        q->device_clock = ev->times[2] + ev->device_ns;
        return q->device_clock;
    default: return plat_host_ns();   /* QUEUED, SUBMIT: when the host did it */
    }
}

/* The device's timer is the profiling clock, whose time base is the host's (plat_host_ns): with
 * UMBRA_TIMING a command's START and END are simulated times on that same base. */
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id d, cl_ulong *dev, cl_ulong *host)
{
    if (!d || d != ocl_device()) return CL_INVALID_DEVICE;
    if (!dev || !host) return CL_INVALID_VALUE;
    *host = *dev = plat_host_ns();
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id d, cl_ulong *host)
{
    if (!d || d != ocl_device()) return CL_INVALID_DEVICE;
    if (!host) return CL_INVALID_VALUE;
    *host = plat_host_ns();
    return CL_SUCCESS;
}
