/* zve32f integer, move and memory instructions with Ventus per-thread semantics (spec §1):
 * lane i is thread i of the warp; every op skips lanes off in the SIMT mask (and, for vm=0,
 * lanes whose v0 mask bit is clear); compares write 0/1 into the thread's own element.
 * Lane loops compute every lane and blend by mask, so the compiler can vectorise them; the
 * expressions are total (division by zero follows RISC-V), so computing an inactive lane is
 * harmless. */
#include "isa/ventus/ventus_isa.h"

static inline uint32_t vl_mask(const vt_warp *w)
{
    return w->vl >= 32 ? 0xffffffffu : (1u << w->vl) - 1u;
}

/* Lane loops run over all VT_MAX_LANES lanes (a constant trip count the compiler turns into
 * straight-line vector code) into a local result, then store it: whole when every lane is on,
 * else blended lane by lane with the active mask. The local result also makes vd = vs2 (the
 * same register read and written) safe to vectorise. Lanes at or past vl are never active. */
#define VLOOP(EXPR) \
    do { \
        uint32_t m = vt_emask(w, in); \
        uint32_t *d = w->v[in->rd]; \
        const uint32_t *s2 = w->v[in->rs2], *s1 = w->v[in->rs1], *acc = w->v[in->rs3]; \
        uint32_t xs = w->x[in->rs1]; \
        int32_t imm = in->imm; \
        (void)s1; (void)xs; (void)imm; (void)acc; (void)s2; \
        uint32_t r_[VT_MAX_LANES]; \
        for (uint32_t i = 0; i < VT_MAX_LANES; i++) r_[i] = (EXPR); \
        vt_lane_store(d, r_, m); \
    } while (0)

/* Division and remainder are not vectorised by the host: only the active lanes. */
#define VLOOP_SPARSE(EXPR) \
    do { \
        uint32_t m = vt_emask(w, in); \
        uint32_t *d = w->v[in->rd]; \
        const uint32_t *s2 = w->v[in->rs2], *s1 = w->v[in->rs1]; \
        uint32_t xs = w->x[in->rs1]; \
        (void)s1; (void)xs; \
        uint32_t r_[VT_MAX_LANES]; \
        for (uint32_t mm = m; mm; mm &= mm - 1) { unsigned i = (unsigned)__builtin_ctz(mm); r_[i] = (EXPR); } \
        for (uint32_t mm = m; mm; mm &= mm - 1) { unsigned i = (unsigned)__builtin_ctz(mm); d[i] = r_[i]; } \
    } while (0)

/* Operand B of the three forms. */
#define B_VV s1[i]
#define B_VX xs
#define B_VI ((uint32_t)imm)
#define A s2[i]
#define SA ((int32_t)s2[i])

