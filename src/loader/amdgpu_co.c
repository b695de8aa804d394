/* AMDGPU code objects: the ELF-level checks, kernel descriptors and the upload to device memory. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/guest_text.h"
#include "loader/amdgpu_co.h"

__attribute__((format(printf, 3, 4))) static umb_status co_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return UMB_ERR_FORMAT;
}

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

void umb_amdgpu_kd_decode(const uint8_t raw[UMB_AMDGPU_KD_SIZE], umb_rdna3_kernel_descriptor *kd)
{
    kd->group_segment_fixed_size = rd32(raw + 0);
    kd->private_segment_fixed_size = rd32(raw + 4);
    kd->kernarg_size = rd32(raw + 8);
    kd->kernel_code_entry_byte_offset = (int64_t)rd64(raw + 16);
    kd->compute_pgm_rsrc3 = rd32(raw + 44);
    kd->compute_pgm_rsrc1 = rd32(raw + 48);
    kd->compute_pgm_rsrc2 = rd32(raw + 52);
    kd->kernel_code_properties = (uint16_t)(raw[56] | raw[57] << 8);
    kd->kernarg_preload = (uint16_t)(raw[58] | raw[59] << 8);
}

/* The ELF header: a gfx1100 shared object for the HSA ABI. */
static umb_status check_header(const umb_elf *e, char *err, size_t errlen)
{
    const char *p = e->path;
    if (!e->is64) return co_fail(err, errlen, "%s: a 32-bit ELF, not an AMDGPU code object (ELF64)", p);
    if (e->machine != UMB_EM_AMDGPU)
        return co_fail(err, errlen, "%s: e_machine is %u, not EM_AMDGPU (224)", p, e->machine);
    if (e->osabi != UMB_ELFOSABI_AMDGPU_HSA)
        return co_fail(err, errlen, "%s: EI_OSABI is %u, not ELFOSABI_AMDGPU_HSA (64): not an amdhsa code object",
                       p, e->osabi);
    if (e->type == UMB_ET_REL)
        return co_fail(err, errlen, "%s: a relocatable object (ET_REL); link it first: ld.lld-19 -shared in.o -o out.co", p);
    if (e->type != UMB_ET_DYN)
        return co_fail(err, errlen, "%s: e_type is %u, an AMDGPU code object is ET_DYN (3)", p, e->type);
    if (e->abiversion < 2)
        return co_fail(err, errlen, "%s: EI_ABIVERSION %u is code object v%u; umbra reads v4 and v5 (msgpack metadata)",
                       p, e->abiversion, e->abiversion + 2);
    unsigned mach = e->flags & UMB_EF_AMDGPU_MACH;
    if (mach != UMB_EF_AMDGPU_MACH_GFX1100)
        return co_fail(err, errlen, "%s: e_flags 0x%x: EF_AMDGPU_MACH 0x%02x is not gfx1100 (0x41); compile with -mcpu=gfx1100",
                       p, e->flags, mach);
    return UMB_OK;
}

typedef struct note_scan {
    const umb_elf_note *found;
    umb_elf_note note;
    unsigned count;
} note_scan;

static bool find_md_note(void *ctx, const umb_elf_note *n)
{
    note_scan *s = ctx;
    if (n->type == UMB_NT_AMDGPU_METADATA && !strcmp(n->name, "AMDGPU")) {
        if (!s->count) s->note = *n;
        s->count++;
    }
    return true;
}

static umb_status read_metadata(umb_amdgpu_co *co, char *err, size_t errlen)
{
    note_scan s = { 0 };
    umb_status st = umb_elf_for_each_note(&co->elf, find_md_note, &s);
    if (st) return co_fail(err, errlen, "%s", co->elf.error);
    if (!s.count)
        return co_fail(err, errlen, "%s: no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32): not a code object v3+",
                       co->elf.path);
    if (s.count > 1) return co_fail(err, errlen, "%s: %u NT_AMDGPU_METADATA notes", co->elf.path, s.count);
    return umb_amdgpu_metadata_parse(co->elf.path, s.note.desc, s.note.descsz, &co->md, err, errlen);
}

