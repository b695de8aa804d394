/* Programs: a parsed code object, optionally copied into a device's memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rdna3_runtime.h"

static umb_status finish_load(umb_device *dev, umb_rdna3_program *p, char *err, size_t errlen)
{
    if (!dev) return UMB_OK;
    umb_status st = umb_mem_alloc(dev, p->co.image_size, 4096, &p->base);
    if (st) {
        if (err && errlen)
            snprintf(err, errlen, "%s: no device memory for the %llu-byte image (%s)", p->co.elf.path,
                     (unsigned long long)p->co.image_size, umb_status_name(st));
        return st;
    }
    p->dev = dev;
    return umb_amdgpu_co_upload(&p->co, dev, p->base, err, errlen);
}

static umb_status load(umb_device *dev, const char *path, const void *data, size_t size,
                       umb_rdna3_program **out, char *err, size_t errlen)
{
    char local_err[512];
    if (!err || !errlen) err = local_err, errlen = sizeof local_err;
    err[0] = '\0';
    *out = NULL;
    umb_rdna3_program *p = calloc(1, sizeof *p);
    umb_status st = p ? UMB_OK : UMB_ERR_NOMEM;
    if (p && data) {
        p->image = malloc(size ? size : 1);
        if (!p->image) st = UMB_ERR_NOMEM;
        else memcpy(p->image, data, size);
    }
    if (st == UMB_OK) st = umb_amdgpu_co_open(&p->co, path, p->image, size, err, errlen);
    if (st == UMB_OK) {
        st = rdna3_printf_table_build(&p->co.md, p->co.elf.path, &p->printf_formats, err, errlen);
        if (st == UMB_OK) st = finish_load(dev, p, err, errlen);
        if (st) {
            rdna3_printf_table_free(&p->printf_formats);
            umb_amdgpu_co_close(&p->co);
        }
    }
    if (st) {
        if (st == UMB_ERR_NOMEM && !err[0]) snprintf(err, errlen, "%s: out of host memory", path);
        if (p && p->dev) umb_mem_free(p->dev, p->base);
        if (p) free(p->image);
        free(p);
        if (dev) umb_device_set_error(dev, "%s", err);
        return st;
    }
    *out = p;
    return UMB_OK;
}

umb_status umb_rdna3_program_load_file(umb_device *dev, const char *path, umb_rdna3_program **out,
                                       char *err, size_t errlen)
{
    return load(dev, path, NULL, 0, out, err, errlen);
}

umb_status umb_rdna3_program_load_memory(umb_device *dev, const char *name, const void *data,
                                         size_t size, umb_rdna3_program **out, char *err, size_t errlen)
{
    if (!data) return UMB_ERR_INVALID;
    return load(dev, name ? name : "<memory>", data, size, out, err, errlen);
}

void umb_rdna3_program_destroy(umb_rdna3_program *p)
{
    if (!p) return;
    if (p->dev) umb_mem_free(p->dev, p->base);
    rdna3_printf_table_free(&p->printf_formats);
    umb_amdgpu_co_close(&p->co);
    free(p->image);
    free(p);
}

const char *umb_rdna3_program_target(const umb_rdna3_program *p) { return p->co.md.target; }
uint32_t umb_rdna3_program_kernel_count(const umb_rdna3_program *p) { return p->co.md.nkernels; }
uint64_t umb_rdna3_program_base(const umb_rdna3_program *p) { return p->base; }

const umb_rdna3_kernel_info *umb_rdna3_program_kernel(const umb_rdna3_program *p, uint32_t i)
{
    return i < p->co.md.nkernels ? &p->co.md.kernels[i] : NULL;
}

const umb_rdna3_kernel_info *umb_rdna3_program_find_kernel(const umb_rdna3_program *p, const char *name)
{
    if (!name) return NULL;
    for (uint32_t i = 0; i < p->co.md.nkernels; i++) {
        const umb_rdna3_kernel_info *k = &p->co.md.kernels[i];
        if (!strcmp(k->name, name) || !strcmp(k->symbol, name)) return k;
    }
    return NULL;
}

umb_status umb_rdna3_program_find_symbol(const umb_rdna3_program *p, const char *name, uint64_t *addr,
                                         uint64_t *size)
{
    if (!p || !name || !p->dev) return UMB_ERR_INVALID;
    umb_elf_sym sym;
    umb_status st = umb_elf_find_symbol((umb_elf *)&p->co.elf, name, &sym);
    if (st) return st;
    if (addr) *addr = p->base + sym.value;
    if (size) *size = sym.size;
    return UMB_OK;
}

/* Writable, allocated data objects: the program-scope variables of the global address space
 * (__constant data is read-only and not counted). */
uint64_t umb_rdna3_program_globals_size(const umb_rdna3_program *p)
{
    const uint64_t shf_write = 0x1, shf_alloc = 0x2;
    umb_elf *e = (umb_elf *)&p->co.elf;
    uint64_t total = 0;
    for (uint32_t i = 1; i < umb_elf_symbol_count(e); i++) {
        umb_elf_sym sym;
        if (umb_elf_symbol(e, i, &sym) != UMB_OK) break;
        if (sym.type != UMB_STT_OBJECT || sym.shndx == UMB_SHN_UNDEF || sym.shndx >= e->shnum) continue;
        const umb_elf_shdr *sh = &e->shdrs[sym.shndx];
        if ((sh->flags & (shf_write | shf_alloc)) == (shf_write | shf_alloc)) total += sym.size;
    }
    return total;
}
