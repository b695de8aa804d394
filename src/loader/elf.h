/* A small ELF reader shared by both front ends (Ventus RV32 objects, AMDGPU ELF64 code objects).
 *
 * It reads little-endian ELF32 and ELF64 from a memory buffer. Every offset and size found in the
 * file is checked against the buffer before use, so a truncated or corrupted file gives an error
 * message (naming the file and what is wrong) and never a crash. The parsed tables are copied into
 * native structs at open time; symbol and note payloads are read lazily, with the same checks.
 */
#ifndef UMBRA_LOADER_ELF_H
#define UMBRA_LOADER_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "umbra/device.h"

/* The few constants callers need (values from the ELF specification). */
enum {
    UMB_ET_REL = 1, UMB_ET_EXEC = 2, UMB_ET_DYN = 3,
    UMB_EM_RISCV = 243, UMB_EM_AMDGPU = 224,
    UMB_PT_NULL = 0, UMB_PT_LOAD = 1, UMB_PT_DYNAMIC = 2, UMB_PT_NOTE = 4,
    UMB_SHT_NULL = 0, UMB_SHT_PROGBITS = 1, UMB_SHT_SYMTAB = 2, UMB_SHT_STRTAB = 3,
    UMB_SHT_NOTE = 7, UMB_SHT_NOBITS = 8, UMB_SHT_DYNSYM = 11,
    UMB_PF_X = 1, UMB_PF_W = 2, UMB_PF_R = 4,
    UMB_STT_NOTYPE = 0, UMB_STT_OBJECT = 1, UMB_STT_FUNC = 2, UMB_STT_SECTION = 3,
    UMB_STB_LOCAL = 0, UMB_STB_GLOBAL = 1, UMB_STB_WEAK = 2,
    UMB_SHN_UNDEF = 0,
};

typedef struct umb_elf_phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, paddr, filesz, memsz, align;
} umb_elf_phdr;

typedef struct umb_elf_shdr {
    const char *name;           /* points into the file buffer; "" when the section has none */
    uint32_t type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t addralign, entsize;
} umb_elf_shdr;

typedef struct umb_elf_sym {
    const char *name;           /* points into the file buffer */
    uint64_t value, size;
    uint8_t type, bind, other;
    uint16_t shndx;
} umb_elf_sym;

typedef struct umb_elf_note {
    const char *name;           /* NUL-terminated inside the file, or "" */
    uint32_t namesz;            /* as stored (includes the NUL) */
    uint32_t type;
    const uint8_t *desc;
    uint32_t descsz;
} umb_elf_note;

typedef struct umb_elf {
    char *path;                 /* the file name used in messages */
    const uint8_t *data;
    size_t size;
    uint8_t *owned;             /* buffer read by umb_elf_open_file (freed by umb_elf_close) */

    bool is64;
    uint8_t osabi, abiversion;
    uint16_t type, machine;
    uint32_t flags;
    uint64_t entry;

    umb_elf_phdr *phdrs;
    uint32_t phnum;
    umb_elf_shdr *shdrs;
    uint32_t shnum;

    int32_t symtab;             /* index of the SHT_SYMTAB section (or SHT_DYNSYM), -1 if none */
    uint32_t nsyms;

    char error[4096 + 1024];    /* the last error: "FILE: what is wrong" (room for a long path) */
} umb_elf;

/* Parse an ELF image held in memory (the buffer must outlive the umb_elf). path only names the
 * file in messages. On failure e->error says why and the umb_elf needs no umb_elf_close (it is
 * safe to call anyway). */
umb_status umb_elf_open_memory(umb_elf *e, const char *path, const void *data, size_t size);
/* Read a whole file and parse it. */
umb_status umb_elf_open_file(umb_elf *e, const char *path);
void umb_elf_close(umb_elf *e);

/* Sections. */
const umb_elf_shdr *umb_elf_section_by_name(const umb_elf *e, const char *name);
/* Bytes of a section inside the file (NULL for SHT_NOBITS and empty sections). */
const uint8_t *umb_elf_section_data(const umb_elf *e, const umb_elf_shdr *sh);

/* Symbols of the symbol table (.symtab, else .dynsym). Index 0 is the null symbol. A symbol
 * whose fields point outside the file fails with e->error set. */
uint32_t umb_elf_symbol_count(const umb_elf *e);
umb_status umb_elf_symbol(umb_elf *e, uint32_t index, umb_elf_sym *out);
/* First defined symbol (shndx != UNDEF) with this name; UMB_ERR_INVALID if there is none. */
umb_status umb_elf_find_symbol(umb_elf *e, const char *name, umb_elf_sym *out);

/* Notes: every note of the PT_NOTE segments, or of the SHT_NOTE sections when the file has no
 * PT_NOTE segment (relocatable objects). The callback returns false to stop early. */
typedef bool (*umb_elf_note_fn)(void *ctx, const umb_elf_note *note);
umb_status umb_elf_for_each_note(umb_elf *e, umb_elf_note_fn fn, void *ctx);

/* Set e->error to "FILE: <message>" and return st (for the loaders built on this reader). */
umb_status umb_elf_fail(umb_elf *e, umb_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Map every PT_LOAD segment at vaddr + bias and copy its file bytes; the bytes between filesz
 * and memsz are written as zeros (also when the pages were mapped and written before). */
umb_status umb_elf_load_segments(umb_elf *e, umb_device *dev, uint64_t bias);

/* Virtual address -> file bytes of the PT_LOAD segment holding [addr, addr+len); NULL if the
 * range is not wholly in the file part of one segment. */
const uint8_t *umb_elf_vaddr_data(const umb_elf *e, uint64_t addr, uint64_t len);

#endif