static const umb_elf_phdr *segment_of(const umb_elf *e, uint64_t vaddr, uint64_t len)
{
    for (uint32_t i = 0; i < e->phnum; i++) {
        const umb_elf_phdr *ph = &e->phdrs[i];
        if (ph->type == UMB_PT_LOAD && vaddr >= ph->vaddr && vaddr - ph->vaddr <= ph->memsz &&
            len <= ph->memsz - (vaddr - ph->vaddr))
            return ph;
    }
    return NULL;
}

/* The descriptor of one kernel and its consistency with the metadata. */
static umb_status read_kd(umb_amdgpu_co *co, umb_rdna3_kernel_info *ki, char *err, size_t errlen)
{
    const char *p = co->elf.path;
    umb_guest_text_buf gn, gs;   /* the names as messages show them */
    const char *name = umb_guest_text(&gn, ki->name), *symbol = umb_guest_text(&gs, ki->symbol);
    umb_elf_sym sym;
    if (umb_elf_find_symbol(&co->elf, ki->symbol, &sym))
        return co_fail(err, errlen, "%s: kernel '%s': no kernel descriptor symbol '%s'", p, name, symbol);
    const uint8_t *raw = umb_elf_vaddr_data(&co->elf, sym.value, UMB_AMDGPU_KD_SIZE);
    if (!raw)
        return co_fail(err, errlen, "%s: kernel '%s': descriptor '%s' at 0x%llx is not 64 bytes inside a loaded segment",
                       p, name, symbol, (unsigned long long)sym.value);
    umb_amdgpu_kd_decode(raw, &ki->kd);
    ki->kd_vaddr = sym.value;
    ki->entry_vaddr = sym.value + (uint64_t)ki->kd.kernel_code_entry_byte_offset;
    const umb_elf_phdr *code = segment_of(&co->elf, ki->entry_vaddr, 4);
    if (!code || !(code->flags & UMB_PF_X))
        return co_fail(err, errlen, "%s: kernel '%s': entry 0x%llx (descriptor 0x%llx %+lld) is not in an executable segment",
                       p, name, (unsigned long long)ki->entry_vaddr, (unsigned long long)sym.value,
                       (long long)ki->kd.kernel_code_entry_byte_offset);
    if (ki->entry_vaddr & 255)
        return co_fail(err, errlen, "%s: kernel '%s': entry 0x%llx is not 256-byte aligned", p, name,
                       (unsigned long long)ki->entry_vaddr);
    bool w32 = ki->kd.kernel_code_properties & UMB_RDNA3_KCP_WAVEFRONT_SIZE32;
    if ((w32 ? 32u : 64u) != ki->wavefront_size)
        return co_fail(err, errlen, "%s: kernel '%s': descriptor says wave%u, metadata .wavefront_size %u", p, name,
                       w32 ? 32u : 64u, ki->wavefront_size);
    if (ki->kd.kernarg_size != ki->kernarg_segment_size)
        return co_fail(err, errlen, "%s: kernel '%s': descriptor kernarg_size %u, metadata .kernarg_segment_size %u", p,
                       name, ki->kd.kernarg_size, ki->kernarg_segment_size);
    if (ki->kd.group_segment_fixed_size > 65536)
        return co_fail(err, errlen, "%s: kernel '%s': group segment of %u bytes exceeds the 64 KiB of LDS", p, name,
                       ki->kd.group_segment_fixed_size);
    /* the function symbol (same name as the kernel) gives the code size for disassembly */
    umb_elf_sym fn;
    if (!umb_elf_find_symbol(&co->elf, ki->name, &fn) && fn.value == ki->entry_vaddr) ki->code_size = fn.size;
    return UMB_OK;
}

