/* Unit tests of the ELF reader (src/loader/elf.c).
 *
 * The test builds small ELF32 and ELF64 images in memory (its own writer, following the ELF
 * specification's field layout), checks every parsed field against the values it wrote, then feeds
 * the reader every truncation, a list of targeted corruptions (each with the message it must give)
 * and thousands of random byte flips. Under ASan/UBSan a crash or an out-of-bounds read fails the
 * test. An optional argument names a real ELF linked by ld.lld-19 at test time whose symbols are
 * checked against the addresses the linker was told to use.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/elf.h"

static int failures;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

/* ---- a tiny ELF writer ---- */

typedef struct img {
    uint8_t b[4096];
    size_t len;
    int is64;
} img;

static void p16(img *m, size_t at, uint32_t v) { m->b[at] = (uint8_t)v; m->b[at + 1] = (uint8_t)(v >> 8); }
static void p32(img *m, size_t at, uint32_t v) { p16(m, at, v & 0xffff); p16(m, at + 2, v >> 16); }
static void p64(img *m, size_t at, uint64_t v) { p32(m, at, (uint32_t)v); p32(m, at + 4, (uint32_t)(v >> 32)); }
static void pa(img *m, size_t at, uint64_t v) { if (m->is64) p64(m, at, v); else p32(m, at, (uint32_t)v); }

/* File offsets of the parts of the test image. */
enum { OFF_PH = 0x40, OFF_TEXT = 0x100, OFF_NOTE = 0x120, OFF_STR = 0x160, OFF_SYM = 0x180,
       OFF_SHSTR = 0x200, OFF_SH = 0x280 };
