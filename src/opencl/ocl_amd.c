/* The device as ROCm's OpenCL names it (UMBRA_IDENTITY=rocm, `umbra opencl --identity rocm`), and
 * AMD's device attribute queries (cl_amd_device_attribute_query, listed with that identity).
 *
 * Why: programs choose code paths by vendor. OpenMM's OpenCL platform, for one, uses its AMD
 * kernels and sizes its grids (6 x SIMDs per CU x CL_DEVICE_MAX_COMPUTE_UNITS thread blocks, wave-
 * synchronous reductions when the wavefront is 32 or wider) only when CL_DEVICE_VENDOR starts with
 * "Advanced Micro Devices, Inc." and the AMD queries answer; otherwise it warns of an unsupported
 * implementation and takes its generic path, which is not what runs on the card. umbra's own names
 * stay the default, so that umbra beside a real AMD platform is not mistaken for it.
 *
 * The values are those ROCm's CLR reports for gfx1100 (rocclr/device/device.cpp's ISA table:
 * 2 SIMDs per CU, SIMD width 32, instruction width 1, channel bank width 256, 64 KiB of LDS per CU,
 * 32 LDS banks; rocdevice.cpp: SIMDs per CU doubled in WGP mode, the OpenCL default on gfx10+ (it
 * reports WGPs as compute units), 4 channel banks, 8 asynchronous queues, no thread trace, 16 KiB
 * preferred constant buffer; cl_device.cpp: memory channels = VRAM bus width / 32, 384 / 32 for the
 * XTX) and rocminfo for the RX 7900 XTX (marketing name "Radeon RX 7900 XTX", chip ID 0x744c). */
#include <string.h>

#include "ocl.h"

/* cl_amd_device_attribute_query: CL/cl_ext.h names the queries but CLR's real-time ones */
#define CL_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD 0x404D
#define CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD 0x404E
#define CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_GRANULARITY_AMD 0x403A

const char *ocl_platform_name(void) { return ocl_device()->p.rocm_identity ? "AMD Accelerated Parallel Processing" : "umbra"; }
const char *ocl_platform_vendor(void) { return ocl_device()->p.rocm_identity ? "Advanced Micro Devices, Inc." : "umbra"; }
const char *ocl_device_vendor(void)
{
    return ocl_device()->p.rocm_identity ? "Advanced Micro Devices, Inc." : "umbra (simulated AMD RDNA3)";
}
const char *ocl_device_name(void) { return ocl_device()->p.rocm_identity ? "gfx1100" : "umbra RDNA3 gfx1100"; }

cl_int ocl_amd_device_info(cl_device_info param, size_t size, void *value, size_t *ret, bool *found)
{
    const umb_platform *p = &ocl_device()->p;
    *found = p->rocm_identity;   /* the extension is reported with ROCm's identity only */
    if (!*found) return CL_INVALID_VALUE;
    switch (param) {
    case CL_DEVICE_BOARD_NAME_AMD: OCL_INFO_STR(plat_board_name(p));
    case CL_DEVICE_TOPOLOGY_AMD: {
        cl_device_topology_amd t;
        memset(&t, 0, sizeof t);
        t.pcie.type = CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD, t.pcie.bus = 3;   /* 03:00.0 */
        return ocl_info(size, value, ret, &t, sizeof t);
    }
    case CL_DEVICE_GLOBAL_FREE_MEMORY_AMD: {
        /* KiB: all of it free, in one block (what the device has not lent out is not tracked) */
        size_t kib[2] = { (size_t)(p->global_mem_size >> 10), (size_t)(plat_max_alloc(p) >> 10) };
        return ocl_info(size, value, ret, kib, size && size < sizeof kib ? sizeof kib[0] : sizeof kib);
    }
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_AMD: OCL_INFO(size_t, p->max_work_group);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE_AMD: OCL_INFO(size_t, p->max_work_group);
    case CL_DEVICE_PREFERRED_CONSTANT_BUFFER_SIZE_AMD: OCL_INFO(cl_ulong, 16u << 10);
    case CL_DEVICE_PCIE_ID_AMD: OCL_INFO(cl_uint, 0x744c);
    case CL_DEVICE_PROFILING_TIMER_OFFSET_AMD: OCL_INFO(cl_ulong, 0);
    case CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD: OCL_INFO(cl_uint, p->reported_units < p->compute_units ? 4 : 2);
    case CL_DEVICE_SIMD_WIDTH_AMD: OCL_INFO(cl_uint, 32);
    case CL_DEVICE_SIMD_INSTRUCTION_WIDTH_AMD: OCL_INFO(cl_uint, 1);
    case CL_DEVICE_WAVEFRONT_WIDTH_AMD: OCL_INFO(cl_uint, 32);
    case CL_DEVICE_GLOBAL_MEM_CHANNELS_AMD: OCL_INFO(cl_uint, 384 / 32);
    case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANKS_AMD: OCL_INFO(cl_uint, 4);
    case CL_DEVICE_GLOBAL_MEM_CHANNEL_BANK_WIDTH_AMD: OCL_INFO(cl_uint, 256);
    case CL_DEVICE_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT_AMD: OCL_INFO(cl_uint, 64u << 10);
    case CL_DEVICE_LOCAL_MEM_BANKS_AMD: OCL_INFO(cl_uint, 32);
    case CL_DEVICE_THREAD_TRACE_SUPPORTED_AMD: OCL_INFO(cl_bool, CL_FALSE);
    case CL_DEVICE_GFXIP_MAJOR_AMD: OCL_INFO(cl_uint, 11);
    case CL_DEVICE_GFXIP_MINOR_AMD: OCL_INFO(cl_uint, 0);
    case CL_DEVICE_AVAILABLE_ASYNC_QUEUES_AMD: OCL_INFO(cl_uint, 8);
    case CL_DEVICE_MAX_REAL_TIME_COMPUTE_QUEUES_AMD: OCL_INFO(cl_uint, 8);
    case CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_AMD: OCL_INFO(cl_uint, p->reported_units);
    case CL_DEVICE_MAX_REAL_TIME_COMPUTE_UNITS_GRANULARITY_AMD: OCL_INFO(cl_uint, 0);   /* CLR never sets it */
    default: *found = false; return CL_INVALID_VALUE;
    }
}
