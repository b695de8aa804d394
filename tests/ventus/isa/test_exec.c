/* ventus.isa.exec: small programs per instruction class, run through umb_ventus_run on one
 * workgroup; every result is compared with a value computed by C or stated by the RISC-V /
 * Ventus specification (division rules, IEEE flags, canonical NaN, the SIMT stack rules,
 * the private-memory layout of spec §2, fault reports). Encodings come from the table's
 * match values; ventus.isa.disasm checks those against llvm-mc/objdump. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "isa/ventus/ventus_isa.h"
#include "umbra/umbra.h"
#include "umbra/ventus.h"

#define CODE 0x80000000u
#define DATA 0x90000000u
#define PDS 0x90008000u
#define LANES 8u

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

typedef struct prog { uint32_t w[512]; unsigned n; } prog;
#define M(op) vt_insn_table[VT_OP_##op].match
static void emit(prog *p, uint32_t w) { p->w[p->n++] = w; }
static uint32_t R(uint32_t m, unsigned rd, unsigned rs1, unsigned rs2) { return m | rd << 7 | rs1 << 15 | rs2 << 20; }
static uint32_t V(uint32_t m, unsigned vd, unsigned s1, unsigned vs2) { return R(m, vd, s1, vs2) | 1u << 25; }
static uint32_t I(uint32_t m, unsigned rd, unsigned rs1, int32_t imm) { return m | rd << 7 | rs1 << 15 | ((uint32_t)imm & 0xfff) << 20; }
static uint32_t S(uint32_t m, unsigned rs1, unsigned rs2, int32_t imm)
{
    uint32_t u = (uint32_t)imm & 0xfff;
    return m | (u & 0x1f) << 7 | rs1 << 15 | rs2 << 20 | (u >> 5) << 25;
}
static uint32_t B(uint32_t m, unsigned rs1, unsigned rs2, int32_t off)
{
    uint32_t u = (uint32_t)off;
    return m | ((u >> 11) & 1) << 7 | ((u >> 1) & 0xf) << 8 | rs1 << 15 | rs2 << 20 | ((u >> 5) & 0x3f) << 25 |
           ((u >> 12) & 1) << 31;
}
static void li(prog *p, unsigned rd, uint32_t v)
{
    uint32_t hi = (v + 0x800) & 0xfffff000u;
    emit(p, M(lui) | rd << 7 | hi);
    emit(p, I(M(addi), rd, rd, (int32_t)(v - hi)));
}
/* v1 = DATA + 4*lane + off: per-thread result addresses */
static void lane_addr(prog *p, unsigned vd, uint32_t off)
{
    li(p, 28, 32);                                  /* x28 = 32: the next result row */
    emit(p, V(M(vid_v), vd, 0x11, 0));
    emit(p, V(M(vsll_vi), vd, 2, vd));
    li(p, 5, DATA + off);
    emit(p, V(M(vadd_vx), vd, 5, vd));
}
static void store_v(prog *p, unsigned vsrc, unsigned vaddr) { emit(p, S(M(vsw12_v), vaddr, vsrc, 0)); }
static void endprg(prog *p) { emit(p, M(endprg)); }

static umb_device *dev;

