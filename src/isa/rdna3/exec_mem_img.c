/* MIMG: image loads, stores, atomics, get_resinfo, samples and gather4 on linear (SW_LINEAR)
 * images (see docs/MEMORY_MODEL.md §Images; descriptors: src/mem/amd_image.h).
 *
 * Per instruction: the T# (and S#) from SGPRs, checked once (a malformed descriptor faults the
 * wave); per lane: the address components from VADDR (NSA or a tuple, A16 packed), the texel
 * coordinates and mip level, the texels through the format conversions of amd_format, DST_SEL,
 * then DMASK packs the enabled components into VDATA (D16: two per VGPR), TFE adds a status
 * dword (0: umbra has no partially resident textures). Every lane's address is read before any
 * result is written (a load may overwrite its own address). */
#include <math.h>
#include <string.h>

#include "isa/rdna3/exec_mem.h"
#include "isa/rdna3/mimg.h"
#include "mem/amd_buffer.h"
#include "mem/amd_format.h"
#include "mem/amd_image.h"

typedef struct img_ctx {
    amd_tsharp t;
    amd_ssharp s;
    const amd_buf_format *f;
    const rdna3_opinfo *oi;
    uint32_t bpe, slices;
    bool sampler, unnorm;
    amd_img_level base_lv;  /* the layout of level t.base_level (most accesses; set with the T#) */
    /* the texel format, decoded once per instruction for the per-texel loops */
    uint8_t comp_pos[4];    /* bit position of each component in the element */
    uint8_t decode;         /* TEXEL_GENERIC, TEXEL_WORDS32 or TEXEL_UNORM8 (texel_values) */
} img_ctx;

/* How texel_values turns an element into register values. The fast kinds give exactly what the
 * generic amd_fmt_get_raw + amd_fmt_load32 path gives, without its per-component bit walk. */
enum {
    TEXEL_GENERIC,
    TEXEL_WORDS32,   /* every component a whole 32-bit word, UINT, SINT or FLOAT: the word itself */
    TEXEL_UNORM8,    /* every component one byte, UNORM (not sRGB): byte / 255 rounded once to f32 */
};

/* The address components of one lane (see mimg.h for their order). */
typedef struct img_args {
    uint32_t offset;        /* _o: packed 6-bit texel offsets x[5:0], y[13:8], z[21:16] */
    float bias, zref;
    float gh[3], gv[3];     /* derivatives of each coordinate along h (x) and v (y) */
    uint32_t c[4];          /* coordinates: 32-bit values (A16: the 16-bit values, extended) */
    uint32_t l;             /* lod / clamp / mip */
} img_args;

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* The layout of `level` (per texel: the base level's is kept in the context, not walked again). */
static void img_level(const img_ctx *c, unsigned level, amd_img_level *lv)
{
    if (level == c->t.base_level) *lv = c->base_lv;
    else amd_img_level_layout(&c->t, c->bpe, c->slices, level, lv);
}

/* ---- descriptors ---- */

/* UNORM8 component values: i / 255 rounded once to f32 (amd_fmt_load32's value), folded by the
 * compiler. Round to nearest even whatever the wave's MODE.FP_ROUND: that register governs the
 * VALU, not the texture unit's format conversion. */
#define U8F(i) (float)((double)(i) / 255.0)
#define U8F4(i) U8F(i), U8F((i) + 1), U8F((i) + 2), U8F((i) + 3)
#define U8F16(i) U8F4(i), U8F4((i) + 4), U8F4((i) + 8), U8F4((i) + 12)
#define U8F64(i) U8F16(i), U8F16((i) + 16), U8F16((i) + 32), U8F16((i) + 48)
static const float unorm8_f32[256] = { U8F64(0), U8F64(64), U8F64(128), U8F64(192) };
#undef U8F64
#undef U8F16
#undef U8F4
#undef U8F

/* Component positions and the texel_values kind of c->f. */
static void texel_decoder(img_ctx *c)
{
    const amd_buf_format *f = c->f;
    bool words32 = f->num == AMD_NUM_UINT || f->num == AMD_NUM_SINT || f->num == AMD_NUM_FLOAT;
    bool unorm8 = f->num == AMD_NUM_UNORM;
    unsigned pos = 0;
    for (unsigned k = 0; k < f->ncomp; k++) {
        c->comp_pos[k] = (uint8_t)pos;
        words32 = words32 && f->bits[k] == 32;
        unorm8 = unorm8 && f->bits[k] == 8;
        pos += f->bits[k];
    }
    c->decode = words32 ? TEXEL_WORDS32 : unorm8 ? TEXEL_UNORM8 : TEXEL_GENERIC;
}

static bool img_setup(rdna3_wave *w, const rdna3_inst *in, img_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->oi = rdna3_inst_info(in);
    uint32_t tw[8];
    for (unsigned i = 0; i < 8; i++) tw[i] = w->sgpr[(in->saddr + i) & 127u];
    amd_tsharp_decode(tw, in->r128 ? 4u : 8u, &c->t);
    const amd_tsharp *t = &c->t;
    if (!amd_img_type_valid(t->type)) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "T# in s[%u:%u]: TYPE %u is not an image type (8..15)",
                    in->saddr, in->saddr + (in->r128 ? 3u : 7u), t->type);
        return false;
    }
    if (t->type >= AMD_IMG_2D_MSAA) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "T# in s[%u:%u]: multisampled images (TYPE %u) are not supported",
                    in->saddr, in->saddr + 7u, t->type);
        return false;
    }
    c->f = amd_img_format_info(t->format);
    if (!c->f) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "T# in s[%u:%u]: FORMAT %u is %s", in->saddr, in->saddr + 7u,
                    t->format, t->format ? "an image format umbra does not implement (1..66 and 68..72 only)" : "INVALID");
        return false;
    }
    if (t->sw_mode != AMD_IMG_SW_LINEAR) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT,
                    "T# in s[%u:%u]: SW_MODE %u is a tiled layout; umbra implements SW_LINEAR (0) only",
                    in->saddr, in->saddr + 7u, t->sw_mode);
        return false;
    }
    if (t->compression_enable) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "T# in s[%u:%u]: DCC compression is not supported", in->saddr, in->saddr + 7u);
        return false;
    }
    if (t->base_level > t->last_level) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT, "T# in s[%u:%u]: BASE_LEVEL %u > LAST_LEVEL %u", in->saddr,
                    in->saddr + 7u, t->base_level, t->last_level);
        return false;
    }
    c->bpe = c->f->bytes;
    texel_decoder(c);
    c->slices = amd_img_type_arrayed(t->type) ? t->depth + 1u : 1u;
    amd_img_level_layout(t, c->bpe, c->slices, t->base_level, &c->base_lv);
    c->sampler = rdna3_mimg_has(c->oi, 'S');
    if (c->sampler) {
        uint32_t sw[4];
        for (unsigned i = 0; i < 4; i++) sw[i] = w->sgpr[(in->ssamp + i) & 127u];
        amd_ssharp_decode(sw, &c->s);
        if (c->s.border_color_type == AMD_BORDER_REGISTER &&
            (c->s.clamp_x >= AMD_TEX_CLAMP_HALF_BORDER || c->s.clamp_y >= AMD_TEX_CLAMP_HALF_BORDER ||
             c->s.clamp_z >= AMD_TEX_CLAMP_HALF_BORDER)) {
            rdna3_fault(w, in, UMB_ERR_GUEST_FAULT,
                        "S# in s[%u:%u]: border colour from the palette (BORDER_COLOR_TYPE 3) is not supported",
                        in->ssamp, in->ssamp + 3u);
            return false;
        }
        c->unnorm = in->unorm || c->s.force_unnormalized;
    }
    return true;
}