umb_status umb_amdgpu_co_open(umb_amdgpu_co *co, const char *path, const void *data, size_t size,
                              char *err, size_t errlen)
{
    memset(co, 0, sizeof *co);
    umb_status st = data ? umb_elf_open_memory(&co->elf, path, data, size) : umb_elf_open_file(&co->elf, path);
    if (st) {
        if (err && errlen) snprintf(err, errlen, "%s", co->elf.error);
        umb_elf_close(&co->elf);
        return st;
    }
    if ((st = check_header(&co->elf, err, errlen)) || (st = read_metadata(co, err, errlen))) goto fail;
    for (uint32_t i = 0; i < co->elf.phnum; i++) {
        const umb_elf_phdr *ph = &co->elf.phdrs[i];
        if (ph->type != UMB_PT_LOAD) continue;
        if (ph->vaddr + ph->memsz < ph->vaddr || ph->vaddr + ph->memsz > (1ull << 32)) {
            st = co_fail(err, errlen, "%s: PT_LOAD segment %u [0x%llx + 0x%llx) is beyond 4 GiB", path, i,
                         (unsigned long long)ph->vaddr, (unsigned long long)ph->memsz);
            goto fail;
        }
        if (ph->vaddr + ph->memsz > co->image_size) co->image_size = ph->vaddr + ph->memsz;
    }
    if (!co->image_size) {
        st = co_fail(err, errlen, "%s: no PT_LOAD segment", path);
        goto fail;
    }
    for (uint32_t i = 0; i < co->md.nkernels; i++)
        if ((st = read_kd(co, &co->md.kernels[i], err, errlen))) goto fail;
    return UMB_OK;
fail:
    umb_amdgpu_co_close(co);
    return st;
}

void umb_amdgpu_co_close(umb_amdgpu_co *co)
{
    umb_amdgpu_metadata_free(&co->md);
    umb_elf_close(&co->elf);
}

/* ld.lld leaves R_AMDGPU_RELATIVE64 in .rela.dyn for absolute addresses (e.g. a __constant table
 * holding pointers); the loader adds the load base like the ROCr loader does. */
static umb_status apply_relocs(umb_amdgpu_co *co, umb_device *dev, uint64_t base, char *err, size_t errlen)
{
    for (uint32_t s = 0; s < co->elf.shnum; s++) {
        const umb_elf_shdr *sh = &co->elf.shdrs[s];
        if (sh->type != 4 /* SHT_RELA */) continue;
        const uint8_t *d = umb_elf_section_data(&co->elf, sh);
        if (!d && sh->size) return co_fail(err, errlen, "%s: section %s is outside the file", co->elf.path,
                                       umb_guest_text(&(umb_guest_text_buf){0}, sh->name));
        for (uint64_t off = 0; off + 24 <= sh->size; off += 24) {
            uint64_t where = rd64(d + off), info = rd64(d + off + 8);
            int64_t addend = (int64_t)rd64(d + off + 16);
            uint32_t type = (uint32_t)info;
            if (type == 0) continue;
            if (type != UMB_R_AMDGPU_RELATIVE64)
                return co_fail(err, errlen, "%s: relocation type %u at 0x%llx in %s is not supported (only R_AMDGPU_RELATIVE64)",
                               co->elf.path, type, (unsigned long long)where,
                               umb_guest_text(&(umb_guest_text_buf){0}, sh->name));
            if (where + 8 > co->image_size || where + 8 < where)
                return co_fail(err, errlen, "%s: relocation at 0x%llx is outside the image", co->elf.path,
                               (unsigned long long)where);
            uint64_t v = base + (uint64_t)addend;
            umb_status st = umb_mem_copy_to_device(dev, base + where, &v, 8);
            if (st) return st;
        }
    }
    return UMB_OK;
}

umb_status umb_amdgpu_co_upload(umb_amdgpu_co *co, umb_device *dev, uint64_t base, char *err, size_t errlen)
{
    umb_status st = umb_elf_load_segments(&co->elf, dev, base);
    if (st) {
        if (err && errlen) snprintf(err, errlen, "%s", co->elf.error);
        return st;
    }
    return apply_relocs(co, dev, base, err, errlen);
}
