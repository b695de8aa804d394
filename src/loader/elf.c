/* ELF32/ELF64 little-endian reader with bounds checks on every field (see elf.h). */
#include "loader/elf.h"

#include "core/guest_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- error reporting ---- */

umb_status umb_elf_fail(umb_elf *e, umb_status st, const char *fmt, ...)
{
    int n = snprintf(e->error, sizeof e->error, "%s: ", e->path ? e->path : "<elf>");
    if (n < 0 || (size_t)n >= sizeof e->error) return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->error + n, sizeof e->error - (size_t)n, fmt, ap);
    va_end(ap);
    return st;
}

/* ---- little-endian field readers (callers have bounds-checked the record) ---- */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32); }
/* An address-sized field: 4 bytes in ELF32, 8 in ELF64. */
static uint64_t rdaddr(const umb_elf *e, const uint8_t *p) { return e->is64 ? rd64(p) : rd32(p); }

/* [off, off+len) inside the file, without overflow. */
static bool in_file(const umb_elf *e, uint64_t off, uint64_t len)
{
    return off <= e->size && len <= e->size - off;
}

/* ---- header ---- */

/* Byte offsets of the ELF header fields after e_ident (ELF32, ELF64). */
typedef struct ehdr_layout {
    unsigned size, entry, phoff, shoff, flags, ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
    unsigned phdr_size, shdr_size, sym_size;
} ehdr_layout;

static const ehdr_layout layout32 = {52, 24, 28, 32, 36, 40, 42, 44, 46, 48, 50, 32, 40, 16};
static const ehdr_layout layout64 = {64, 24, 32, 40, 48, 52, 54, 56, 58, 60, 62, 56, 64, 24};

static umb_status parse_ident(umb_elf *e)
{
    if (e->size < 16)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "not an ELF file: %zu bytes, shorter than the 16-byte ELF "
                    "identification", e->size);
    const uint8_t *d = e->data;
    if (d[0] != 0x7f || d[1] != 'E' || d[2] != 'L' || d[3] != 'F')
        return umb_elf_fail(e, UMB_ERR_FORMAT, "not an ELF file (bad magic %02x %02x %02x %02x)",
                    d[0], d[1], d[2], d[3]);
    if (d[4] != 1 && d[4] != 2)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "bad ELF class %u (want 1 = ELF32 or 2 = ELF64)", d[4]);
    if (d[5] != 1)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "ELF data encoding %u is not little-endian (1)", d[5]);
    if (d[6] != 1)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "bad ELF version %u in e_ident (want 1)", d[6]);
    e->is64 = d[4] == 2;
    e->osabi = d[7];
    e->abiversion = d[8];
    return UMB_OK;
}