/* ---- address components ---- */

static uint32_t addr_dword(rdna3_wave *w, const rdna3_inst *in, unsigned i, unsigned lane)
{
    unsigned reg = !in->nsa ? in->vaddr[0] + i : i < 4 ? in->vaddr[i] : in->vaddr[4] + (i - 4u);
    return rdna3_vreg(w, reg & 0xffu)[lane];
}

/* A16 component k of the packed list starting at dword `base`: float (samples) or integer. */
static uint32_t a16_comp(rdna3_wave *w, const rdna3_inst *in, unsigned base, unsigned k, unsigned lane, bool fp)
{
    uint16_t h = (uint16_t)(addr_dword(w, in, base + k / 2u, lane) >> (16u * (k & 1u)));
    return fp ? amd_f16_to_f32(h) : h;
}

static void read_args(rdna3_wave *w, const rdna3_inst *in, const img_ctx *c, unsigned lane, img_args *a)
{
    memset(a, 0, sizeof *a);
    unsigned i = 0, ncoord = rdna3_dim_coords(in->dim), ngrad = rdna3_dim_gradients(in->dim);
    bool fp = c->sampler;
    for (const char *p = c->oi->tmpl; *p; p++) {
        switch (*p) {
        case 'O': a->offset = addr_dword(w, in, i++, lane); break;
        case 'B': a->bias = u2f(addr_dword(w, in, i++, lane)); break;
        case 'Z': a->zref = u2f(addr_dword(w, in, i++, lane)); break;
        case 'G': {   /* ds/dh, dt/dh, dr/dh, then the /dv ones */
            unsigned half = ngrad / 2u;
            for (unsigned g = 0; g < half; g++) a->gh[g] = u2f(addr_dword(w, in, i + g, lane));
            for (unsigned g = 0; g < half; g++) a->gv[g] = u2f(addr_dword(w, in, i + half + g, lane));
            i += ngrad;
            break;
        }
        case 'H': {   /* 16-bit: each direction from a fresh dword; 3D: (ds, dt) (-, dr) */
            unsigned half = ngrad / 2u, words = (half + 1u) / 2u;
            for (unsigned g = 0; g < half; g++) {
                unsigned k = g == 2 ? 3u : g;
                a->gh[g] = u2f(a16_comp(w, in, i, k, lane, true));
                a->gv[g] = u2f(a16_comp(w, in, i + words, k, lane, true));
            }
            i += 2u * words;
            break;
        }
        case 'X': {
            bool lod = rdna3_mimg_has(c->oi, 'L');
            if (in->a16) {
                for (unsigned k = 0; k < ncoord; k++) a->c[k] = a16_comp(w, in, i, k, lane, fp && !(k == ncoord - 1 && in->dim >= RDNA3_DIM_2D_MSAA));
                if (lod) a->l = a16_comp(w, in, i, ncoord, lane, fp);
                i += (ncoord + (lod ? 1u : 0u) + 1u) / 2u;
            } else {
                for (unsigned k = 0; k < ncoord; k++) a->c[k] = addr_dword(w, in, i++, lane);
                if (lod) a->l = addr_dword(w, in, i++, lane);
            }
            break;
        }
        default: break;
        }
    }
    if (rdna3_mimg_has(c->oi, 'Q')) a->l = addr_dword(w, in, 0, lane);   /* get_resinfo: mip only */
}

/* Coordinates of a DIM as (x, y, z-or-slice-or-face, sample): which slot holds what. */
static void dim_slots(unsigned dim, int *y, int *z, int *frag)
{
    *y = *z = *frag = -1;
    switch (dim) {
    case RDNA3_DIM_1D: break;
    case RDNA3_DIM_1D_ARRAY: *z = 1; break;
    case RDNA3_DIM_2D: *y = 1; break;
    case RDNA3_DIM_2D_MSAA: *y = 1; *frag = 2; break;
    case RDNA3_DIM_2D_MSAA_ARRAY: *y = 1; *z = 2; *frag = 3; break;
    default: *y = 1; *z = 2; break;   /* 3D, CUBE, 2D_ARRAY */
    }
}

/* ---- texels ---- */

/* The byte address of texel (x, y, slice s) of a level whose layout is lv; false outside it. */
static bool texel_addr_in(const img_ctx *c, const amd_img_level *lvp, int64_t x, int64_t y, int64_t s, uint64_t *addr)
{
    const amd_img_level lv = *lvp;
    uint64_t nslices = c->t.type == AMD_IMG_3D ? lv.depth : c->slices;
    if (x < 0 || y < 0 || s < 0 || (uint64_t)x >= lv.width || (uint64_t)y >= lv.height || (uint64_t)s >= nslices)
        return false;
    *addr = c->t.base + lv.offset + (uint64_t)s * lv.slice_bytes + ((uint64_t)y * lv.pitch + (uint64_t)x) * c->bpe;
    return true;
}