#define DEF(id, expr) VT_LANE_FN void vt_x_##id(vt_warp *w, const vt_insn *in) { VLOOP(expr); }
#define DEF_SPARSE(id, expr) void vt_x_##id(vt_warp *w, const vt_insn *in) { VLOOP_SPARSE(expr); }
#define DEF_VV_VX_SPARSE(nm, op) \
    DEF_SPARSE(nm##_vv, op(A, B_VV)) \
    DEF_SPARSE(nm##_vx, op(A, B_VX))
#define DEF_VV_VX(nm, op) \
    DEF(nm##_vv, op(A, B_VV)) \
    DEF(nm##_vx, op(A, B_VX))
#define DEF_ALL(nm, op) DEF_VV_VX(nm, op) DEF(nm##_vi, op(A, B_VI))
#define DEF_XI(nm, op) DEF(nm##_vx, op(A, B_VX)) DEF(nm##_vi, op(A, B_VI))

static inline uint32_t o_add(uint32_t a, uint32_t b) { return a + b; }
static inline uint32_t o_sub(uint32_t a, uint32_t b) { return a - b; }
static inline uint32_t o_rsub(uint32_t a, uint32_t b) { return b - a; }
static inline uint32_t o_minu(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t o_min(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b ? a : b; }
static inline uint32_t o_maxu(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline uint32_t o_max(uint32_t a, uint32_t b) { return (int32_t)a > (int32_t)b ? a : b; }
static inline uint32_t o_and(uint32_t a, uint32_t b) { return a & b; }
static inline uint32_t o_or(uint32_t a, uint32_t b) { return a | b; }
static inline uint32_t o_xor(uint32_t a, uint32_t b) { return a ^ b; }
static inline uint32_t o_seq(uint32_t a, uint32_t b) { return a == b; }
static inline uint32_t o_sne(uint32_t a, uint32_t b) { return a != b; }
static inline uint32_t o_sltu(uint32_t a, uint32_t b) { return a < b; }
static inline uint32_t o_slt(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b; }
static inline uint32_t o_sleu(uint32_t a, uint32_t b) { return a <= b; }
static inline uint32_t o_sle(uint32_t a, uint32_t b) { return (int32_t)a <= (int32_t)b; }
static inline uint32_t o_sgtu(uint32_t a, uint32_t b) { return a > b; }
static inline uint32_t o_sgt(uint32_t a, uint32_t b) { return (int32_t)a > (int32_t)b; }
static inline uint32_t o_sll(uint32_t a, uint32_t b) { return a << (b & 31); }
static inline uint32_t o_srl(uint32_t a, uint32_t b) { return a >> (b & 31); }
static inline uint32_t o_sra(uint32_t a, uint32_t b) { return (uint32_t)((int32_t)a >> (b & 31)); }
static inline uint32_t o_mul(uint32_t a, uint32_t b) { return a * b; }
static inline uint32_t o_mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
static inline uint32_t o_mulh(uint32_t a, uint32_t b)
{
    return (uint32_t)(((int64_t)(int32_t)a * (int32_t)b) >> 32);
}
static inline uint32_t o_mulhsu(uint32_t a, uint32_t b)
{
    return (uint32_t)(((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32);
}
static inline uint32_t o_divu(uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }
static inline uint32_t o_remu(uint32_t a, uint32_t b) { return b ? a % b : a; }
static inline uint32_t o_div(uint32_t a, uint32_t b)
{
    int32_t x = (int32_t)a, y = (int32_t)b;
    if (y == 0) return 0xffffffffu;
    if (x == INT32_MIN && y == -1) return a;
    return (uint32_t)(x / y);
}
static inline uint32_t o_rem(uint32_t a, uint32_t b)
{
    int32_t x = (int32_t)a, y = (int32_t)b;
    if (y == 0) return a;
    if (x == INT32_MIN && y == -1) return 0;
    return (uint32_t)(x % y);
}

DEF_ALL(vadd, o_add)
DEF_VV_VX(vsub, o_sub)
DEF_XI(vrsub, o_rsub)
DEF_VV_VX(vminu, o_minu)
DEF_VV_VX(vmin, o_min)
DEF_VV_VX(vmaxu, o_maxu)
DEF_VV_VX(vmax, o_max)
DEF_ALL(vand, o_and)
DEF_ALL(vor, o_or)
DEF_ALL(vxor, o_xor)
DEF_ALL(vmseq, o_seq)
DEF_ALL(vmsne, o_sne)
DEF_VV_VX(vmsltu, o_sltu)
DEF_VV_VX(vmslt, o_slt)
DEF_ALL(vmsleu, o_sleu)
DEF_ALL(vmsle, o_sle)
DEF_XI(vmsgtu, o_sgtu)
DEF_XI(vmsgt, o_sgt)
DEF_ALL(vsll, o_sll)
DEF_ALL(vsrl, o_srl)
DEF_ALL(vsra, o_sra)
DEF_VV_VX_SPARSE(vdivu, o_divu)
DEF_VV_VX_SPARSE(vdiv, o_div)
DEF_VV_VX_SPARSE(vremu, o_remu)
DEF_VV_VX_SPARSE(vrem, o_rem)
DEF_VV_VX(vmulhu, o_mulhu)
DEF_VV_VX(vmul, o_mul)
DEF_VV_VX(vmulhsu, o_mulhsu)
DEF_VV_VX(vmulh, o_mulh)
/* multiply-add: the accumulator is the old vd (read through rs3, see decode.c) */
DEF(vmadd_vv, acc[i] * s1[i] + s2[i])
DEF(vmadd_vx, acc[i] * xs + s2[i])
DEF(vnmsub_vv, s2[i] - acc[i] * s1[i])
DEF(vnmsub_vx, s2[i] - acc[i] * xs)
DEF(vmacc_vv, s1[i] * s2[i] + acc[i])
DEF(vmacc_vx, xs * s2[i] + acc[i])
DEF(vnmsac_vv, acc[i] - s1[i] * s2[i])
DEF(vnmsac_vx, acc[i] - xs * s2[i])
DEF(vmv_v_v, s1[i])
DEF(vmv_v_x, xs)
DEF(vmv_v_i, (uint32_t)imm)
DEF(vid_v, i)
/* vmv.s.x behaves like vmv.v.x (spec §1). */
DEF(vmv_s_x, xs)

/* vmerge: v0 is the RVV bit mask selecting vs1/rs1/imm over vs2, inside the SIMT mask. */
#define MERGE(id, SRC) \
    void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        uint32_t m = w->mask & vl_mask(w), sel = w->v[0][0], n = w->vl; \
        uint32_t *d = w->v[in->rd]; \
        const uint32_t *s2 = w->v[in->rs2], *s1 = w->v[in->rs1]; \
        uint32_t xs = w->x[in->rs1]; \
        int32_t imm = in->imm; \
        (void)s1; (void)xs; (void)imm; \
        for (uint32_t i = 0; i < n; i++) { \
            uint32_t r = ((sel >> i) & 1) ? (SRC) : s2[i]; \
            d[i] = ((m >> i) & 1) ? r : d[i]; \
        } \
    }
MERGE(vmerge_vvm, s1[i])
MERGE(vmerge_vxm, xs)
MERGE(vmerge_vim, (uint32_t)imm)

/* vmv.x.s: every active thread writes the scalar register; the highest active lane is last. */
void vt_x_vmv_x_s(vt_warp *w, const vt_insn *in)
{
    uint32_t m = w->mask & vl_mask(w);
    if (!m) return;
    unsigned last = 31u - (unsigned)__builtin_clz(m);
    vt_wx(w, in, w->v[in->rs2][last]);
}

/* ---- vsetvl family: SEW must be 32; vl may not exceed the warp width ---- */
static void set_vl(vt_warp *w, const vt_insn *in, uint32_t avl, bool avl_given, uint32_t vtype)
{
    uint32_t vsew = (vtype >> 3) & 7, vlmul = vtype & 7;
    if (vsew != 2 || (vtype & ~0xffu) || vlmul == 4) {
        vt_fault(w, in, UMB_ERR_UNSUPPORTED, -1, 0,
                 "vtype 0x%x is not supported (Ventus threads have 32-bit elements: e32, m1/m2 or "
                 "fractional)", vtype);
        return;
    }
    uint32_t vlmax = vlmul < 4 ? w->nlanes << vlmul : w->nlanes >> (8 - vlmul);
    uint32_t vl;
    if (avl_given) vl = avl < vlmax ? avl : vlmax;
    else if (in->rd != 0) vl = vlmax;
    else vl = w->vl;
    if (vl > w->nlanes) {
        vt_fault(w, in, UMB_ERR_UNSUPPORTED, -1, 0,
                 "vl %u exceeds the %u threads of a warp (LMUL>1 with a long AVL)", vl, w->nlanes);
        return;
    }
    w->vl = vl;
    w->vtype = vtype;
    w->vstart = 0;
    vt_mark_vs_dirty(w);
    vt_wx(w, in, vl);
}

void vt_x_vsetvli(vt_warp *w, const vt_insn *in)
{
    set_vl(w, in, w->x[in->rs1], in->rs1 != 0, (uint32_t)in->imm);
}
void vt_x_vsetivli(vt_warp *w, const vt_insn *in) { set_vl(w, in, in->rs1, true, (uint32_t)in->imm); }
void vt_x_vsetvl(vt_warp *w, const vt_insn *in)
{
    set_vl(w, in, w->x[in->rs1], in->rs1 != 0, w->x[in->rs2]);
}

/* ---- loads and stores: lane i accesses its own element ---- */
static inline uint32_t extend(uint32_t v, unsigned size, bool sign)
{
    if (size == 1) return sign ? (uint32_t)(int32_t)(int8_t)v : (v & 0xff);
    if (size == 2) return sign ? (uint32_t)(int32_t)(int16_t)v : (v & 0xffff);
    return v;
}

/* Memory statistics of one vector access, counted per lane and added once at the end (also
 * when a lane faults: the lanes before it did access memory). */
typedef struct lane_counts { uint32_t lanes[UMB_SPACE_PRIVATE + 1]; } lane_counts;

static void count_lanes(vt_warp *w, const lane_counts *c, int kind, unsigned size)
{
    for (int sp = 0; sp <= UMB_SPACE_PRIVATE; sp++)
        if (c->lanes[sp]) umb_count_mem(w->stats, (umb_addr_space)sp, kind, c->lanes[sp], (uint64_t)c->lanes[sp] * size);
}

/* The page of the first active lane, as a host pointer, when every active lane is aligned and
 * on that page and the page is in the warp's cache; else NULL (the per-lane path). */
static inline uint8_t *same_page(const vt_warp *w, const uint32_t *addr, uint32_t m, unsigned size)
{
    uint32_t a0 = addr[__builtin_ctz(m)], bad = 0;
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) {
        uint32_t on = -(uint32_t)((m & vt_lane_bit[i]) != 0);
        bad |= (((addr[i] ^ a0) & ~0xfffu) | (addr[i] & (size - 1u))) & on;
    }
    if (bad) return NULL;
    uint8_t *p = vt_pcache_lookup(w, a0);
    return p ? p - (a0 & 0xfffu) : NULL;
}

static inline uint32_t ld_host(const uint8_t *p, unsigned size)
{
    if (size == 4) { uint32_t v; memcpy(&v, p, 4); return v; }
    if (size == 2) { uint16_t v; memcpy(&v, p, 2); return v; }
    return *p;
}
static inline void st_host(uint8_t *p, unsigned size, uint32_t v)
{
    if (size == 4) memcpy(p, &v, 4);
    else if (size == 2) { uint16_t h = (uint16_t)v; memcpy(p, &h, 2); }
    else *p = (uint8_t)v;
}

/* Every lane's address is computed first (a vectorised loop; maddr[] keeps them for the trace,
 * which shows only the active lanes). Fast path: all active lanes on one cached page — plain
 * host loads/stores. Otherwise lane by lane through vt_load/vt_store (page cache, then the
 * slow path that reports faults in lane order). size is a constant in each expansion. */
#define VMEM_ADDRS(ADDR) \
    uint32_t m = vt_emask(w, in), base = w->x[in->rs1], stride = w->x[in->rs2]; \
    const uint32_t *s1 = w->v[in->rs1], *s2 = w->v[in->rs2]; \
    unsigned size = in->msize; \
    (void)base; (void)stride; (void)s1; (void)s2; (void)size; \
    if (!m) return; \
    uint32_t *addr = w->maddr; \
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) addr[i] = (ADDR);

#define VLOAD_BODY(SIZE, SIGN, SPACE) \
    do { \
        uint32_t tmp[VT_MAX_LANES]; \
        uint8_t *pg = same_page(w, addr, m, SIZE); \
        if (pg) { \
            if (m == 0xffffffffu) { \
                for (uint32_t i = 0; i < VT_MAX_LANES; i++) tmp[i] = extend(ld_host(pg + (addr[i] & 0xfffu), SIZE), SIZE, SIGN); \
                memcpy(d, tmp, sizeof tmp); \
            } else { \
                for (uint32_t mm = m; mm; mm &= mm - 1) { \
                    unsigned i = (unsigned)__builtin_ctz(mm); \
                    d[i] = extend(ld_host(pg + (addr[i] & 0xfffu), SIZE), SIZE, SIGN); \
                } \
            } \
            uint32_t a = addr[__builtin_ctz(m)], n = (uint32_t)__builtin_popcount(m); \
            (void)a; \
            umb_count_mem(w->stats, SPACE, 0, n, (uint64_t)n * SIZE); \
            return; \
        } \
        lane_counts c = {{0}}; \
        for (uint32_t mm = m; mm; mm &= mm - 1) { \
            unsigned i = (unsigned)__builtin_ctz(mm); \
            uint32_t a = addr[i], v; \
            if (!vt_load(w, in, (int)i, a, SIZE, &v)) { count_lanes(w, &c, 0, SIZE); return; } \
            tmp[i] = extend(v, SIZE, SIGN); \
            c.lanes[SPACE]++; \
        } \
        count_lanes(w, &c, 0, SIZE); \
        for (uint32_t mm = m; mm; mm &= mm - 1) { unsigned i = (unsigned)__builtin_ctz(mm); d[i] = tmp[i]; } \
    } while (0)

#define VLOAD(id, ADDR, SIGN, SPACE) \
    VT_LANE_FN void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        VMEM_ADDRS(ADDR) \
        uint32_t *d = w->v[in->rd]; \
        switch (in->msize) { \
        case 4: VLOAD_BODY(4, SIGN, SPACE); break; \
        case 2: VLOAD_BODY(2, SIGN, SPACE); break; \
        default: VLOAD_BODY(1, SIGN, SPACE); break; \
        } \
    }

#define VSTORE_BODY(SIZE, SPACE) \
    do { \
        uint8_t *pg = same_page(w, addr, m, SIZE); \
        if (pg) { \
            if (m == 0xffffffffu) { \
                for (uint32_t i = 0; i < VT_MAX_LANES; i++) st_host(pg + (addr[i] & 0xfffu), SIZE, STORE_SRC); \
            } else { \
                for (uint32_t mm = m; mm; mm &= mm - 1) { \
                    unsigned i = (unsigned)__builtin_ctz(mm); \
                    st_host(pg + (addr[i] & 0xfffu), SIZE, STORE_SRC); \
                } \
            } \
            uint32_t a = addr[__builtin_ctz(m)], n = (uint32_t)__builtin_popcount(m); \
            (void)a; \
            umb_count_mem(w->stats, SPACE, 1, n, (uint64_t)n * SIZE); \
            return; \
        } \
        lane_counts c = {{0}}; \
        for (uint32_t mm = m; mm; mm &= mm - 1) { \
            unsigned i = (unsigned)__builtin_ctz(mm); \
            uint32_t a = addr[i]; \
            if (!vt_store(w, in, (int)i, a, SIZE, STORE_SRC)) { count_lanes(w, &c, 1, SIZE); return; } \
            c.lanes[SPACE]++; \
        } \
        count_lanes(w, &c, 1, SIZE); \
    } while (0)

#define VSTORE(id, ADDR, SPACE) \
    VT_LANE_FN void vt_x_##id(vt_warp *w, const vt_insn *in) \
    { \
        VMEM_ADDRS(ADDR) \
        const uint32_t *src = w->v[in->rd]; \
        (void)src; \
        switch (in->msize) { \
        case 4: VSTORE_BODY(4, SPACE); break; \
        case 2: VSTORE_BODY(2, SPACE); break; \
        default: VSTORE_BODY(1, SPACE); break; \
        } \
    }

#define SPC vt_space_for(a)
#define U_ADDR (base + i * size)
#define S_ADDR (base + i * stride)
#define X8_ADDR (base + (s2[i] & 0xffu))
#define X16_ADDR (base + (s2[i] & 0xffffu))
#define X32_ADDR (base + s2[i])
VLOAD(vle8_v, U_ADDR, false, SPC)
VLOAD(vle16_v, U_ADDR, false, SPC)
VLOAD(vle32_v, U_ADDR, false, SPC)
VLOAD(vlse8_v, S_ADDR, false, SPC)
VLOAD(vlse16_v, S_ADDR, false, SPC)
VLOAD(vlse32_v, S_ADDR, false, SPC)
VLOAD(vluxei8_v, X8_ADDR, false, SPC)
VLOAD(vluxei16_v, X16_ADDR, false, SPC)
VLOAD(vluxei32_v, X32_ADDR, false, SPC)
VLOAD(vloxei8_v, X8_ADDR, false, SPC)
VLOAD(vloxei16_v, X16_ADDR, false, SPC)
VLOAD(vloxei32_v, X32_ADDR, false, SPC)
#define STORE_SRC src[i]
VSTORE(vse8_v, U_ADDR, SPC)
VSTORE(vse16_v, U_ADDR, SPC)
VSTORE(vse32_v, U_ADDR, SPC)
VSTORE(vsse8_v, S_ADDR, SPC)
VSTORE(vsse16_v, S_ADDR, SPC)
VSTORE(vsse32_v, S_ADDR, SPC)
VSTORE(vsuxei8_v, X8_ADDR, SPC)
VSTORE(vsuxei16_v, X16_ADDR, SPC)
VSTORE(vsuxei32_v, X32_ADDR, SPC)
VSTORE(vsoxei8_v, X8_ADDR, SPC)
VSTORE(vsoxei16_v, X16_ADDR, SPC)
VSTORE(vsoxei32_v, X32_ADDR, SPC)
#undef STORE_SRC

/* Ventus vlw12.v..vsb12.v: per thread, address = vs1[i] + sext(imm12). */
#define O12_ADDR (s1[i] + (uint32_t)in->imm)
VLOAD(vlw12_v, O12_ADDR, true, SPC)
VLOAD(vlh12_v, O12_ADDR, true, SPC)
VLOAD(vlb12_v, O12_ADDR, true, SPC)
VLOAD(vlhu12_v, O12_ADDR, false, SPC)
VLOAD(vlbu12_v, O12_ADDR, false, SPC)
#define STORE_SRC s2[i]
VSTORE(vsw12_v, O12_ADDR, SPC)
VSTORE(vsh12_v, O12_ADDR, SPC)
VSTORE(vsb12_v, O12_ADDR, SPC)

/* Private memory (spec §2): a = vs1[i] + imm; 4-byte words interleaved over every thread of
 * the workgroup: PDS + (a & ~3) * NUMW * NUMT + (a & 3) + (TID + i) * 4. */
static inline uint32_t priv_addr(const vt_warp *w, uint32_t a, unsigned lane)
{
    return w->csr_pds + (a & ~3u) * w->csr_numw * w->csr_numt + (a & 3u) + (w->csr_tid + lane) * 4u;
}
#define P_ADDR priv_addr(w, s1[i] + (uint32_t)in->imm, i)
VLOAD(vlw_v, P_ADDR, true, UMB_SPACE_PRIVATE)
VLOAD(vlh_v, P_ADDR, true, UMB_SPACE_PRIVATE)
VLOAD(vlb_v, P_ADDR, true, UMB_SPACE_PRIVATE)
VLOAD(vlhu_v, P_ADDR, false, UMB_SPACE_PRIVATE)
VLOAD(vlbu_v, P_ADDR, false, UMB_SPACE_PRIVATE)
VSTORE(vsw_v, P_ADDR, UMB_SPACE_PRIVATE)
VSTORE(vsh_v, P_ADDR, UMB_SPACE_PRIVATE)
VSTORE(vsb_v, P_ADDR, UMB_SPACE_PRIVATE)
#undef STORE_SRC

/* vadd12.vi / vsub12.vi: vd = vs1 +/- sext(imm12) (the golden model sign-extends). */
DEF(vadd12_vi, s1[i] + (uint32_t)imm)
DEF(vsub12_vi, s1[i] - (uint32_t)imm)