static umb_status parse_phdrs(umb_elf *e, uint64_t phoff, uint16_t phentsize, uint16_t phnum)
{
    const ehdr_layout *L = e->is64 ? &layout64 : &layout32;
    if (phnum == 0) return UMB_OK;
    if (phentsize < L->phdr_size)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "program header entry size %u is smaller than %u",
                    phentsize, L->phdr_size);
    if (!in_file(e, phoff, (uint64_t)phentsize * phnum))
        return umb_elf_fail(e, UMB_ERR_FORMAT, "program header table (offset 0x%llx, %u entries of %u "
                    "bytes) extends past the end of the file (%zu bytes)",
                    (unsigned long long)phoff, phnum, phentsize, e->size);
    e->phdrs = calloc(phnum, sizeof *e->phdrs);
    if (!e->phdrs) return umb_elf_fail(e, UMB_ERR_NOMEM, "out of memory");
    e->phnum = phnum;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *p = e->data + phoff + (uint64_t)i * phentsize;
        umb_elf_phdr *ph = &e->phdrs[i];
        ph->type = rd32(p);
        if (e->is64) {
            ph->flags = rd32(p + 4);
            ph->offset = rd64(p + 8);  ph->vaddr = rd64(p + 16); ph->paddr = rd64(p + 24);
            ph->filesz = rd64(p + 32); ph->memsz = rd64(p + 40); ph->align = rd64(p + 48);
        } else {
            ph->offset = rd32(p + 4);  ph->vaddr = rd32(p + 8);  ph->paddr = rd32(p + 12);
            ph->filesz = rd32(p + 16); ph->memsz = rd32(p + 20); ph->flags = rd32(p + 24);
            ph->align = rd32(p + 28);
        }
        if (ph->type == UMB_PT_LOAD || ph->type == UMB_PT_NOTE) {
            if (!in_file(e, ph->offset, ph->filesz))
                return umb_elf_fail(e, UMB_ERR_FORMAT, "program header %u: file bytes [0x%llx, +0x%llx) "
                            "extend past the end of the file (%zu bytes)", i,
                            (unsigned long long)ph->offset, (unsigned long long)ph->filesz, e->size);
        }
        if (ph->type == UMB_PT_LOAD) {
            if (ph->filesz > ph->memsz)
                return umb_elf_fail(e, UMB_ERR_FORMAT, "program header %u: filesz 0x%llx > memsz 0x%llx", i,
                            (unsigned long long)ph->filesz, (unsigned long long)ph->memsz);
            if (ph->vaddr + ph->memsz < ph->vaddr || (!e->is64 && ph->vaddr + ph->memsz > 0x100000000ull))
                return umb_elf_fail(e, UMB_ERR_FORMAT, "program header %u: segment [0x%llx, +0x%llx) wraps "
                            "around the address space", i, (unsigned long long)ph->vaddr,
                            (unsigned long long)ph->memsz);
        }
    }
    return UMB_OK;
}

static void read_shdr(const umb_elf *e, const uint8_t *p, umb_elf_shdr *sh, uint32_t *name_off)
{
    *name_off = rd32(p);
    sh->type = rd32(p + 4);
    if (e->is64) {
        sh->flags = rd64(p + 8);   sh->addr = rd64(p + 16); sh->offset = rd64(p + 24);
        sh->size = rd64(p + 32);   sh->link = rd32(p + 40); sh->info = rd32(p + 44);
        sh->addralign = rd64(p + 48); sh->entsize = rd64(p + 56);
    } else {
        sh->flags = rd32(p + 8);   sh->addr = rd32(p + 12); sh->offset = rd32(p + 16);
        sh->size = rd32(p + 20);   sh->link = rd32(p + 24); sh->info = rd32(p + 28);
        sh->addralign = rd32(p + 32); sh->entsize = rd32(p + 36);
    }
}

/* A string at offset off of string-table section st, NUL-terminated inside it; NULL if not. */
static const char *strtab_string(const umb_elf *e, const umb_elf_shdr *st, uint64_t off)
{
    if (st->type == UMB_SHT_NOBITS || off >= st->size) return NULL;
    const char *s = (const char *)e->data + st->offset + off;
    if (!memchr(s, 0, (size_t)(st->size - off))) return NULL;
    return s;
}