/* Byte address of texel (x, y, s) of `level`, or false if it lies outside the level. */
static bool texel_addr(const img_ctx *c, unsigned level, int64_t x, int64_t y, int64_t s, uint64_t *addr)
{
    if (level > c->t.last_level) return false;
    amd_img_level lv;
    img_level(c, level, &lv);
    return texel_addr_in(c, &lv, x, y, s, addr);
}

/* Raw memory components of a texel (amd_fmt_get_raw's, from the positions decoded with the
 * instruction); missing components read as 0 (X, Y, Z) and 1 (W). */
static bool texel_raw(rdna3_wave *w, const rdna3_inst *in, const img_ctx *c, unsigned lane, uint64_t addr, uint32_t raw[4])
{
    uint8_t buf[16] = { 0 };
    if (!rdna3_xm_load(w, in, lane, XM_GLOBAL, addr, buf, c->bpe)) return false;
    for (unsigned k = 0; k < 4; k++) raw[k] = k < c->f->ncomp ? amd_fmt_bits(buf, c->comp_pos[k], c->f->bits[k]) : 0;
    return true;
}

/* Register values (32-bit) of a texel's components, before DST_SEL. */
static void texel_values(const img_ctx *c, const uint32_t raw[4], uint32_t v[4])
{
    unsigned n = c->f->ncomp;
    switch (c->decode) {
    case TEXEL_WORDS32:   /* amd_fmt_load32 of a 32-bit UINT, SINT or FLOAT component is the raw word */
        for (unsigned k = 0; k < n; k++) v[k] = raw[k];
        break;
    case TEXEL_UNORM8:    /* amd_fmt_load32's UNORM value, from the table */
        for (unsigned k = 0; k < n; k++) v[k] = f2u(unorm8_f32[raw[k] & 255u]);
        break;
    default:
        for (unsigned k = 0; k < n; k++) v[k] = amd_fmt_load32(amd_fmt_comp_num(c->f, k), c->f->bits[k], raw[k]);
        break;
    }
    for (unsigned k = n; k < 4; k++) v[k] = k == 3 ? amd_fmt_one32(c->f->num) : 0;
}

static uint32_t sel32(const img_ctx *c, const uint32_t v[4], unsigned sel)
{
    return sel >= AMD_SEL_X ? v[sel - AMD_SEL_X] : sel == AMD_SEL_1 ? amd_fmt_one32(c->f->num) : 0;
}

/* Pack the DMASK-enabled components of a swizzled result into out[] (D16: two per dword). */
static unsigned pack_result(const rdna3_inst *in, const img_ctx *c, const uint32_t v[4], const uint16_t *h16, uint32_t out[5])
{
    unsigned n = 0, k = 0;
    memset(out, 0, 5 * sizeof out[0]);
    for (unsigned i = 0; i < 4; i++) {
        if (!(in->dmask >> i & 1u)) continue;
        if (in->d16) {
            uint16_t h = h16 ? h16[i] : amd_num_is_float(c->f->num) ? amd_f32_to_f16_rne(v[i]) : (uint16_t)v[i];
            out[k / 2u] |= (uint32_t)h << (16u * (k & 1u));
            k++;
            n = (k + 1u) / 2u;
        } else {
            out[n++] = v[i];
        }
    }
    return n;
}

static void write_result(rdna3_wave *w, const rdna3_inst *in, unsigned lane, const uint32_t out[5], unsigned n)
{
    for (unsigned i = 0; i < n; i++) rdna3_vreg(w, (in->data0 + i) & 0xffu)[lane] = out[i];
    if (in->tfe) rdna3_vreg(w, (in->data0 + n) & 0xffu)[lane] = 0;   /* status: resident */
}

/* ---- image_load(_mip), image_store(_mip) ---- */

typedef struct lane_out { uint32_t v[5]; unsigned n; bool on; } lane_out;

static bool load_coords(const rdna3_inst *in, const img_ctx *c, const img_args *a, int64_t *x, int64_t *y,
                        int64_t *s, unsigned *level)
{
    int ys, zs, fs;
    dim_slots(in->dim, &ys, &zs, &fs);
    *x = (int32_t)a->c[0];
    *y = ys >= 0 ? (int32_t)a->c[ys] : 0;
    *s = zs >= 0 ? (int32_t)a->c[zs] : 0;
    if (in->a16) {
        *x = (int16_t)a->c[0];
        *y = ys >= 0 ? (int16_t)a->c[ys] : 0;
        *s = zs >= 0 ? (int16_t)a->c[zs] : 0;
    }
    if (amd_img_type_arrayed(c->t.type)) *s += c->t.base_array;   /* slices and cube faces of the view */
    uint64_t lv = (uint64_t)c->t.base_level + (rdna3_mimg_has(c->oi, 'L') ? a->l : 0u);
    *level = lv > 15 ? 16u : (unsigned)lv;
    return true;
}

/* A lane's integer texel coordinates, slice and mip level, read from its address VGPRs: the
 * address of image_load/store and the atomics. */
static void lane_coords(rdna3_wave *w, const rdna3_inst *in, const img_ctx *c, unsigned lane, int64_t *x, int64_t *y,
                        int64_t *s, unsigned *level)
{
    img_args a;
    read_args(w, in, c, lane, &a);
    load_coords(in, c, &a, x, y, s, level);
}

