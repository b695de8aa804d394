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

/* cl_amd_device_attribute_query (CL/cl_ext.h names most of them; the rest are CLR's) */
#define AMD_PREFERRED_WORK_GROUP_SIZE 0x4030
#define AMD_MAX_WORK_GROUP_SIZE 0x4031
#define AMD_PREFERRED_CONSTANT_BUFFER_SIZE 0x4033
#define AMD_PCIE_ID 0x4034
#define AMD_PROFILING_TIMER_OFFSET 0x4036
#define AMD_TOPOLOGY 0x4037
#define AMD_BOARD_NAME 0x4038
#define AMD_GLOBAL_FREE_MEMORY 0x4039
#define AMD_SIMD_PER_COMPUTE_UNIT 0x4040
#define AMD_SIMD_WIDTH 0x4041
#define AMD_SIMD_INSTRUCTION_WIDTH 0x4042
#define AMD_WAVEFRONT_WIDTH 0x4043
#define AMD_GLOBAL_MEM_CHANNELS 0x4044
#define AMD_GLOBAL_MEM_CHANNEL_BANKS 0x4045
#define AMD_GLOBAL_MEM_CHANNEL_BANK_WIDTH 0x4046
#define AMD_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT 0x4047
#define AMD_LOCAL_MEM_BANKS 0x4048
#define AMD_THREAD_TRACE_SUPPORTED 0x4049
#define AMD_GFXIP_MAJOR 0x404A
#define AMD_GFXIP_MINOR 0x404B
#define AMD_AVAILABLE_ASYNC_QUEUES 0x404C
#define AMD_MAX_REAL_TIME_COMPUTE_QUEUES 0x404D
#define AMD_MAX_REAL_TIME_COMPUTE_UNITS 0x404E
#define AMD_MAX_REAL_TIME_COMPUTE_UNITS_GRANULARITY 0x403A

/* cl_device_topology_amd: the PCIe form (type 1) */
typedef union {
    struct { cl_uint type, data[5]; } raw;
    struct { cl_uint type; cl_char unused[17]; cl_char bus, device, function; } pcie;
} amd_topology;

const char *ocl_platform_name(void) { return ocl_device()->p.rocm_identity ? "AMD Accelerated Parallel Processing" : "umbra"; }
const char *ocl_platform_vendor(void) { return ocl_device()->p.rocm_identity ? "Advanced Micro Devices, Inc." : "umbra"; }
const char *ocl_device_vendor(void)
{
    return ocl_device()->p.rocm_identity ? "Advanced Micro Devices, Inc." : "umbra (simulated AMD RDNA3)";
}
const char *ocl_device_name(void) { return ocl_device()->p.rocm_identity ? "gfx1100" : "umbra RDNA3 gfx1100"; }

/* The card's name for the XTX's 96 CUs, the name ROCm gives a board it does not know otherwise. */
static const char *board_name(void)
{
    return ocl_device()->p.compute_units == 96 ? "Radeon RX 7900 XTX" : "AMD Radeon Graphics";
}

cl_int ocl_amd_device_info(cl_device_info param, size_t size, void *value, size_t *ret, bool *found)
{
    const umb_platform *p = &ocl_device()->p;
    *found = p->rocm_identity;   /* the extension is reported with ROCm's identity only */
    if (!*found) return CL_INVALID_VALUE;
    switch (param) {
    case AMD_BOARD_NAME: OCL_INFO_STR(board_name());
    case AMD_TOPOLOGY: {
        amd_topology t;
        memset(&t, 0, sizeof t);
        t.pcie.type = 1, t.pcie.bus = 3;   /* CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD, 03:00.0 */
        return ocl_info(size, value, ret, &t, sizeof t);
    }
    case AMD_GLOBAL_FREE_MEMORY: {
        /* KiB: all of it free, in one block (what the device has not lent out is not tracked) */
        size_t kib[2] = { (size_t)(p->global_mem_size >> 10), (size_t)(plat_max_alloc(p) >> 10) };
        return ocl_info(size, value, ret, kib, size && size < sizeof kib ? sizeof kib[0] : sizeof kib);
    }
    case AMD_PREFERRED_WORK_GROUP_SIZE: OCL_INFO(size_t, p->max_work_group);
    case AMD_MAX_WORK_GROUP_SIZE: OCL_INFO(size_t, p->max_work_group);
    case AMD_PREFERRED_CONSTANT_BUFFER_SIZE: OCL_INFO(cl_ulong, 16u << 10);
    case AMD_PCIE_ID: OCL_INFO(cl_uint, 0x744c);
    case AMD_PROFILING_TIMER_OFFSET: OCL_INFO(cl_ulong, 0);
    case AMD_SIMD_PER_COMPUTE_UNIT: OCL_INFO(cl_uint, p->reported_units < p->compute_units ? 4 : 2);
    case AMD_SIMD_WIDTH: OCL_INFO(cl_uint, 32);
    case AMD_SIMD_INSTRUCTION_WIDTH: OCL_INFO(cl_uint, 1);
    case AMD_WAVEFRONT_WIDTH: OCL_INFO(cl_uint, 32);
    case AMD_GLOBAL_MEM_CHANNELS: OCL_INFO(cl_uint, 384 / 32);
    case AMD_GLOBAL_MEM_CHANNEL_BANKS: OCL_INFO(cl_uint, 4);
    case AMD_GLOBAL_MEM_CHANNEL_BANK_WIDTH: OCL_INFO(cl_uint, 256);
    case AMD_LOCAL_MEM_SIZE_PER_COMPUTE_UNIT: OCL_INFO(cl_uint, 64u << 10);
    case AMD_LOCAL_MEM_BANKS: OCL_INFO(cl_uint, 32);
    case AMD_THREAD_TRACE_SUPPORTED: OCL_INFO(cl_bool, CL_FALSE);
    case AMD_GFXIP_MAJOR: OCL_INFO(cl_uint, 11);
    case AMD_GFXIP_MINOR: OCL_INFO(cl_uint, 0);
    case AMD_AVAILABLE_ASYNC_QUEUES: OCL_INFO(cl_uint, 8);
    case AMD_MAX_REAL_TIME_COMPUTE_QUEUES: OCL_INFO(cl_uint, 8);
    case AMD_MAX_REAL_TIME_COMPUTE_UNITS: OCL_INFO(cl_uint, p->reported_units);
    case AMD_MAX_REAL_TIME_COMPUTE_UNITS_GRANULARITY: OCL_INFO(cl_uint, 0);   /* CLR never sets it */
    default: *found = false; return CL_INVALID_VALUE;
    }
}
