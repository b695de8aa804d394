/* `umbra disasm`: every executable section of a code object, laid out as llvm-objdump-19 -d does
 * (function labels, the text padded to a column, then "// ADDRESS: DWORDS"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/rdna3_runtime.h"

#define SHF_EXECINSTR 4u

typedef struct label {
    uint64_t addr;
    const char *name;
} label;

static int cmp_label(const void *a, const void *b)
{
    const label *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Function symbols inside [lo, hi), sorted by address. When none starts the section, llvm-objdump
 * labels its start with the section's name (<.text>) and symbolizes branch targets against it:
 * so does this list. */
static label *collect_labels(umb_elf *e, const char *section, uint64_t lo, uint64_t hi, uint32_t *count)
{
    uint32_t n = umb_elf_symbol_count(e), k = 0;
    label *v = calloc((size_t)n + 1, sizeof *v);
    if (!v) return NULL;
    for (uint32_t i = 1; i < n; i++) {
        umb_elf_sym s;
        if (umb_elf_symbol(e, i, &s) || s.type != UMB_STT_FUNC || s.shndx == UMB_SHN_UNDEF) continue;
        if (s.value < lo || s.value >= hi || !s.name[0]) continue;
        bool dup = false;
        for (uint32_t j = 0; j < k; j++) dup |= v[j].addr == s.value && !strcmp(v[j].name, s.name);
        if (!dup) v[k++] = (label){ s.value, s.name };
    }
    qsort(v, k, sizeof *v, cmp_label);
    if (k == 0 || v[0].addr != lo) {
        memmove(v + 1, v, k * sizeof *v);
        v[0] = (label){ lo, section };
        k++;
    }
    *count = k;
    return v;
}

/* llvm-objdump's branch annotation: " <func+0xoff>" for s_branch / s_cbranch_* targets. */
static void branch_note(const rdna3_inst *in, uint64_t addr, const label *labs, uint32_t nlab, char *buf, size_t len)
{
    buf[0] = '\0';
    const char *m = rdna3_mnemonic(in);
    if (in->fmt != RDNA3_FMT_SOPP || !m || (strncmp(m, "s_branch", 8) && strncmp(m, "s_cbranch_", 10))) return;
    uint64_t target = addr + 4 + (uint64_t)((int64_t)(int16_t)in->simm16 * 4);
    const label *best = NULL;
    for (uint32_t i = 0; i < nlab; i++)
        if (labs[i].addr <= target) best = &labs[i];
    if (best && target > best->addr) snprintf(buf, len, " <%s+0x%" PRIx64 ">", best->name, target - best->addr);
    else if (best) snprintf(buf, len, " <%s>", best->name);
}

static void disasm_section(umb_elf *e, const umb_elf_shdr *sh, const uint8_t *data, FILE *out)
{
    uint32_t nlab = 0, li = 0;
    label *labs = collect_labels(e, sh->name, sh->addr, sh->addr + sh->size, &nlab);
    fprintf(out, "\nDisassembly of section %s:\n", sh->name);
    uint64_t n = sh->size / 4;
    for (uint64_t i = 0; i < n;) {
        uint64_t addr = sh->addr + i * 4;
        for (; labs && li < nlab && labs[li].addr <= addr; li++)
            if (labs[li].addr == addr) fprintf(out, "\n%016" PRIx64 " <%s>:\n", addr, labs[li].name);
        uint32_t words[4] = { 0 };
        unsigned avail = n - i < 4 ? (unsigned)(n - i) : 4u;
        memcpy(words, data + i * 4, avail * 4);
        rdna3_inst in = { 0 };
        char text[256], err[128], hex[64];
        unsigned size = 4;
        if (rdna3_decode(words, avail, &in, err, sizeof err)) {
            rdna3_disasm(&in, text, sizeof text);
            size = in.size >= 4 && in.size <= 16 ? in.size : 4u;
        } else {
            snprintf(text, sizeof text, ".long 0x%08" PRIX32, words[0]);
        }
        size_t h = 0;
        for (unsigned w = 0; w < size / 4; w++)
            h += (size_t)snprintf(hex + h, sizeof hex - h, "%s%08" PRIX32, w ? " " : "", words[w]);
        char note[160] = "";
        if (size == in.size) branch_note(&in, addr, labs, nlab, note, sizeof note);
        fprintf(out, "\t%-59s// %012" PRIX64 ": %s%s\n", text, addr, hex, note);
        i += size / 4;
    }
    free(labs);
}

umb_status umb_rdna3_program_disasm(const umb_rdna3_program *p, FILE *out)
{
    umb_elf *e = (umb_elf *)&p->co.elf;
    fprintf(out, "\n%s:\tfile format elf64-amdgpu\n", e->path);
    for (uint32_t s = 0; s < e->shnum; s++) {
        const umb_elf_shdr *sh = &e->shdrs[s];
        if (sh->type != UMB_SHT_PROGBITS || !(sh->flags & SHF_EXECINSTR) || !sh->size) continue;
        const uint8_t *d = umb_elf_section_data(e, sh);
        if (!d) return UMB_ERR_FORMAT;
        disasm_section(e, sh, d, out);
    }
    return UMB_OK;
}