static void exec_img_load(rdna3_wave *w, const rdna3_inst *in)
{
    img_ctx c;
    if (!img_setup(w, in, &c)) return;
    lane_out out[RDNA3_MAX_LANES];
    uint64_t mask = rdna3_exec(w), lanes = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        int64_t x, y, s;
        unsigned level;
        lane_coords(w, in, &c, lane, &x, &y, &s, &level);
        uint32_t raw[4] = { 0 }, v[4] = { 0 }, sw[4];
        uint16_t h[4], hsw[4];
        uint64_t addr;
        bool in_range = texel_addr(&c, level, x, y, s, &addr);
        if (in_range) {
            if (!texel_raw(w, in, &c, lane, addr, raw)) return;
            texel_values(&c, raw, v);
            lanes++;
        }
        for (unsigned k = 0; k < 4; k++)
            h[k] = k < c.f->ncomp ? amd_fmt_load16(amd_fmt_comp_num(c.f, k), c.f->bits[k], raw[k])
                   : k == 3 ? amd_fmt_one16(c.f->num) : 0;
        for (unsigned k = 0; k < 4; k++) {
            unsigned sel = c.t.dst_sel[k];
            /* out of range: every component reads 0, whatever DST_SEL says */
            sw[k] = in_range ? sel32(&c, v, sel) : 0;
            hsw[k] = !in_range ? 0 : sel >= AMD_SEL_X ? h[sel - AMD_SEL_X] : sel == AMD_SEL_1 ? amd_fmt_one16(c.f->num) : 0;
        }
        out[lane].n = pack_result(in, &c, sw, hsw, out[lane].v);
    }
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        write_result(w, in, lane, out[lane].v, out[lane].n);
    }
    xm_traffic tr = { { lanes, 0, 0 }, { lanes * c.bpe, 0, 0 } };
    rdna3_xm_count(w, &tr, 0);
}

/* An integer register component for an n-bit UINT/SINT memory component: clamped to the
 * component's range (D3D11.3 3.2.3.13, "SINT or UINT -> SINT or UINT with fewer bits: clamped to
 * the range of the target format"). AMD's device library passes write_imagei/ui's int4 to
 * image_store unchanged and the OpenCL CTS expects saturation (test_image_streams write uint
 * stores 65535 and 7271820 into 8-bit channels), so the texture unit's store conversion
 * saturates. D16 halves are zero/sign extended first. Other formats are unchanged. */
static uint32_t img_int_saturate(unsigned num, unsigned n, uint32_t reg)
{
    if (n >= 32) return reg;
    if (num == AMD_NUM_UINT) {
        uint32_t max = (1u << n) - 1u;
        return reg > max ? max : reg;
    }
    if (num == AMD_NUM_SINT) {
        int32_t v = (int32_t)reg, max = (int32_t)((1u << (n - 1)) - 1u), min = -max - 1;
        return (uint32_t)(v > max ? max : v < min ? min : v);
    }
    return reg;
}

/* Stores write the texel whole. The register components go through the inverse of DST_SEL
 * (memory component k takes the first enabled register component whose DST_SEL names k), so
 * that a texel written and read back through one T# keeps its values; memory components no
 * register component names are written as 0. */
static void exec_img_store(rdna3_wave *w, const rdna3_inst *in)
{
    img_ctx c;
    if (!img_setup(w, in, &c)) return;
    if (c.f->num == AMD_NUM_SRGB) {
        /* no public source says the texture unit encodes sRGB on image_store (D3D11 and Vulkan
         * drivers offer no typed UAV/storage writes to sRGB formats; ROCm's OpenCL lists CL_sRGBA
         * for reading only): refused rather than guessed */
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "T# in s[%u:%u]: image_store to an sRGB format (FORMAT %u %s) is not supported",
                    in->saddr, in->saddr + 7u, c.t.format, c.f->name);
        return;
    }
    uint64_t mask = rdna3_exec(w), lanes = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        int64_t x, y, s;
        unsigned level;
        lane_coords(w, in, &c, lane, &x, &y, &s, &level);
        uint64_t addr;
        if (!texel_addr(&c, level, x, y, s, &addr)) continue;   /* out of range: dropped */
        uint32_t reg[4] = { 0 };
        uint16_t h16[4] = { 0 };
        unsigned k = 0;
        for (unsigned i = 0; i < 4; i++) {
            if (!(in->dmask >> i & 1u)) continue;
            uint32_t d = rdna3_vreg(w, (in->data0 + (in->d16 ? k / 2u : k)) & 0xffu)[lane];
            if (in->d16) h16[i] = (uint16_t)(d >> (16u * (k & 1u)));
            else reg[i] = d;
            k++;
        }
        uint8_t buf[16] = { 0 };
        for (unsigned mc = 0; mc < c.f->ncomp; mc++) {
            uint32_t raw = 0;
            for (unsigned i = 0; i < 4; i++) {
                if (!(in->dmask >> i & 1u) || c.t.dst_sel[i] != AMD_SEL_X + mc) continue;
                unsigned num = c.f->num, n = c.f->bits[mc];
                bool integer = num == AMD_NUM_UINT || num == AMD_NUM_SINT;
                if (in->d16 && integer)   /* the half widened as its format's signedness says */
                    raw = amd_fmt_store32(num, n, img_int_saturate(num, n, num == AMD_NUM_SINT
                                                                           ? (uint32_t)(int32_t)(int16_t)h16[i]
                                                                           : h16[i]));
                else if (in->d16)
                    raw = amd_fmt_store16(num, n, h16[i]);
                else
                    raw = amd_fmt_store32(num, n, img_int_saturate(num, n, reg[i]));
                break;
            }
            amd_fmt_put_raw(c.f, buf, mc, raw);
        }
        if (!rdna3_xm_store(w, in, lane, XM_GLOBAL, addr, buf, c.bpe)) return;
        lanes++;
    }
    xm_traffic tr = { { lanes, 0, 0 }, { lanes * c.bpe, 0, 0 } };
    rdna3_xm_count(w, &tr, 1);
}

/* ---- atomics: R32 formats (dmask 1; cmpswap 3), R32G32 for 64-bit (dmask 3; cmpswap 0xf) ---- */

static const uint8_t img_atomic_op[13] = {
    AMD_AT_SWAP, AMD_AT_CMPSWAP, AMD_AT_ADD, AMD_AT_SUB, AMD_AT_SMIN, AMD_AT_UMIN, AMD_AT_SMAX,
    AMD_AT_UMAX, AMD_AT_AND, AMD_AT_OR, AMD_AT_XOR, AMD_AT_INC, AMD_AT_DEC,
};

