/* Host time, and the simulated duration of what is not a kernel (docs/OPENCL.md "Profiling"). */
#include <math.h>
#include <time.h>

#include "platform.h"

/* PCIe 4.0 x16, as the RX 7900 XTX has: 31.5 GB/s raw each way, about 25 GB/s achieved by DMA,
 * and a fixed cost per transfer (command processing, DMA set-up). */
#define HOST_LINK_BYTES_PER_NS 25.0
#define HOST_LINK_SETUP_NS 1000.0
/* The RX 7900 XTX's GDDR6: 960 GB/s. */
#define DEVICE_MEM_BYTES_PER_NS 960.0

uint64_t plat_host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t plat_cycles_to_ns(const umb_platform *pl, uint64_t cycles)
{
    double mhz = pl->timing ? umb_timing_clock_mhz(pl->timing) : pl->clock_mhz;
    return (uint64_t)llround((double)cycles * 1000.0 / mhz);
}

uint64_t plat_host_link_ns(uint64_t bytes) { return (uint64_t)llround(HOST_LINK_SETUP_NS + bytes / HOST_LINK_BYTES_PER_NS); }
uint64_t plat_device_copy_ns(uint64_t bytes) { return (uint64_t)llround(2.0 * bytes / DEVICE_MEM_BYTES_PER_NS); }
uint64_t plat_device_fill_ns(uint64_t bytes) { return (uint64_t)llround(bytes / DEVICE_MEM_BYTES_PER_NS); }