static umb_status parse_shdrs(umb_elf *e, uint64_t shoff, uint16_t shentsize, uint16_t shnum,
                              uint16_t shstrndx)
{
    const ehdr_layout *L = e->is64 ? &layout64 : &layout32;
    if (shnum == 0) return UMB_OK;
    if (shentsize < L->shdr_size)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "section header entry size %u is smaller than %u",
                    shentsize, L->shdr_size);
    if (!in_file(e, shoff, (uint64_t)shentsize * shnum))
        return umb_elf_fail(e, UMB_ERR_FORMAT, "section header table (offset 0x%llx, %u entries of %u "
                    "bytes) extends past the end of the file (%zu bytes)",
                    (unsigned long long)shoff, shnum, shentsize, e->size);
    e->shdrs = calloc(shnum, sizeof *e->shdrs);
    uint32_t *name_offs = calloc(shnum, sizeof *name_offs);
    if (!e->shdrs || !name_offs) {
        free(name_offs);
        return umb_elf_fail(e, UMB_ERR_NOMEM, "out of memory");
    }
    e->shnum = shnum;
    umb_status st = UMB_OK;
    for (uint32_t i = 0; i < shnum && st == UMB_OK; i++) {
        umb_elf_shdr *sh = &e->shdrs[i];
        read_shdr(e, e->data + shoff + (uint64_t)i * shentsize, sh, &name_offs[i]);
        sh->name = "";
        if (sh->type != UMB_SHT_NOBITS && sh->type != UMB_SHT_NULL && !in_file(e, sh->offset, sh->size))
            st = umb_elf_fail(e, UMB_ERR_FORMAT, "section %u: bytes [0x%llx, +0x%llx) extend past the end "
                      "of the file (%zu bytes)", i, (unsigned long long)sh->offset,
                      (unsigned long long)sh->size, e->size);
    }
    if (st == UMB_OK && shstrndx != 0) {
        if (shstrndx >= shnum || e->shdrs[shstrndx].type != UMB_SHT_STRTAB) {
            st = umb_elf_fail(e, UMB_ERR_FORMAT, "section-name table index %u is not a string table "
                      "(%u sections)", shstrndx, shnum);
        } else {
            for (uint32_t i = 0; i < shnum && st == UMB_OK; i++) {
                const char *n = strtab_string(e, &e->shdrs[shstrndx], name_offs[i]);
                if (!n)
                    st = umb_elf_fail(e, UMB_ERR_FORMAT, "section %u: name offset 0x%x is outside the "
                              "section-name table or not NUL-terminated", i, name_offs[i]);
                else
                    e->shdrs[i].name = n;
            }
        }
    }
    free(name_offs);
    return st;
}

/* Pick the symbol table and check it and its string table once, so that symbol reads only need
 * the per-symbol name check. */
static umb_status find_symtab(umb_elf *e)
{
    const ehdr_layout *L = e->is64 ? &layout64 : &layout32;
    e->symtab = -1;
    for (uint32_t pass = 0; pass < 2 && e->symtab < 0; pass++) {
        uint32_t want = pass == 0 ? UMB_SHT_SYMTAB : UMB_SHT_DYNSYM;
        for (uint32_t i = 0; i < e->shnum; i++)
            if (e->shdrs[i].type == want) { e->symtab = (int32_t)i; break; }
    }
    if (e->symtab < 0) return UMB_OK;
    const umb_elf_shdr *sh = &e->shdrs[e->symtab];
    if (sh->entsize < L->sym_size)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "symbol table '%s': entry size %llu is smaller than %u",
                    umb_guest_text(&(umb_guest_text_buf){0}, sh->name), (unsigned long long)sh->entsize, L->sym_size);
    if (sh->link >= e->shnum || e->shdrs[sh->link].type != UMB_SHT_STRTAB)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "symbol table '%s': linked string table %u is not a string "
                    "table", umb_guest_text(&(umb_guest_text_buf){0}, sh->name), sh->link);
    e->nsyms = (uint32_t)(sh->size / sh->entsize);
    return UMB_OK;
}

static umb_status parse_all(umb_elf *e)
{
    umb_status st = parse_ident(e);
    if (st != UMB_OK) return st;
    const ehdr_layout *L = e->is64 ? &layout64 : &layout32;
    if (e->size < L->size)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "ELF%s header truncated: file has %zu bytes, the header "
                    "needs %u", e->is64 ? "64" : "32", e->size, L->size);
    const uint8_t *d = e->data;
    e->type = rd16(d + 16);
    e->machine = rd16(d + 18);
    if (rd32(d + 20) != 1)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "bad e_version %u (want 1)", rd32(d + 20));
    e->entry = rdaddr(e, d + L->entry);
    e->flags = rd32(d + L->flags);
    st = parse_phdrs(e, rdaddr(e, d + L->phoff), rd16(d + L->phentsize), rd16(d + L->phnum));
    if (st == UMB_OK)
        st = parse_shdrs(e, rdaddr(e, d + L->shoff), rd16(d + L->shentsize), rd16(d + L->shnum),
                         rd16(d + L->shstrndx));
    if (st == UMB_OK) st = find_symtab(e);
    return st;
}