static void exec_img_atomic(rdna3_wave *w, const rdna3_inst *in)
{
    img_ctx c;
    if (!img_setup(w, in, &c)) return;
    amd_atomic_op op = (amd_atomic_op)img_atomic_op[in->op - 0xau];
    bool cmp = op == AMD_AT_CMPSWAP;
    unsigned dw = (unsigned)__builtin_popcount(in->dmask) / (cmp ? 2u : 1u);
    if ((dw != 1 && dw != 2) || c.bpe != 4u * dw || c.f->bits[0] != 32 ||
        (c.f->num == AMD_NUM_FLOAT && op != AMD_AT_SWAP && !cmp)) {
        rdna3_fault(w, in, UMB_ERR_GUEST_FAULT,
                    "image atomic with dmask 0x%x on format %u (%s): umbra implements 32-bit atomics on R32 "
                    "formats and 64-bit ones on R32G32 integer formats", in->dmask, c.t.format, c.f->name);
        return;
    }
    lane_out out[RDNA3_MAX_LANES];
    uint64_t mask = rdna3_exec(w), lanes = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        int64_t x, y, s;
        unsigned level;
        lane_coords(w, in, &c, lane, &x, &y, &s, &level);
        uint64_t src = rdna3_vreg(w, in->data0)[lane], cv = 0, old = 0, addr;
        if (dw == 2) src |= (uint64_t)rdna3_vreg(w, (in->data0 + 1u) & 0xffu)[lane] << 32;
        if (cmp) {
            cv = rdna3_vreg(w, (in->data0 + dw) & 0xffu)[lane];
            if (dw == 2) cv |= (uint64_t)rdna3_vreg(w, (in->data0 + 3u) & 0xffu)[lane] << 32;
        }
        if (texel_addr(&c, level, x, y, s, &addr)) {
            if (!rdna3_xm_atomic(w, in, lane, XM_GLOBAL, addr, op, 4u * dw, src, cv, &old)) return;
            lanes++;
        }
        out[lane].v[0] = (uint32_t)old;
        out[lane].v[1] = (uint32_t)(old >> 32);
        out[lane].n = dw;
    }
    if (in->glc)
        for (uint64_t m = mask; m; m &= m - 1) {
            unsigned lane = (unsigned)__builtin_ctzll(m);
            write_result(w, in, lane, out[lane].v, out[lane].n);
        }
    xm_traffic tr = { { lanes, 0, 0 }, { lanes * c.bpe, 0, 0 } };
    rdna3_xm_count(w, &tr, 2);
}

/* ---- image_get_resinfo: width, height, depth or slices, mip levels of base_level + mip ---- */

static void exec_img_resinfo(rdna3_wave *w, const rdna3_inst *in)
{
    img_ctx c;
    if (!img_setup(w, in, &c)) return;
    lane_out out[RDNA3_MAX_LANES];
    uint64_t mask = rdna3_exec(w);
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        img_args a;
        read_args(w, in, &c, lane, &a);
        uint64_t level = (uint64_t)c.t.base_level + a.l;
        uint32_t v[4] = { 0 };
        if (level <= c.t.last_level) {
            amd_img_level lv;
            img_level(&c, (unsigned)level, &lv);
            v[0] = lv.width;
            v[1] = lv.height;
            v[2] = c.t.type == AMD_IMG_3D ? lv.depth
                 : amd_img_type_arrayed(c.t.type) ? c.t.depth - c.t.base_array + 1u : 1u;
            if (c.t.type == AMD_IMG_CUBE) v[2] /= 6u;
            v[3] = (uint32_t)(c.t.last_level - c.t.base_level + 1u);
        }
        /* integers: no format conversion; D16 keeps the low halves */
        uint16_t h[4] = { (uint16_t)v[0], (uint16_t)v[1], (uint16_t)v[2], (uint16_t)v[3] };
        out[lane].n = pack_result(in, &c, v, h, out[lane].v);
    }
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        write_result(w, in, lane, out[lane].v, out[lane].n);
    }
}

/* ---- sampling ----
 * Texel space: u = s * width (normalized) or s (unnormalized), a single-precision product. The
 * texture unit then snaps u (nearest) or u - 0.5 (bilinear, single-precision subtraction) to a
 * fixed-point number with 8 fractional bits, rounding to nearest even, and takes the integer part
 * as the texel (nearest) or the left texel (bilinear), the fraction as the right texel's weight.
 * Source: the D3D11.3 functional specification, sections 7.18.7 and 7.18.8 (point and linear
 * sample addressing: the scaled coordinate "is converted to at least 16.8 Fixed Point"),
 * 3.2.4.1 (the reference float-to-fixed conversion rounds to nearest even) and 7.18.16.1
 * (8 bits of sub-texel precision); see docs/MEMORY_MODEL.md §12a. The weighted sum is computed in
 * single precision. */

/* Texel index under an addressing mode; -1: the border colour. */
static int64_t address_mode(unsigned mode, int64_t i, int64_t n)
{
    switch (mode) {
    case AMD_TEX_WRAP: { int64_t r = i % n; return r < 0 ? r + n : r; }
    case AMD_TEX_MIRROR: {
        int64_t r = i % (2 * n);
        if (r < 0) r += 2 * n;
        return r < n ? r : 2 * n - 1 - r;
    }
    case AMD_TEX_CLAMP_LAST_TEXEL: return i < 0 ? 0 : i >= n ? n - 1 : i;
    case AMD_TEX_MIRROR_ONCE_LAST_TEXEL: { int64_t r = i < 0 ? -1 - i : i; return r >= n ? n - 1 : r; }
    case AMD_TEX_MIRROR_ONCE_HALF_BORDER: case AMD_TEX_MIRROR_ONCE_BORDER: {
        int64_t r = i < 0 ? -1 - i : i;
        return r >= n ? -1 : r;
    }
    default: return i < 0 || i >= n ? -1 : i;   /* the border modes */
    }
}

static void border_values(const img_ctx *c, uint32_t v[4])
{
    bool fl = amd_num_is_float(c->f->num);
    uint32_t one = fl ? 0x3f800000u : 1u;
    unsigned t = c->s.border_color_type;
    v[0] = v[1] = v[2] = t == AMD_BORDER_OPAQUE_WHITE ? one : 0u;
    v[3] = t == AMD_BORDER_TRANS_BLACK ? 0u : one;
}

