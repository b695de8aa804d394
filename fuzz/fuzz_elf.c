/* The ELF reader (Ventus object.riscv files and AMDGPU code objects as seeds): every table,
 * symbol, note and segment reachable through its API, and loading the segments into a device. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "loader/elf.h"

static bool count_note(void *ctx, const umb_elf_note *n)
{
    /* touch what the note points at, so that a bad pointer shows */
    size_t *sum = ctx;
    *sum += strlen(n->name) + n->type;
    for (uint32_t i = 0; i < n->descsz; i++) *sum += n->desc[i];
    return true;
}

static void walk(umb_elf *e)
{
    size_t sum = 0;
    for (uint32_t i = 0; i < e->shnum; i++) {
        const uint8_t *p = umb_elf_section_data(e, &e->shdrs[i]);
        sum += strlen(e->shdrs[i].name);
        if (p && e->shdrs[i].size) sum += p[0] + p[e->shdrs[i].size - 1];
    }
    umb_elf_section_by_name(e, ".text");
    uint32_t n = umb_elf_symbol_count(e);
    for (uint32_t i = 0; i < n && i < 4096; i++) {
        umb_elf_sym s;
        if (umb_elf_symbol(e, i, &s) == UMB_OK) sum += strlen(s.name);
    }
    umb_elf_sym s;
    umb_elf_find_symbol(e, "_start", &s);
    umb_elf_for_each_note(e, count_note, &sum);
    const uint8_t *p = umb_elf_vaddr_data(e, e->entry, 4);
    if (p) sum += p[3];
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    umb_elf e;
    memset(&e, 0, sizeof e);
    if (umb_elf_open_memory(&e, "fuzz.elf", data, size) != UMB_OK) {
        umb_elf_close(&e);
        return 0;
    }
    walk(&e);
    umb_device *dev = fuzz_device(0);
    if (dev) {
        umb_elf_load_segments(&e, dev, 0);
        umb_device_destroy(dev);
    }
    umb_elf_close(&e);
    return 0;
}
