/* AMDGPU code objects (seeds: the RDNA3 test kernels compiled by clang-19): the ELF checks,
 * kernel descriptors, metadata note, upload with relocations, and the disassembly listing. */
#include "fuzz_common.h"
#include "umbra/rdna3.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink) sink = fopen("/dev/null", "w");
    umb_device *dev = fuzz_device(0);
    if (!dev) return 0;
    umb_rdna3_program *p = NULL;
    char err[1024];
    if (umb_rdna3_program_load_memory(dev, "fuzz.co", data, size, &p, err, sizeof err) == UMB_OK) {
        uint32_t n = umb_rdna3_program_kernel_count(p);
        for (uint32_t i = 0; i < n; i++) {
            const umb_rdna3_kernel_info *k = umb_rdna3_program_kernel(p, i);
            umb_rdna3_program_find_kernel(p, k->name);
        }
        umb_rdna3_program_target(p);
        if (sink) umb_rdna3_program_disasm(p, sink);
        umb_rdna3_program_destroy(p);
    }
    umb_device_destroy(dev);
    return 0;
}