enum { TEXT_ADDR = 0x80000000u, BSS_ADDR = 0x80001000u };
static const char strtab[] = "\0_start\0data_sym\0";              /* _start @1, data_sym @8 */
static const char shstrtab[] = "\0.text\0.note\0.bss\0.symtab\0.strtab\0.shstrtab\0";
/* name offsets inside shstrtab */
enum { SN_TEXT = 1, SN_NOTE = 7, SN_BSS = 13, SN_SYMTAB = 18, SN_STRTAB = 26, SN_SHSTRTAB = 34 };
static const uint32_t text_words[4] = {0x00000513u, 0x00150513u, 0x0000400bu, 0x00000013u};
static const uint8_t note_desc[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static void put_shdr(img *m, int i, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr,
                     uint64_t off, uint64_t size, uint32_t link, uint32_t info, uint64_t align,
                     uint64_t entsize)
{
    size_t at = OFF_SH + (size_t)i * (m->is64 ? 64 : 40);
    p32(m, at, name);
    p32(m, at + 4, type);
    if (m->is64) {
        p64(m, at + 8, flags); p64(m, at + 16, addr); p64(m, at + 24, off); p64(m, at + 32, size);
        p32(m, at + 40, link); p32(m, at + 44, info); p64(m, at + 48, align); p64(m, at + 56, entsize);
    } else {
        p32(m, at + 8, (uint32_t)flags); p32(m, at + 12, (uint32_t)addr); p32(m, at + 16, (uint32_t)off);
        p32(m, at + 20, (uint32_t)size); p32(m, at + 24, link); p32(m, at + 28, info);
        p32(m, at + 32, (uint32_t)align); p32(m, at + 36, (uint32_t)entsize);
    }
}

static void put_phdr(img *m, int i, uint32_t type, uint32_t flags, uint64_t off, uint64_t va,
                     uint64_t filesz, uint64_t memsz, uint64_t align)
{
    size_t at = OFF_PH + (size_t)i * (m->is64 ? 56 : 32);
    p32(m, at, type);
    if (m->is64) {
        p32(m, at + 4, flags); p64(m, at + 8, off); p64(m, at + 16, va); p64(m, at + 24, va);
        p64(m, at + 32, filesz); p64(m, at + 40, memsz); p64(m, at + 48, align);
    } else {
        p32(m, at + 4, (uint32_t)off); p32(m, at + 8, (uint32_t)va); p32(m, at + 12, (uint32_t)va);
        p32(m, at + 16, (uint32_t)filesz); p32(m, at + 20, (uint32_t)memsz); p32(m, at + 24, flags);
        p32(m, at + 28, (uint32_t)align);
    }
}

static void put_sym(img *m, int i, uint32_t name, uint64_t value, uint64_t size, uint8_t info,
                    uint16_t shndx)
{
    size_t at = OFF_SYM + (size_t)i * (m->is64 ? 24 : 16);
    p32(m, at, name);
    if (m->is64) {
        m->b[at + 4] = info; p16(m, at + 6, shndx); p64(m, at + 8, value); p64(m, at + 16, size);
    } else {
        p32(m, at + 4, (uint32_t)value); p32(m, at + 8, (uint32_t)size); m->b[at + 12] = info;
        p16(m, at + 14, shndx);
    }
}

enum { NSECT = 7, NOTE_SIZE = 12 + 8 + 8 };

static void build(img *m, int is64)
{
    memset(m, 0, sizeof *m);
    m->is64 = is64;
    memcpy(m->b, "\x7f" "ELF", 4);
    m->b[4] = is64 ? 2 : 1;
    m->b[5] = 1;
    m->b[6] = 1;
    m->b[7] = is64 ? 64 : 0;  /* osabi (AMDGPU HSA = 64) */
    m->b[8] = is64 ? 3 : 0;
    p16(m, 16, 2);                                   /* ET_EXEC */
    p16(m, 18, is64 ? UMB_EM_AMDGPU : UMB_EM_RISCV);
    p32(m, 20, 1);
    unsigned e = is64 ? 24 : 24;
    pa(m, e, TEXT_ADDR);                            /* entry */
    pa(m, e + (is64 ? 8 : 4), OFF_PH);              /* phoff */
    pa(m, e + (is64 ? 16 : 8), OFF_SH);             /* shoff */
    unsigned f = is64 ? 48 : 36;
    p32(m, f, 0x1234);                              /* flags */
    p16(m, f + 4, is64 ? 64 : 52);                  /* ehsize */
    p16(m, f + 6, is64 ? 56 : 32);                  /* phentsize */
    p16(m, f + 8, 3);                               /* phnum */
    p16(m, f + 10, is64 ? 64 : 40);                 /* shentsize */
    p16(m, f + 12, NSECT);                          /* shnum */
    p16(m, f + 14, NSECT - 1);                      /* shstrndx */

    /* segments: text (filesz 16, memsz 0x1100 so the tail is zero-filled), a note, a bss-only one */
    put_phdr(m, 0, UMB_PT_LOAD, UMB_PF_R | UMB_PF_X, OFF_TEXT, TEXT_ADDR, 16, 16, 4096);
    put_phdr(m, 1, UMB_PT_NOTE, UMB_PF_R, OFF_NOTE, 0, NOTE_SIZE, NOTE_SIZE, 4);
    put_phdr(m, 2, UMB_PT_LOAD, UMB_PF_R | UMB_PF_W, OFF_TEXT + 16, BSS_ADDR, 0, 64, 4096);

    for (int i = 0; i < 4; i++) p32(m, OFF_TEXT + 4 * (size_t)i, text_words[i]);
    p32(m, OFF_NOTE, 7);                            /* namesz "AMDGPU\0" */
    p32(m, OFF_NOTE + 4, 8);                        /* descsz */
    p32(m, OFF_NOTE + 8, 32);                       /* type */
    memcpy(m->b + OFF_NOTE + 12, "AMDGPU", 7);
    memcpy(m->b + OFF_NOTE + 20, note_desc, 8);
    memcpy(m->b + OFF_STR, strtab, sizeof strtab);
    put_sym(m, 0, 0, 0, 0, 0, 0);
    put_sym(m, 1, 1, TEXT_ADDR, 16, (UMB_STB_GLOBAL << 4) | UMB_STT_FUNC, 1);
    put_sym(m, 2, 8, BSS_ADDR, 4, (UMB_STB_GLOBAL << 4) | UMB_STT_OBJECT, 3);
    memcpy(m->b + OFF_SHSTR, shstrtab, sizeof shstrtab);
    unsigned symsz = is64 ? 24 : 16;
    put_shdr(m, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    put_shdr(m, 1, SN_TEXT, UMB_SHT_PROGBITS, 6, TEXT_ADDR, OFF_TEXT, 16, 0, 0, 4, 0);
    put_shdr(m, 2, SN_NOTE, UMB_SHT_NOTE, 2, 0, OFF_NOTE, NOTE_SIZE, 0, 0, 4, 0);
    put_shdr(m, 3, SN_BSS, UMB_SHT_NOBITS, 3, BSS_ADDR, OFF_TEXT + 16, 64, 0, 0, 4, 0);
    put_shdr(m, 4, SN_SYMTAB, UMB_SHT_SYMTAB, 0, 0, OFF_SYM, 3 * symsz, 5, 1, 8, symsz);
    put_shdr(m, 5, SN_STRTAB, UMB_SHT_STRTAB, 0, 0, OFF_STR, sizeof strtab, 0, 0, 1, 0);
    put_shdr(m, 6, SN_SHSTRTAB, UMB_SHT_STRTAB, 0, 0, OFF_SHSTR, sizeof shstrtab, 0, 0, 1, 0);
    m->len = OFF_SH + (size_t)NSECT * (is64 ? 64 : 40);
}

/* ---- checks of a good image ---- */

typedef struct note_seen { int count; uint32_t type; char name[16]; uint8_t desc[8]; uint32_t descsz; } note_seen;

static bool on_note(void *ctx, const umb_elf_note *n)
{
    note_seen *s = ctx;
    s->count++;
    s->type = n->type;
    snprintf(s->name, sizeof s->name, "%s", n->name);
    s->descsz = n->descsz;
    memcpy(s->desc, n->desc, n->descsz < 8 ? n->descsz : 8);
    return true;
}

static void check_good(int is64)
{
    img m;
    build(&m, is64);
    umb_elf e;
    umb_status st = umb_elf_open_memory(&e, "good.elf", m.b, m.len);
    CHECK(st == UMB_OK, "ELF%d: %s", is64 ? 64 : 32, e.error);
    if (st != UMB_OK) return;
    CHECK(e.is64 == (is64 != 0), "class");
    CHECK(e.type == 2 && e.machine == (is64 ? UMB_EM_AMDGPU : UMB_EM_RISCV), "type/machine %u %u", e.type, e.machine);
    CHECK(e.entry == TEXT_ADDR && e.flags == 0x1234, "entry 0x%llx flags 0x%x", (unsigned long long)e.entry, e.flags);
    CHECK(e.osabi == (is64 ? 64 : 0) && e.abiversion == (is64 ? 3 : 0), "osabi");
    CHECK(e.phnum == 3 && e.phdrs[0].type == UMB_PT_LOAD && e.phdrs[0].vaddr == TEXT_ADDR &&
          e.phdrs[0].filesz == 16 && e.phdrs[2].memsz == 64 && e.phdrs[2].vaddr == BSS_ADDR && e.phdrs[0].flags == (UMB_PF_R | UMB_PF_X),
          "phdrs");
    CHECK(e.shnum == NSECT, "shnum %u", e.shnum);
    const umb_elf_shdr *text = umb_elf_section_by_name(&e, ".text");
    CHECK(text && text->addr == TEXT_ADDR && text->size == 16, ".text");
    const uint8_t *td = umb_elf_section_data(&e, text);
    CHECK(td && !memcmp(td, m.b + OFF_TEXT, 16), ".text bytes");
    CHECK(umb_elf_section_data(&e, umb_elf_section_by_name(&e, ".bss")) == NULL, ".bss has no file bytes");
    CHECK(umb_elf_section_by_name(&e, ".nope") == NULL, "missing section");
    CHECK(!strcmp(e.shdrs[6].name, ".shstrtab") && !strcmp(e.shdrs[0].name, ""), "section names");
    CHECK(umb_elf_symbol_count(&e) == 3, "nsyms %u", umb_elf_symbol_count(&e));
    umb_elf_sym s;
    CHECK(umb_elf_find_symbol(&e, "data_sym", &s) == UMB_OK && s.value == BSS_ADDR && s.size == 4 &&
          s.type == UMB_STT_OBJECT && s.bind == UMB_STB_GLOBAL && s.shndx == 3, "data_sym");
    CHECK(umb_elf_find_symbol(&e, "_start", &s) == UMB_OK && s.value == TEXT_ADDR && s.type == UMB_STT_FUNC, "_start");
    CHECK(umb_elf_find_symbol(&e, "missing", &s) == UMB_ERR_INVALID && strstr(e.error, "missing") &&
          strstr(e.error, "good.elf"), "missing symbol message: %s", e.error);
    CHECK(umb_elf_symbol(&e, 3, &s) == UMB_ERR_INVALID, "symbol index past the end");
    note_seen ns = {0};
    CHECK(umb_elf_for_each_note(&e, on_note, &ns) == UMB_OK, "%s", e.error);
    CHECK(ns.count == 1 && ns.type == 32 && !strcmp(ns.name, "AMDGPU") && ns.descsz == 8 &&
          !memcmp(ns.desc, note_desc, 8), "note: %d %u '%s'", ns.count, ns.type, ns.name);
    const uint8_t *v = umb_elf_vaddr_data(&e, TEXT_ADDR + 4, 8);
    CHECK(v && v == m.b + OFF_TEXT + 4, "vaddr_data");
    CHECK(umb_elf_vaddr_data(&e, TEXT_ADDR + 12, 8) == NULL, "vaddr_data past filesz");
    CHECK(umb_elf_vaddr_data(&e, BSS_ADDR, 4) == NULL, "vaddr_data in bss");
    umb_elf_close(&e);
}

/* ---- malformed images ---- */

/* Open must fail with the given status and a message naming the file and containing `want`. */
static void expect_fail(const img *m, size_t len, umb_status want_st, const char *want, const char *what)
{
    umb_elf e;
    umb_status st = umb_elf_open_memory(&e, "bad.elf", m->b, len);
    CHECK(st == want_st, "%s: status %d (%s)", what, (int)st, e.error);
    CHECK(!strncmp(e.error, "bad.elf: ", 9), "%s: message does not name the file: %s", what, e.error);
    CHECK(strstr(e.error, want) != NULL, "%s: message '%s' lacks '%s'", what, e.error, want);
    umb_elf_close(&e);
}

/* Use everything a parsed image offers (for the fuzz loops: must not crash). */
static bool ignore_note(void *ctx, const umb_elf_note *n) { (void)ctx; (void)n; return true; }
static void exercise(const uint8_t *b, size_t len)
{
    umb_elf e;
    if (umb_elf_open_memory(&e, "fuzz.elf", b, len) != UMB_OK) {
        CHECK(!strncmp(e.error, "fuzz.elf: ", 10) && strlen(e.error) > 12, "fuzz message: %s", e.error);
        umb_elf_close(&e);
        return;
    }
    umb_elf_sym s;
    for (uint32_t i = 0; i < umb_elf_symbol_count(&e); i++) (void)umb_elf_symbol(&e, i, &s);
    (void)umb_elf_find_symbol(&e, "_start", &s);
    (void)umb_elf_for_each_note(&e, ignore_note, NULL);
    for (uint32_t i = 0; i < e.shnum; i++) {
        const uint8_t *d = umb_elf_section_data(&e, &e.shdrs[i]);
        volatile uint8_t sink = 0;
        for (uint64_t k = 0; d && k < e.shdrs[i].size; k++) sink ^= d[k];
        (void)sink;
    }
    for (uint32_t i = 0; i < e.phnum; i++) (void)umb_elf_vaddr_data(&e, e.phdrs[i].vaddr, e.phdrs[i].filesz);
    umb_elf_close(&e);
}

static void check_bad(int is64)
{
    img m;
    build(&m, is64);
    unsigned f = is64 ? 48 : 36;          /* e_flags offset; phentsize etc. follow */

    /* every truncation: the section table is at the end, so each one must fail cleanly */
    for (size_t len = 0; len < m.len; len++) {
        uint8_t *copy = malloc(len ? len : 1);   /* exact-size buffer: ASan sees any overread */
        memcpy(copy, m.b, len);
        umb_elf e;
        umb_status st = umb_elf_open_memory(&e, "trunc.elf", copy, len);
        CHECK(st == UMB_ERR_FORMAT, "truncated to %zu bytes: status %d", len, (int)st);
        CHECK(!strncmp(e.error, "trunc.elf: ", 11), "truncated to %zu: message '%s'", len, e.error);
        umb_elf_close(&e);
        free(copy);
    }
    expect_fail(&m, 10, UMB_ERR_FORMAT, "shorter than the 16-byte", "10 bytes");
    expect_fail(&m, 30, UMB_ERR_FORMAT, "header truncated", "30 bytes");
    expect_fail(&m, OFF_SH + 5, UMB_ERR_FORMAT, "section header table", "cut in section table");

    img c;
#define CORRUPT(stmt, want, what) do { c = m; stmt; expect_fail(&c, c.len, UMB_ERR_FORMAT, want, what); } while (0)
    CORRUPT(c.b[1] = 'X', "bad magic", "magic");
    CORRUPT(c.b[4] = 3, "bad ELF class 3", "class");
    CORRUPT(c.b[5] = 2, "not little-endian", "big endian");
    CORRUPT(p32(&c, 20, 7), "e_version 7", "version");
    CORRUPT(pa(&c, 24 + (is64 ? 8 : 4), 0xfffff000u), "program header table", "phoff past end");
    CORRUPT(p16(&c, f + 6, 8), "program header entry size 8", "phentsize");
    CORRUPT(p16(&c, f + 8, 200), "program header table", "phnum too large");
    CORRUPT(p16(&c, f + 10, 12), "section header entry size 12", "shentsize");
    CORRUPT(p16(&c, f + 12, 300), "section header table", "shnum too large");
    CORRUPT(p16(&c, f + 14, 40), "section-name table index 40", "shstrndx out of range");
    CORRUPT(p16(&c, f + 14, 1), "section-name table index 1", "shstrndx not a strtab");
    CORRUPT(put_phdr(&c, 0, UMB_PT_LOAD, 5, 0x1000, TEXT_ADDR, 64, 64, 4), "program header 0", "segment past end");
    CORRUPT(put_phdr(&c, 0, UMB_PT_LOAD, 5, OFF_TEXT, TEXT_ADDR, 32, 16, 4), "filesz 0x20 > memsz 0x10", "filesz > memsz");
    CORRUPT(put_phdr(&c, 0, UMB_PT_LOAD, 5, OFF_TEXT, is64 ? 0xfffffffffffff000ull : 0xfffff000u, 16, 0x2000, 4), "wraps", "segment wraps");
    CORRUPT(put_shdr(&c, 1, SN_TEXT, UMB_SHT_PROGBITS, 6, TEXT_ADDR, OFF_TEXT, 0x100000, 0, 0, 4, 0),
            "section 1", "section past end");
    CORRUPT(put_shdr(&c, 2, 0x999, UMB_SHT_NOTE, 2, 0, OFF_NOTE, NOTE_SIZE, 0, 0, 4, 0),
            "section 2: name offset 0x999", "section name offset");
    /* a section-name table whose last string is not terminated */
    CORRUPT((c.b[OFF_SHSTR + sizeof shstrtab - 1] = 'x', c.b[OFF_SHSTR + sizeof shstrtab - 2] = 'x'),
            "not NUL-terminated", "unterminated section name");
    CORRUPT(put_shdr(&c, 4, SN_SYMTAB, UMB_SHT_SYMTAB, 0, 0, OFF_SYM, 48, 5, 1, 8, 4),
            "entry size 4", "symbol entry size");
    CORRUPT(put_shdr(&c, 4, SN_SYMTAB, UMB_SHT_SYMTAB, 0, 0, OFF_SYM, 48, 1, 1, 8, is64 ? 24 : 16),
            "linked string table 1", "symtab link");
#undef CORRUPT

    /* errors found after a successful open: a bad symbol name, a note that overruns */
    c = m;
    put_sym(&c, 2, 0x500, BSS_ADDR, 4, 0x11, 3);
    umb_elf e;
    umb_elf_sym s;
    CHECK(umb_elf_open_memory(&e, "sym.elf", c.b, c.len) == UMB_OK, "%s", e.error);
    CHECK(umb_elf_find_symbol(&e, "data_sym", &s) == UMB_ERR_FORMAT && strstr(e.error, "symbol 2") &&
          strstr(e.error, "sym.elf"), "bad symbol name: %s", e.error);
    umb_elf_close(&e);
    c = m;
    p32(&c, OFF_NOTE + 4, 0x7ffffff0u);
    CHECK(umb_elf_open_memory(&e, "note.elf", c.b, c.len) == UMB_OK, "%s", e.error);
    CHECK(umb_elf_for_each_note(&e, ignore_note, NULL) == UMB_ERR_FORMAT && strstr(e.error, "note") &&
          strstr(e.error, "extends past"), "bad note: %s", e.error);
    umb_elf_close(&e);

    /* random byte flips (deterministic): never crash, every failure names the file */
    uint32_t rng = is64 ? 0x12345u : 0x6789u;
    for (int round = 0; round < 20000; round++) {
        c = m;
        int flips = 1 + round % 4;
        for (int k = 0; k < flips; k++) {
            rng = rng * 1103515245u + 12345u;
            size_t at = (rng >> 8) % c.len;
            rng = rng * 1103515245u + 12345u;
            c.b[at] = (uint8_t)(rng >> 16);
        }
        uint8_t *copy = malloc(c.len);
        memcpy(copy, c.b, c.len);
        exercise(copy, c.len);
        free(copy);
    }
}

/* A real object linked by ld.lld-19 (see CMakeLists.txt: .text at 0x80000000, the symbol
 * `value_word` is the word after four instructions of _start, so at 0x80000010). */
static void check_linked(const char *path)
{
    umb_elf e;
    umb_status st = umb_elf_open_file(&e, path);
    CHECK(st == UMB_OK, "%s", e.error);
    if (st != UMB_OK) return;
    umb_elf_sym s;
    CHECK(!e.is64 && e.machine == UMB_EM_RISCV && e.entry == 0x80000000u, "linked header");
    CHECK(umb_elf_find_symbol(&e, "_start", &s) == UMB_OK && s.value == 0x80000000u, "_start 0x%llx",
          (unsigned long long)s.value);
    CHECK(umb_elf_find_symbol(&e, "value_word", &s) == UMB_OK && s.value == 0x80000010u, "value_word");
    const uint8_t *w = umb_elf_vaddr_data(&e, 0x80000010u, 4);
    CHECK(w && w[0] == 0x78 && w[1] == 0x56 && w[2] == 0x34 && w[3] == 0x12, "value_word bytes");
    int loads = 0;
    for (uint32_t i = 0; i < e.phnum; i++) loads += e.phdrs[i].type == UMB_PT_LOAD;
    CHECK(loads >= 1, "PT_LOAD count %d", loads);
    umb_elf_close(&e);

    CHECK(umb_elf_open_file(&e, "/nonexistent/x.elf") == UMB_ERR_IO &&
          strstr(e.error, "/nonexistent/x.elf: cannot open"), "missing file: %s", e.error);
    umb_elf_close(&e);
}

/* PT_LOAD segments into device memory: file bytes copied, memsz beyond filesz zeroed even over
 * pages that an earlier image wrote (the bss-only segment at BSS_ADDR, memsz 64). */
static void check_load(int is64)
{
    img m;
    build(&m, is64);
    umb_elf e;
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    umb_device *dev;
    CHECK(umb_device_create(&cfg, &dev) == UMB_OK, "device");
    CHECK(umb_elf_open_memory(&e, "load.elf", m.b, m.len) == UMB_OK, "%s", e.error);
    uint8_t junk[80];
    memset(junk, 0xa5, sizeof junk);
    umb_mem_map(dev, BSS_ADDR, 4096);
    umb_mem_copy_to_device(dev, BSS_ADDR, junk, sizeof junk);
    CHECK(umb_elf_load_segments(&e, dev, 0) == UMB_OK, "%s", e.error);
    uint32_t w[4];
    CHECK(umb_mem_copy_from_device(dev, TEXT_ADDR, w, 16) == UMB_OK && !memcmp(w, text_words, 16), "text");
    uint8_t bss[80];
    CHECK(umb_mem_copy_from_device(dev, BSS_ADDR, bss, 80) == UMB_OK, "bss read");
    for (int i = 0; i < 64; i++) CHECK(bss[i] == 0, "ELF%d: bss byte %d = 0x%x", is64 ? 64 : 32, i, bss[i]);
    for (int i = 64; i < 80; i++) CHECK(bss[i] == 0xa5, "byte %d past memsz was touched", i);
    /* with a bias the same image lands higher */
    CHECK(umb_elf_load_segments(&e, dev, 0x100000) == UMB_OK, "%s", e.error);
    CHECK(umb_mem_copy_from_device(dev, TEXT_ADDR + 0x100000, w, 16) == UMB_OK && !memcmp(w, text_words, 16),
          "biased text");
    umb_elf_close(&e);
    umb_device_destroy(dev);
}

int main(int argc, char **argv)
{
    check_load(0);
    check_load(1);
    check_good(0);
    check_good(1);
    check_bad(0);
    check_bad(1);
    if (argc > 1) check_linked(argv[1]);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("elf: all checks passed\n");
    return 0;
}