static umb_status run(prog *p, umb_stats *st)
{
    umb_mem_unmap(dev, DATA, 0x10000);
    umb_mem_map(dev, DATA, 0x10000);
    umb_mem_copy_to_device(dev, CODE, p->w, p->n * 4);
    umb_ventus_launch l;
    memset(&l, 0, sizeof l);
    l.start_pc = CODE;
    l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.wf_size = LANES;
    l.wg_size = 1;
    l.metadata_base = DATA + 0x7000;
    l.pds_base = PDS;
    l.name = "test";
    umb_stats s;
    memset(&s, 0, sizeof s);
    umb_status r = umb_ventus_run(dev, &l, NULL, st ? st : &s);
    return r;
}
static uint32_t rd32(uint32_t a)
{
    uint32_t v = 0;
    umb_mem_copy_from_device(dev, a, &v, 4);
    return v;
}
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* Integer lane ops: vadd/vmul/vsra/vmin against C; RISC-V division-by-zero rules. */
static void test_int(void)
{
    prog p = {0};
    lane_addr(&p, 1, 0);
    emit(&p, V(M(vid_v), 2, 0x11, 0));              /* v2 = lane */
    li(&p, 6, 0xfffffff9u);                         /* x6 = -7 */
    emit(&p, V(M(vmul_vx), 3, 6, 2));               /* v3 = -7 * lane */
    emit(&p, V(M(vsra_vi), 4, 1, 3));               /* v4 = v3 >> 1 (arithmetic) */
    emit(&p, V(M(vdiv_vv), 5, 2, 3));               /* v5 = v3 / lane (lane 0: /0) */
    emit(&p, V(M(vremu_vx), 6, 0, 3));              /* v6 = v3 %u 0 = v3 */
    emit(&p, V(M(vmslt_vx), 7, 6, 3));              /* v7 = v3 < -7 */
    store_v(&p, 4, 1);
    emit(&p, V(M(vadd_vx), 1, 28, 1));              /* +32 bytes: next row */
    store_v(&p, 5, 1);
    emit(&p, V(M(vadd_vx), 1, 28, 1));
    store_v(&p, 6, 1);
    emit(&p, V(M(vadd_vx), 1, 28, 1));
    store_v(&p, 7, 1);
    endprg(&p);
    umb_status st = run(&p, NULL);
    CHECK(st == UMB_OK, "int program: %s %s", umb_status_name(st), umb_device_last_error(dev));
    for (uint32_t i = 0; i < LANES; i++) {
        int32_t v3 = -7 * (int32_t)i;
        CHECK(rd32(DATA + 4 * i) == (uint32_t)(v3 >> 1), "vsra lane %u", i);
        uint32_t q = i == 0 ? 0xffffffffu : (uint32_t)(v3 / (int32_t)i);
        CHECK(rd32(DATA + 32 + 4 * i) == q, "vdiv lane %u: 0x%x want 0x%x", i, rd32(DATA + 32 + 4 * i), q);
        CHECK(rd32(DATA + 64 + 4 * i) == (uint32_t)v3, "vremu by 0 lane %u", i);
        CHECK(rd32(DATA + 96 + 4 * i) == (v3 < -7), "vmslt lane %u writes 0/1", i);
    }
}

/* FP: IEEE results and fflags (NX, DZ, NV), canonical NaN, RISC-V fmin, RMM ties. */
static void test_fp(void)
{
    prog p = {0};
    lane_addr(&p, 1, 0);
    li(&p, 6, f2u(1.0f));
    emit(&p, V(M(vmv_v_x), 2, 6, 0));               /* v2 = 1.0 */
    li(&p, 7, f2u(0x1p-30f));
    emit(&p, V(M(vmv_v_x), 3, 7, 0));               /* v3 = 2^-30 */
    emit(&p, V(M(vfadd_vv), 4, 3, 2));              /* 1 + 2^-30: inexact, = 1.0 */
    store_v(&p, 4, 1);
    emit(&p, R(M(csrrs), 8, 0, 0) | 0x001u << 20);  /* x8 = fflags */
    emit(&p, V(M(vmv_v_x), 5, 0, 0));               /* v5 = 0 */
    emit(&p, V(M(vfdiv_vv), 9, 5, 5));              /* 0/0 = canonical NaN, NV */
    emit(&p, V(M(vadd_vx), 1, 28, 1));
    store_v(&p, 9, 1);
    emit(&p, V(M(vfdiv_vv), 10, 5, 2));             /* 1/0 = +inf, DZ */
    emit(&p, R(M(csrrs), 9, 0, 0) | 0x001u << 20);  /* x9 = fflags */
    li(&p, 10, 0x80000000u);                         /* -0.0 */
    emit(&p, M(fmv_w_x) | 1u << 7 | 10u << 15);     /* f1 = -0 */
    emit(&p, M(fmv_w_x) | 2u << 7 | 0u << 15);      /* f2 = +0 */
    emit(&p, R(M(fmin_s), 3, 2, 1));                /* f3 = fmin(+0, -0) = -0 */
    emit(&p, M(fmv_x_w) | 11u << 7 | 3u << 15);     /* x11 = f3 */
    li(&p, 12, f2u(1.0f));
    li(&p, 13, f2u(0x1p-24f));
    emit(&p, M(fmv_w_x) | 4u << 7 | 12u << 15);
    emit(&p, M(fmv_w_x) | 5u << 7 | 13u << 15);
    emit(&p, R(M(fadd_s), 6, 4, 5) | 4u << 12);     /* rmm: tie 1 + 2^-24 -> 1 + 2^-23 */
    emit(&p, R(M(fadd_s), 7, 4, 5) | 0u << 12);     /* rne: -> 1.0 */
    emit(&p, M(fmv_x_w) | 14u << 7 | 6u << 15);
    emit(&p, M(fmv_x_w) | 15u << 7 | 7u << 15);
    li(&p, 17, DATA + 0x200);
    emit(&p, S(M(sw), 17, 8, 0));
    emit(&p, S(M(sw), 17, 9, 4));
    emit(&p, S(M(sw), 17, 11, 8));
    emit(&p, S(M(sw), 17, 14, 12));
    emit(&p, S(M(sw), 17, 15, 16));
    endprg(&p);
    umb_status st = run(&p, NULL);
    CHECK(st == UMB_OK, "fp program: %s %s", umb_status_name(st), umb_device_last_error(dev));
    CHECK(rd32(DATA) == f2u(1.0f), "1 + 2^-30 = 1.0");
    CHECK(rd32(DATA + 0x200) == 0x01, "fflags after the inexact add: 0x%x want NX", rd32(DATA + 0x200));
    CHECK(rd32(DATA + 32) == 0x7fc00000u, "0/0 is the canonical NaN: 0x%x", rd32(DATA + 32));
    CHECK(rd32(DATA + 0x204) == (0x01u | 0x10u | 0x08u), "fflags NX|NV|DZ: 0x%x", rd32(DATA + 0x204));
    CHECK(rd32(DATA + 0x208) == 0x80000000u, "fmin(+0,-0) = -0: 0x%x", rd32(DATA + 0x208));
    CHECK(rd32(DATA + 0x20c) == f2u(1.0f + 0x1p-23f), "rmm tie rounds away: 0x%x", rd32(DATA + 0x20c));
    CHECK(rd32(DATA + 0x210) == f2u(1.0f), "rne tie rounds to even: 0x%x", rd32(DATA + 0x210));
    (void)u2f;
}