typedef struct samp_pt { int64_t x, y, z; unsigned level; } samp_pt;

/* Values of one texel after addressing (border colour when outside). */
static bool fetch_addressed(rdna3_wave *w, const rdna3_inst *in, const img_ctx *c, unsigned lane, samp_pt p, uint32_t v[4])
{
    amd_img_level lv;
    img_level(c, p.level, &lv);
    int64_t x = address_mode(c->s.clamp_x, p.x, lv.width);
    int64_t y = c->t.type == AMD_IMG_1D || c->t.type == AMD_IMG_1D_ARRAY ? 0 : address_mode(c->s.clamp_y, p.y, lv.height);
    int64_t z = p.z;
    if (c->t.type == AMD_IMG_3D) z = address_mode(c->s.clamp_z, p.z, lv.depth);
    if (x < 0 || y < 0 || z < 0) {
        border_values(c, v);
        return true;
    }
    uint64_t addr;
    uint32_t raw[4];
    if (p.level > c->t.last_level || !texel_addr_in(c, &lv, x, y, z, &addr)) {
        border_values(c, v);
        return true;
    }
    if (!texel_raw(w, in, c, lane, addr, raw)) return false;
    texel_values(c, raw, v);
    return true;
}

static float lerpf(float a, float b, float t) { return a + (b - a) * t; }

/* A texel-space coordinate as fixed point with 8 fractional bits (in units of 1/256 texel),
 * rounded to nearest even (D3D11.3 3.2.4.1). x * 256 is exact in double; NaN -> 0 and huge
 * values are clamped far outside any image (guest coordinates may be anything). */
static int64_t texel_fixed8(float x)
{
    double v = (double)x * 256.0;
    if (!(v == v)) return 0;
    if (v < -256e12) return (int64_t)-256e12;
    if (v > 256e12) return (int64_t)256e12;
    double f = floor(v), d = v - f;
    if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
    return (int64_t)f;
}

/* Nearest: the texel holding u after the fixed-point snap. */
static int64_t point_texel(float u) { return texel_fixed8(u) >> 8; }

/* Bilinear: u - 0.5 after the fixed-point snap (left texel = >> 8, weight = & 255). */
static int64_t linear_fixed(float u) { return texel_fixed8(u - 0.5f); }

/* Filter one mip level at texel-space coordinates (u, v, r); slice for arrays. Results are the
 * pre-swizzle components (f32 bits for float formats). */
static bool filter_level(rdna3_wave *w, const rdna3_inst *in, const img_ctx *c, unsigned lane, unsigned level,
                         const float uvr[3], int64_t slice, bool linear, const int off[3], float zref, bool cmp,
                         uint32_t res[4])
{
    bool is3d = c->t.type == AMD_IMG_3D;
    bool has_y = !(c->t.type == AMD_IMG_1D || c->t.type == AMD_IMG_1D_ARRAY);
    unsigned dims = is3d ? 3u : has_y ? 2u : 1u;
    bool fl = amd_num_is_float(c->f->num);
    if (!fl) linear = false;   /* integer formats are not filtered */
    int64_t i0[3] = { 0, 0, slice };
    float wgt[3] = { 0, 0, 0 };
    for (unsigned d = 0; d < dims; d++) {
        if (linear) {
            int64_t fx = linear_fixed(uvr[d]);
            i0[d] = fx >> 8;
            wgt[d] = (float)(fx & 255) / 256.0f;
        } else {
            i0[d] = point_texel(uvr[d]);
        }
        i0[d] += off[d];
    }
    unsigned taps = linear ? 1u << dims : 1u;
    float acc[4] = { 0, 0, 0, 0 };
    for (unsigned tp = 0; tp < taps; tp++) {
        samp_pt p = { i0[0] + (tp & 1u), dims > 1 ? i0[1] + (tp >> 1 & 1u) : 0, dims > 2 ? i0[2] + (tp >> 2 & 1u) : slice, level };
        uint32_t v[4];
        if (!fetch_addressed(w, in, c, lane, p, v)) return false;
        if (cmp) {   /* depth compare against the X component, then filter the 0/1 results */
            float d = u2f(v[0]), r = 0;
            switch (c->s.depth_compare_func) {
            case AMD_CMP_NEVER: r = 0; break;
            case AMD_CMP_LESS: r = zref < d; break;
            case AMD_CMP_EQUAL: r = zref == d; break;
            case AMD_CMP_LESSEQUAL: r = zref <= d; break;
            case AMD_CMP_GREATER: r = zref > d; break;
            case AMD_CMP_NOTEQUAL: r = zref != d; break;
            case AMD_CMP_GREATEREQUAL: r = zref >= d; break;
            default: r = 1; break;
            }
            v[0] = v[1] = v[2] = v[3] = f2u(r);
        }
        if (!linear) {
            memcpy(res, v, sizeof v);
            return true;
        }
        float wt = 1.0f;
        for (unsigned d = 0; d < dims; d++) wt *= (tp >> d & 1u) ? wgt[d] : 1.0f - wgt[d];
        for (unsigned k = 0; k < 4; k++) acc[k] += wt * u2f(v[k]);
    }
    for (unsigned k = 0; k < 4; k++) res[k] = f2u(acc[k]);
    return true;
}

/* Texel-space coordinates and the level-0 sizes. */
static void texel_space(const img_ctx *c, const float s[3], unsigned dims, unsigned level, float uvr[3])
{
    amd_img_level lv;
    img_level(c, level, &lv);
    const float size[3] = { (float)lv.width, (float)lv.height, (float)lv.depth };
    for (unsigned d = 0; d < 3; d++) uvr[d] = d < dims ? (c->unnorm ? s[d] : s[d] * size[d]) : 0.0f;
}

/* LOD from derivatives (explicit gradients or the lane's quad), in texel units of base_level. */
static float lod_from_grads(const img_ctx *c, const float dh[3], const float dv[3], unsigned dims)
{
    amd_img_level lv;
    img_level(c, c->t.base_level, &lv);
    const float size[3] = { (float)lv.width, (float)lv.height, (float)lv.depth };
    float h = 0, v = 0;
    for (unsigned d = 0; d < dims; d++) {
        float k = c->unnorm ? 1.0f : size[d];
        h += dh[d] * k * dh[d] * k;
        v += dv[d] * k * dv[d] * k;
    }
    float rho = sqrtf(h > v ? h : v);
    return rho > 0 ? log2f(rho) : -INFINITY;
}