umb_status umb_elf_open_memory(umb_elf *e, const char *path, const void *data, size_t size)
{
    memset(e, 0, sizeof *e);
    e->symtab = -1;
    e->path = strdup(path ? path : "<elf>");
    e->data = data;
    e->size = data ? size : 0;
    umb_status st = parse_all(e);
    if (st != UMB_OK) {
        /* nothing stays allocated after a failure; only the message is kept */
        char saved[sizeof e->error];
        memcpy(saved, e->error, sizeof saved);
        umb_elf_close(e);
        memcpy(e->error, saved, sizeof saved);
    }
    return st;
}

umb_status umb_elf_open_file(umb_elf *e, const char *path)
{
    memset(e, 0, sizeof *e);
    e->symtab = -1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        e->path = (char *)path; /* only for this message; reset below */
        umb_elf_fail(e, UMB_ERR_IO, "cannot open: %s", strerror(errno));
        e->path = NULL;
        return UMB_ERR_IO;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) { free(buf); fclose(f); return UMB_ERR_NOMEM; }
            buf = nb;
            cap = ncap;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        e->path = (char *)path;
        umb_elf_fail(e, UMB_ERR_IO, "read error");
        e->path = NULL;
        return UMB_ERR_IO;
    }
    umb_status st = umb_elf_open_memory(e, path, buf, len);
    if (st != UMB_OK) { free(buf); return st; }
    e->owned = buf;
    return UMB_OK;
}

void umb_elf_close(umb_elf *e)
{
    free(e->phdrs);
    free(e->shdrs);
    free(e->owned);
    free(e->path);
    memset(e, 0, sizeof *e);
    e->symtab = -1;
}

/* ---- sections ---- */

const umb_elf_shdr *umb_elf_section_by_name(const umb_elf *e, const char *name)
{
    for (uint32_t i = 0; i < e->shnum; i++)
        if (!strcmp(e->shdrs[i].name, name)) return &e->shdrs[i];
    return NULL;
}

const uint8_t *umb_elf_section_data(const umb_elf *e, const umb_elf_shdr *sh)
{
    if (!sh || sh->type == UMB_SHT_NOBITS || sh->type == UMB_SHT_NULL || sh->size == 0) return NULL;
    return e->data + sh->offset; /* bounds checked in parse_shdrs */
}

/* ---- symbols ---- */

uint32_t umb_elf_symbol_count(const umb_elf *e) { return e->symtab < 0 ? 0 : e->nsyms; }

umb_status umb_elf_symbol(umb_elf *e, uint32_t index, umb_elf_sym *out)
{
    if (index >= umb_elf_symbol_count(e))
        return umb_elf_fail(e, UMB_ERR_INVALID, "symbol index %u out of range (%u symbols)", index,
                    umb_elf_symbol_count(e));
    const umb_elf_shdr *sh = &e->shdrs[e->symtab];
    const uint8_t *p = e->data + sh->offset + (uint64_t)index * sh->entsize;
    uint32_t name_off = rd32(p);
    if (e->is64) {
        uint8_t info = p[4];
        out->type = info & 0xf; out->bind = info >> 4; out->other = p[5];
        out->shndx = rd16(p + 6); out->value = rd64(p + 8); out->size = rd64(p + 16);
    } else {
        out->value = rd32(p + 4); out->size = rd32(p + 8);
        uint8_t info = p[12];
        out->type = info & 0xf; out->bind = info >> 4; out->other = p[13];
        out->shndx = rd16(p + 14);
    }
    const char *n = strtab_string(e, &e->shdrs[sh->link], name_off);
    if (!n)
        return umb_elf_fail(e, UMB_ERR_FORMAT, "symbol %u: name offset 0x%x is outside the string table "
                    "or not NUL-terminated", index, name_off);
    out->name = n;
    return UMB_OK;
}