/* SIMT: odd lanes take a vbne; both paths write; join reconverges; one divergent branch. */
static void test_simt(void)
{
    prog p = {0};
    unsigned at_li = p.n;
    emit(&p, 0);
    emit(&p, 0);                                    /* li x7, <join pc> (patched) */
    lane_addr(&p, 1, 0);
    emit(&p, V(M(vid_v), 2, 0x11, 0));
    emit(&p, V(M(vand_vi), 3, 1, 2));               /* v3 = lane & 1 */
    emit(&p, V(M(vmv_v_x), 4, 0, 0));               /* v4 = 0 */
    emit(&p, I(M(setrpc), 0, 7, 0));                /* CSR_RPC = x7 */
    unsigned at_br = p.n;
    emit(&p, 0);                                    /* vbne v3, v4 -> else (odd lanes) */
    li(&p, 6, 111);
    emit(&p, V(M(vmv_v_x), 5, 6, 0));               /* fall-through (even lanes): v5 = 111 */
    unsigned at_jmp = p.n;
    emit(&p, 0);                                    /* j join */
    unsigned at_else = p.n;
    li(&p, 6, 222);
    emit(&p, V(M(vmv_v_x), 5, 6, 0));               /* taken (odd lanes): v5 = 222 */
    unsigned at_join = p.n;
    emit(&p, M(join));
    emit(&p, M(join));                              /* second pass of the reconvergence point */
    store_v(&p, 5, 1);
    endprg(&p);
    prog t = {0};
    li(&t, 7, CODE + 4 * at_join);
    p.w[at_li] = t.w[0];
    p.w[at_li + 1] = t.w[1];
    p.w[at_br] = B(M(vbne), 4, 3, (int32_t)(4 * (at_else - at_br)));
    p.w[at_jmp] = M(jal) | ((4 * (at_join - at_jmp) >> 1) & 0x3ffu) << 21;
    umb_stats s;
    memset(&s, 0, sizeof s);
    umb_status st = run(&p, &s);
    CHECK(st == UMB_OK, "simt program: %s %s", umb_status_name(st), umb_device_last_error(dev));
    for (uint32_t i = 0; i < LANES; i++)
        CHECK(rd32(DATA + 4 * i) == (i & 1 ? 222u : 111u), "lane %u took the wrong path: %u", i, rd32(DATA + 4 * i));
    CHECK(s.divergent_branches == 1, "divergent branches %llu", (unsigned long long)s.divergent_branches);
}

/* A divergent vbranch with 31 of 32 SIMT stack entries in use overflows: a guest fault naming
 * the stack (poked directly: lanes limit how deep a real program can nest). */
