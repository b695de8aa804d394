/* One Ventus warp on random instructions, through umb_ventus_run on a one-warp, one-workgroup
 * launch with an instruction budget (the Ventus counterpart of the RDNA3 single-step API).
 *
 * Input: byte 0 = threads per warp - 1 (low 5 bits) and bit 5 = write the commit trace (to
 * /dev/null: the golden-model text of every instruction), the rest = code placed at 0x80000000
 * (seeds: .text of the shipped object.riscv files, whose crt reads the launch CSRs). The kernel
 * metadata block and private memory are mapped, so loads through them pass the address checks. */
#include "fuzz_common.h"
#include "umbra/ventus.h"

#define VENTUS_FUZZ_BUDGET 4096
#define CODE_BASE 0x80000000ull
#define DATA_BASE 0x90000000ull
#define DATA_SIZE 0x10000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5) return 0;
    size_t code_bytes = (size - 1) & ~(size_t)3;
    umb_device *dev = fuzz_device(VENTUS_FUZZ_BUDGET);
    if (!dev) return 0;
    umb_ventus_launch l;
    memset(&l, 0, sizeof l);
    l.start_pc = CODE_BASE;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.wf_size = (data[0] & 31u) + 1;
    l.wg_size = 1;
    l.metadata_base = DATA_BASE;                 /* 64-byte block: kernel entry, arguments */
    l.lds_size = 4096;
    l.pds_size = 256;
    l.pds_base = DATA_BASE + DATA_SIZE / 2;
    l.name = "fuzz";
    if (umb_mem_map(dev, CODE_BASE, code_bytes) == UMB_OK &&
        umb_mem_copy_to_device(dev, CODE_BASE, data + 1, code_bytes) == UMB_OK &&
        umb_mem_map(dev, DATA_BASE, DATA_SIZE) == UMB_OK) {
        uint32_t block[16] = { (uint32_t)CODE_BASE, (uint32_t)DATA_BASE + 0x100 };
        umb_mem_copy_to_device(dev, DATA_BASE, block, sizeof block);
        static FILE *sink;
        if (!sink) sink = fopen("/dev/null", "w");
        umb_ventus_options opt = { .trace = (data[0] & 32u) ? sink : NULL };
        umb_ventus_run(dev, &l, &opt, NULL);
        umb_device_last_error(dev);
    }
    umb_device_destroy(dev);
    return 0;
}