static void exec_img_sample(rdna3_wave *w, const rdna3_inst *in)
{
    img_ctx c;
    if (!img_setup(w, in, &c)) return;
    if (c.t.type == AMD_IMG_CUBE || c.t.type >= AMD_IMG_2D_MSAA) {
        rdna3_fault(w, in, UMB_ERR_UNSUPPORTED, "%s on a %s image: umbra samples 1D, 2D, 3D and 1D/2D array images",
                    c.oi->name, c.t.type == AMD_IMG_CUBE ? "cube" : "multisampled");
        return;
    }
    bool gather = rdna3_mimg_has(c.oi, 'P'), cmp = rdna3_mimg_has(c.oi, 'Z');
    bool get_lod = strcmp(c.oi->name, "image_get_lod") == 0;
    bool is3d = c.t.type == AMD_IMG_3D, has_y = !(c.t.type == AMD_IMG_1D || c.t.type == AMD_IMG_1D_ARRAY);
    unsigned dims = is3d ? 3u : has_y ? 2u : 1u;
    bool arrayed = c.t.type == AMD_IMG_1D_ARRAY || c.t.type == AMD_IMG_2D_ARRAY;
    const char *nm = c.oi->name + strlen("image_");
    bool lz = strstr(nm, "_lz") != NULL, explicit_l = !lz && rdna3_mimg_has(c.oi, 'L') && !strstr(nm, "cl");
    bool clamp_l = strstr(nm, "cl") != NULL, has_grad = rdna3_mimg_has(c.oi, 'G') || rdna3_mimg_has(c.oi, 'H');
    uint64_t mask = rdna3_exec(w), lanes = 0;
    img_args args[RDNA3_MAX_LANES];
    float sc[RDNA3_MAX_LANES][3];
    /* The active lanes' coordinates; with implicit derivatives every lane of their quads, active
     * or not (a quad's derivatives use its inactive lanes too). */
    bool implicit_lod = !lz && !explicit_l && !has_grad;
    uint64_t read = mask;
    if (implicit_lod) {
        uint64_t any = mask | (mask >> 1);
        any |= any >> 2;
        read = (any & 0x1111111111111111ull) * 0xfu;   /* bit 4k: any lane of quad k; spread to its four */
    }
    for (uint64_t m = read; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        read_args(w, in, &c, lane, &args[lane]);
        for (unsigned d = 0; d < 3; d++) sc[lane][d] = d < dims ? u2f(args[lane].c[d]) : 0.0f;
    }
    lane_out out[RDNA3_MAX_LANES];
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        const img_args *a = &args[lane];
        /* level of detail */
        float lod;
        if (lz) lod = 0;
        else if (explicit_l) lod = u2f(a->l);
        else {
            float dh[3] = { 0, 0, 0 }, dv[3] = { 0, 0, 0 };
            if (has_grad) {
                for (unsigned d = 0; d < dims; d++) { dh[d] = a->gh[d]; dv[d] = a->gv[d]; }
            } else {   /* implicit: coarse derivatives of the 2x2 quad (lanes q, q+1 across, q+2 down) */
                unsigned q = lane & ~3u;
                for (unsigned d = 0; d < dims; d++) {
                    dh[d] = sc[q + 1][d] - sc[q][d];
                    dv[d] = sc[q + 2][d] - sc[q][d];
                }
            }
            lod = lod_from_grads(&c, dh, dv, dims) + amd_lod_s5_8(c.s.lod_bias) + a->bias;
        }
        float unclamped = lod;
        if (clamp_l && lod < u2f(a->l)) lod = u2f(a->l);
        float minl = amd_lod_u4_8(c.s.min_lod), maxl = amd_lod_u4_8(c.s.max_lod);
        bool mag = lod <= 0.0f;
        if (lod < minl) lod = minl;
        if (lod > maxl) lod = maxl;
        float maxlevel = (float)(c.t.last_level - c.t.base_level);
        if (lod > maxlevel) lod = maxlevel;
        if (lod < 0 || !(lod == lod)) lod = 0;
        if (get_lod) {   /* X: the LOD the sample would use (clamped), Y: as computed */
            uint32_t r[4] = { f2u(lod), f2u(unclamped), 0, 0 };
            out[lane].n = pack_result(in, &c, r, NULL, out[lane].v);
            continue;
        }
        unsigned l0 = c.t.base_level, l1 = c.t.base_level;
        float lf = 0;
        if (c.s.mip_filter == AMD_TEX_MIP_POINT || c.s.mip_filter == AMD_TEX_MIP_POINT_ANISO_ADJ) {
            l0 = l1 = c.t.base_level + (unsigned)floorf(lod + 0.5f);
        } else if (c.s.mip_filter == AMD_TEX_MIP_LINEAR) {
            l0 = c.t.base_level + (unsigned)floorf(lod);
            l1 = l0 < c.t.last_level ? l0 + 1u : l0;
            lf = lod - floorf(lod);
        }
        bool linear = (mag ? c.s.xy_mag_filter : c.s.xy_min_filter) & 1u;   /* BILINEAR, ANISO_BILINEAR */
        int64_t slice = 0;
        if (arrayed) {
            float sl = u2f(a->c[has_y ? 2 : 1]);
            int64_t last = (int64_t)c.t.depth - c.t.base_array;
            double r = rint((double)sl);
            slice = !(r == r) || r < 0 ? 0 : r > (double)last ? last : (int64_t)r;
            slice += c.t.base_array;
        }
        int off[3] = { 0, 0, 0 };
        if (rdna3_mimg_has(c.oi, 'O'))
            for (unsigned d = 0; d < 3; d++) off[d] = (int)((int32_t)(a->offset >> (8 * d) << 26) >> 26);
        uint32_t v[4];
        if (gather) {
            /* the four texels of the bilinear footprint, component dmask: (i0,j1) (i1,j1) (i1,j0) (i0,j0) */
            float uvr[3];
            texel_space(&c, sc[lane], dims, l0, uvr);
            static const unsigned gx[4] = { 0, 1, 1, 0 }, gy[4] = { 1, 1, 0, 0 };
            int64_t i0 = (linear_fixed(uvr[0]) >> 8) + off[0];
            int64_t j0 = (linear_fixed(uvr[1]) >> 8) + off[1];
            unsigned comp = in->dmask ? (unsigned)__builtin_ctz(in->dmask) : 0u;
            for (unsigned k = 0; k < 4; k++) {
                uint32_t t[4];
                samp_pt p = { i0 + gx[k], has_y ? j0 + gy[k] : 0, slice, l0 };
                if (!fetch_addressed(w, in, &c, lane, p, t)) return;
                uint32_t sw = sel32(&c, t, c.t.dst_sel[comp]);
                if (cmp) {
                    float d = u2f(sel32(&c, t, c.t.dst_sel[0]));
                    bool r = c.s.depth_compare_func == AMD_CMP_ALWAYS || (c.s.depth_compare_func == AMD_CMP_LESS && a->zref < d) ||
                             (c.s.depth_compare_func == AMD_CMP_LESSEQUAL && a->zref <= d) ||
                             (c.s.depth_compare_func == AMD_CMP_GREATER && a->zref > d) ||
                             (c.s.depth_compare_func == AMD_CMP_GREATEREQUAL && a->zref >= d) ||
                             (c.s.depth_compare_func == AMD_CMP_EQUAL && a->zref == d) ||
                             (c.s.depth_compare_func == AMD_CMP_NOTEQUAL && a->zref != d);
                    sw = f2u(r ? 1.0f : 0.0f);
                }
                v[k] = sw;
            }
            unsigned n = 0;
            for (unsigned k = 0; k < 4; k++) {
                if (in->d16) {
                    uint16_t h = amd_num_is_float(c.f->num) ? amd_f32_to_f16_rne(v[k]) : (uint16_t)v[k];
                    if (k & 1u) out[lane].v[n++] |= (uint32_t)h << 16;
                    else out[lane].v[n] = h;
                } else {
                    out[lane].v[n++] = v[k];
                }
            }
            out[lane].n = in->d16 ? 2u : 4u;
            lanes++;
            continue;
        }
        uint32_t r0[4], r1[4];
        float uvr[3];
        texel_space(&c, sc[lane], dims, l0, uvr);
        if (!filter_level(w, in, &c, lane, l0, uvr, slice, linear, off, a->zref, cmp, r0)) return;
        if (l1 != l0 && lf > 0) {
            texel_space(&c, sc[lane], dims, l1, uvr);
            if (!filter_level(w, in, &c, lane, l1, uvr, slice, linear, off, a->zref, cmp, r1)) return;
            for (unsigned k = 0; k < 4; k++) r0[k] = f2u(lerpf(u2f(r0[k]), u2f(r1[k]), lf));
        }
        for (unsigned k = 0; k < 4; k++) v[k] = sel32(&c, r0, c.t.dst_sel[k]);
        out[lane].n = pack_result(in, &c, v, NULL, out[lane].v);
        lanes++;
    }
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned lane = (unsigned)__builtin_ctzll(m);
        write_result(w, in, lane, out[lane].v, out[lane].n);
    }
    xm_traffic tr = { { lanes, 0, 0 }, { lanes * c.bpe, 0, 0 } };
    rdna3_xm_count(w, &tr, 0);
}