static void test_simt_overflow(void)
{
    umb_launch l;
    memset(&l, 0, sizeof l);
    l.kernel_name = "overflow";
    umb_workgroup wg;
    memset(&wg, 0, sizeof wg);
    wg.launch = &l;
    umb_warp uw;
    memset(&uw, 0, sizeof uw);
    uw.wg = &wg;
    umb_stats s;
    memset(&s, 0, sizeof s);
    vt_warp *w = calloc(1, sizeof *w);
    w->uw = &uw;
    w->stats = &s;
    w->nlanes = w->vl = LANES;
    w->mask = w->full = (1u << LANES) - 1;
    for (uint32_t i = 0; i < LANES; i++) w->v[2][i] = i;
    vt_insn in;
    vt_decode(B(M(vbne), 4, 2, 8), CODE, &in);
    w->sp = 30;
    in.fn(w, &in);
    CHECK(w->stop == 0 && w->sp == 32, "30 entries + a split fit: sp %u", w->sp);
    w->sp = 31;
    w->mask = w->full;
    in.fn(w, &in);
    CHECK(w->stop == UMB_WARP_FAULTED, "31 entries + a split must overflow");
    CHECK(strstr(l.fault.message, "SIMT stack overflow") != NULL, "message: %s", l.fault.message);
    free(w);
}

/* An unmapped per-thread load names the lane and the address. */
static void test_unmapped(void)
{
    prog p = {0};
    emit(&p, V(M(vid_v), 2, 0x11, 0));
    emit(&p, V(M(vsll_vi), 2, 12, 2));             /* lane * 4096 */
    li(&p, 5, DATA + 0xe000);
    emit(&p, V(M(vadd_vx), 2, 5, 2));               /* lane 2 reaches DATA + 0x10000 (unmapped) */
    emit(&p, I(M(vlw12_v), 3, 2, 0));
    endprg(&p);
    umb_status st = run(&p, NULL);
    CHECK(st == UMB_ERR_GUEST_FAULT, "unmapped status %s", umb_status_name(st));
    const char *e = umb_device_last_error(dev);
    CHECK(strstr(e, "lane 2") && strstr(e, "0x90010000") && strstr(e, "vlw12.v"), "message: %s", e);
}

/* Private memory layout (spec §2): PDS + (a&~3)*NUMW*NUMT + (a&3) + (TID+i)*4. */
static void test_private(void)
{
    prog p = {0};
    emit(&p, V(M(vid_v), 2, 0x11, 0));
    emit(&p, V(M(vadd_vi), 3, 0x0a, 2));            /* v3 = lane + 10 (value) */
    emit(&p, V(M(vmv_v_x), 4, 0, 0));               /* a = 0 + imm */
    emit(&p, M(vsw_v) | 3u << 20 | 4u << 15 | (8u & 0x1f) << 7);  /* vsw.v v3, 8(v4) */
    endprg(&p);
    umb_status st = run(&p, NULL);
    CHECK(st == UMB_OK, "private program: %s %s", umb_status_name(st), umb_device_last_error(dev));
    for (uint32_t i = 0; i < LANES; i++) {
        uint32_t a = PDS + 8 * 1 * LANES + i * 4;
        CHECK(rd32(a) == i + 10, "private word of lane %u at 0x%x: %u", i, a, rd32(a));
    }
}

/* regext: the next instruction's vd gets high bits (v1 | 1<<5 = v33). */
static void test_regext(void)
{
    prog p = {0};
    lane_addr(&p, 1, 0);
    li(&p, 6, 77);
    emit(&p, I(M(regext), 0, 0, 1));                /* rd high bits = 1 */
    emit(&p, V(M(vmv_v_x), 1, 6, 0));               /* -> vmv.v.x v33, x6 */
    emit(&p, I(M(regext), 0, 0, 1 << 6));           /* rs2 high bits = 1 */
    emit(&p, S(M(vsw12_v), 1, 1, 0));               /* -> vsw12.v v33, 0(v1) */
    endprg(&p);
    umb_status st = run(&p, NULL);
    CHECK(st == UMB_OK, "regext program: %s %s", umb_status_name(st), umb_device_last_error(dev));
    for (uint32_t i = 0; i < LANES; i++) CHECK(rd32(DATA + 4 * i) == 77, "lane %u: v33 not stored", i);
}

int main(void)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    if (umb_device_create(&cfg, &dev) != UMB_OK) { printf("FAIL: no device\n"); return 1; }
    umb_mem_map(dev, CODE, 0x10000);
    test_int();
    test_fp();
    test_simt();
    test_simt_overflow();
    test_unmapped();
    test_private();
    test_regext();
    umb_device_destroy(dev);
    printf("%s: %d failures\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
