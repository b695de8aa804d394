/* Loading ELF PT_LOAD segments into device memory. Kept apart from elf.c so that the reader
 * itself depends on nothing but the C library. */
#include "loader/elf.h"

#include "core/core.h"
#include "mem/mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Both front ends load 32-bit images (Ventus RV32, AMDGPU code objects below 4 GiB): a larger
 * segment is a corrupted header, and mapping or zeroing it would take hours. */
#define MAX_SEGMENT_BYTES (1ull << 32)

umb_status umb_elf_load_segments(umb_elf *e, umb_device *dev, uint64_t bias)
{
    for (uint32_t i = 0; i < e->phnum; i++) {
        const umb_elf_phdr *ph = &e->phdrs[i];
        if (ph->type != UMB_PT_LOAD || ph->memsz == 0) continue;
        uint64_t va = ph->vaddr + bias;
        if (va < bias && bias != 0)
            return umb_elf_fail(e, UMB_ERR_FORMAT, "segment %u at 0x%llx + bias 0x%llx overflows", i,
                        (unsigned long long)ph->vaddr, (unsigned long long)bias);
        if (va + ph->memsz < va)
            return umb_elf_fail(e, UMB_ERR_FORMAT, "segment %u [0x%llx, +0x%llx) wraps around", i,
                        (unsigned long long)va, (unsigned long long)ph->memsz);
        if (ph->memsz > MAX_SEGMENT_BYTES)
            return umb_elf_fail(e, UMB_ERR_FORMAT, "segment %u: memsz 0x%llx is over 4 GiB", i,
                        (unsigned long long)ph->memsz);
        /* umb_mem_map keeps pages that are mapped already (with what an earlier image wrote) */
        umb_status st = umb_mem_map(dev, va, ph->memsz);
        if (st != UMB_OK)
            return umb_elf_fail(e, st, "cannot map segment %u at [0x%llx, +0x%llx): %s", i,
                        (unsigned long long)va, (unsigned long long)ph->memsz, umb_status_name(st));
        if (ph->filesz) st = umb_mem_copy_to_device(dev, va, e->data + ph->offset, ph->filesz);
        /* pages an earlier image wrote hold its bytes; fresh ones read as zero already */
        if (st == UMB_OK && ph->memsz > ph->filesz)
            umb_mem_zero_written(umb_device_memory(dev), va + ph->filesz, ph->memsz - ph->filesz);
        if (st != UMB_OK)
            return umb_elf_fail(e, st, "cannot copy segment %u to 0x%llx: %s", i, (unsigned long long)va,
                        umb_status_name(st));
    }
    return UMB_OK;
}