/* ---- the addresses the timing model sees: each lane's first texel ---- */

void rdna3_img_addrs(rdna3_wave *w, const rdna3_inst *in, uint64_t *addr)
{
    img_ctx c;
    memset(addr, 0, sizeof addr[0] * w->wave_size);
    c.oi = rdna3_inst_info(in);
    if (!c.oi) return;
    uint32_t tw[8];
    for (unsigned i = 0; i < 8; i++) tw[i] = w->sgpr[(in->saddr + i) & 127u];
    amd_tsharp_decode(tw, in->r128 ? 4u : 8u, &c.t);
    c.f = amd_img_format_info(c.t.format);
    if (!c.f || !amd_img_type_valid(c.t.type)) return;
    c.bpe = c.f->bytes;
    c.slices = amd_img_type_arrayed(c.t.type) ? c.t.depth + 1u : 1u;
    amd_img_level_layout(&c.t, c.bpe, c.slices, c.t.base_level, &c.base_lv);
    c.sampler = rdna3_mimg_has(c.oi, 'S');
    c.unnorm = true;
    for (unsigned lane = 0; lane < w->wave_size; lane++) {
        img_args a;
        read_args(w, in, &c, lane, &a);
        int64_t x, y, s;
        unsigned level;
        load_coords(in, &c, &a, &x, &y, &s, &level);
        if (c.sampler) {   /* normalized float coordinates: the texel under the coordinate at base_level */
            amd_img_level lv;
            img_level(&c, c.t.base_level, &lv);
            x = point_texel(u2f(a.c[0]) * (float)lv.width);
            y = point_texel(u2f(a.c[1]) * (float)lv.height);
            s = c.t.base_array;
            level = c.t.base_level;
        }
        uint64_t at;
        if (texel_addr(&c, level, x, y, s, &at)) addr[lane] = at;
        else addr[lane] = c.t.base;
    }
}

rdna3_exec_fn rdna3_img_handler(const rdna3_inst *in)
{
    const rdna3_opinfo *oi = rdna3_inst_info(in);
    if (!oi) return NULL;
    unsigned op = in->op;
    if (op == 0x0 || op == 0x1) return exec_img_load;
    if (op == 0x6 || op == 0x7) return exec_img_store;
    if (op >= 0xa && op <= 0x16) return exec_img_atomic;
    if (op == 0x17) return exec_img_resinfo;
    const char *nm = oi->name;
    if (strncmp(nm, "image_sample", 12) == 0 || strncmp(nm, "image_gather4", 13) == 0 || strcmp(nm, "image_get_lod") == 0) {
        if (strstr(nm, "gather4h")) return NULL;
        return exec_img_sample;
    }
    return NULL;   /* _pck loads/stores, msaa_load, BVH: not implemented */
}