umb_status umb_elf_find_symbol(umb_elf *e, const char *name, umb_elf_sym *out)
{
    uint32_t n = umb_elf_symbol_count(e);
    for (uint32_t i = 1; i < n; i++) {
        umb_elf_sym s;
        umb_status st = umb_elf_symbol(e, i, &s);
        if (st != UMB_OK) return st;
        if (s.shndx != UMB_SHN_UNDEF && !strcmp(s.name, name)) {
            *out = s;
            return UMB_OK;
        }
    }
    umb_guest_text_buf g;
    return umb_elf_fail(e, UMB_ERR_INVALID, "no symbol named '%s'", umb_guest_text(&g, name));
}

/* ---- notes ---- */

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* Walk the notes in [off, off+len) of the file; `where` names the container in messages. */
static umb_status walk_notes(umb_elf *e, uint64_t off, uint64_t len, uint64_t align,
                             const char *where, umb_elf_note_fn fn, void *ctx, bool *stop)
{
    uint64_t pos = 0;
    /* Notes are 4-byte aligned; ELF64 files may declare 8 (then name and desc pad to 8). */
    uint64_t a = align == 8 ? 8 : 4;
    while (pos < len && !*stop) {
        if (len - pos < 12)
            return umb_elf_fail(e, UMB_ERR_FORMAT, "%s: note header at offset 0x%llx truncated", where,
                        (unsigned long long)(off + pos));
        const uint8_t *p = e->data + off + pos;
        umb_elf_note n;
        n.namesz = rd32(p);
        n.descsz = rd32(p + 4);
        n.type = rd32(p + 8);
        uint64_t name_pos = pos + 12;
        uint64_t desc_pos = align_up(name_pos + n.namesz, a);
        uint64_t end = align_up(desc_pos + n.descsz, a);
        if (desc_pos > len || n.descsz > len - desc_pos)
            return umb_elf_fail(e, UMB_ERR_FORMAT, "%s: note at offset 0x%llx (name size %u, desc size %u) "
                        "extends past its container", where, (unsigned long long)(off + pos),
                        n.namesz, n.descsz);
        const char *nm = (const char *)e->data + off + name_pos;
        n.name = (n.namesz > 0 && nm[n.namesz - 1] == '\0') ? nm : "";
        n.desc = e->data + off + desc_pos;
        if (!fn(ctx, &n)) *stop = true;
        pos = end;
    }
    return UMB_OK;
}

umb_status umb_elf_for_each_note(umb_elf *e, umb_elf_note_fn fn, void *ctx)
{
    bool stop = false, any_segment = false;
    char where[UMB_GUEST_TEXT_MAX + 32];
    for (uint32_t i = 0; i < e->phnum && !stop; i++) {
        const umb_elf_phdr *ph = &e->phdrs[i];
        if (ph->type != UMB_PT_NOTE) continue;
        any_segment = true;
        snprintf(where, sizeof where, "PT_NOTE segment %u", i);
        umb_status st = walk_notes(e, ph->offset, ph->filesz, ph->align, where, fn, ctx, &stop);
        if (st != UMB_OK) return st;
    }
    for (uint32_t i = 0; i < e->shnum && !stop && !any_segment; i++) {
        const umb_elf_shdr *sh = &e->shdrs[i];
        if (sh->type != UMB_SHT_NOTE) continue;
        umb_guest_text_buf g;
        snprintf(where, sizeof where, "note section '%s'", umb_guest_text(&g, sh->name));
        umb_status st = walk_notes(e, sh->offset, sh->size, sh->addralign, where, fn, ctx, &stop);
        if (st != UMB_OK) return st;
    }
    return UMB_OK;
}

/* ---- addresses ---- */

const uint8_t *umb_elf_vaddr_data(const umb_elf *e, uint64_t addr, uint64_t len)
{
    for (uint32_t i = 0; i < e->phnum; i++) {
        const umb_elf_phdr *ph = &e->phdrs[i];
        if (ph->type != UMB_PT_LOAD) continue;
        if (addr >= ph->vaddr && addr - ph->vaddr <= ph->filesz && len <= ph->filesz - (addr - ph->vaddr))
            return e->data + ph->offset + (addr - ph->vaddr);
    }
    return NULL;
}
