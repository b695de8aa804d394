/* RDNA3 VOPC: v_cmp_*, v_cmpx_*, v_cmp_class_* (e32, e64 and DPP forms).
 *
 * Opcode layout (0..255): bit 7 = cmpx; 0x00/0x10/0x20 + cond = f16/f32/f64 with 16 float
 * conditions; 0x30/0x38/0x40/0x48/0x50/0x58 + cond = i16/u16/i32/u32/i64/u64 with 8 integer
 * conditions; 0x7d/0x7e/0x7f = class f16/f32/f64. Both operands are widened (floats to double,
 * integers to 64 bits; exact), then one loop per condition builds the lane mask.
 * Results: inactive lanes get 0. e32 writes VCC, e64 writes its SGPR destination, cmpx writes
 * only EXEC (gfx10+).
 */
#include "isa/rdna3/exec_alu.h"

enum { T_F16, T_F32, T_F64, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64 };

static int cmp_type(unsigned op)
{
    op &= 0x7fu;
    if (op < 0x10) return T_F16;
    if (op < 0x20) return T_F32;
    if (op < 0x30) return T_F64;
    if (op < 0x38) return T_I16;
    if (op < 0x40) return T_U16;
    if (op < 0x48) return T_I32;
    if (op < 0x50) return T_U32;
    if (op < 0x58) return T_I64;
    return T_U64;
}

/* Source i widened to double (float types). */
static void fetch_f(rdna3_wave *w, const rdna3_inst *in, unsigned i, int t, double *out)
{
    unsigned n = w->wave_size;
    if (t == T_F64) {
        uint64_t b[RDNA3_MAX_LANES];
        rdna3_vsrc64(w, in, i, RK_F64, b);
        for (unsigned l = 0; l < n; l++) out[l] = f64_of(b[l]);
        return;
    }
    uint32_t buf[RDNA3_MAX_LANES];
    const uint32_t *p = rdna3_vsrc(w, in, i, t == T_F16 ? RK_F16 : RK_F32, buf);
    if (t == T_F16) for (unsigned l = 0; l < n; l++) out[l] = f32_from_f16(p[l]);
    else for (unsigned l = 0; l < n; l++) out[l] = f32_of(p[l]);
}

/* Source i widened to 64 bits (integer types; signed types sign-extended). */
static void fetch_i(rdna3_wave *w, const rdna3_inst *in, unsigned i, int t, uint64_t *out)
{
    unsigned n = w->wave_size;
    if (t == T_I64 || t == T_U64) {
        rdna3_vsrc64(w, in, i, t == T_I64 ? RK_I64 : RK_B64, out);
        return;
    }
    uint32_t buf[RDNA3_MAX_LANES];
    const uint32_t *p = rdna3_vsrc(w, in, i, (t == T_I16 || t == T_U16) ? RK_B16 : RK_B32, buf);
    for (unsigned l = 0; l < n; l++) {
        uint32_t v = p[l];
        switch (t) {
        case T_I16: out[l] = (uint64_t)(int64_t)(int16_t)v; break;
        case T_U16: out[l] = v & 0xffffu; break;
        case T_I32: out[l] = (uint64_t)(int64_t)(int32_t)v; break;
        default: out[l] = v; break;
        }
    }
}

#define CMP_LOOP(expr) for (unsigned l = 0; l < n; l++) r |= (uint64_t)(expr) << l

static uint64_t cmp_float(const double *a, const double *b, unsigned n, unsigned cond)
{
    uint64_t r = 0;
    if (n > RDNA3_MAX_LANES) n = RDNA3_MAX_LANES;
    switch (cond) {
    case 0: break;
    case 1: CMP_LOOP(a[l] < b[l]); break;
    case 2: CMP_LOOP(a[l] == b[l]); break;
    case 3: CMP_LOOP(a[l] <= b[l]); break;
    case 4: CMP_LOOP(a[l] > b[l]); break;
    case 5: CMP_LOOP(a[l] < b[l] || a[l] > b[l]); break;
    case 6: CMP_LOOP(a[l] >= b[l]); break;
    case 7: CMP_LOOP(!isnan(a[l]) && !isnan(b[l])); break;
    case 8: CMP_LOOP(isnan(a[l]) || isnan(b[l])); break;
    case 9: CMP_LOOP(!(a[l] >= b[l])); break;
    case 10: CMP_LOOP(!(a[l] < b[l] || a[l] > b[l])); break;
    case 11: CMP_LOOP(!(a[l] > b[l])); break;
    case 12: CMP_LOOP(!(a[l] <= b[l])); break;
    case 13: CMP_LOOP(!(a[l] == b[l])); break;
    case 14: CMP_LOOP(!(a[l] < b[l])); break;
    default: r = ~0ull; break;
    }
    return r;
}

static uint64_t cmp_int(const uint64_t *a, const uint64_t *b, unsigned n, unsigned cond, bool sgn)
{
    uint64_t r = 0;
    if (n > RDNA3_MAX_LANES) n = RDNA3_MAX_LANES;
    if (sgn) {
        const int64_t *x = (const int64_t *)a, *y = (const int64_t *)b;
        switch (cond) {
        case 0: break;
        case 1: CMP_LOOP(x[l] < y[l]); break;
        case 2: CMP_LOOP(x[l] == y[l]); break;
        case 3: CMP_LOOP(x[l] <= y[l]); break;
        case 4: CMP_LOOP(x[l] > y[l]); break;
        case 5: CMP_LOOP(x[l] != y[l]); break;
        case 6: CMP_LOOP(x[l] >= y[l]); break;
        default: r = ~0ull; break;
        }
        return r;
    }
    switch (cond) {
    case 0: break;
    case 1: CMP_LOOP(a[l] < b[l]); break;
    case 2: CMP_LOOP(a[l] == b[l]); break;
    case 3: CMP_LOOP(a[l] <= b[l]); break;
    case 4: CMP_LOOP(a[l] > b[l]); break;
    case 5: CMP_LOOP(a[l] != b[l]); break;
    case 6: CMP_LOOP(a[l] >= b[l]); break;
    default: r = ~0ull; break;
    }
    return r;
}

static void write_result(rdna3_wave *w, const rdna3_inst *in, uint64_t r, unsigned op)
{
    uint64_t m = rdna3_vexec(w, in);
    r &= m;
    if (op & 0x80u) {
        rdna3_set_exec(w, r);
        return;
    }
    if (in->fmt == RDNA3_FMT_VOPC) rdna3_set_vcc(w, r);
    else rdna3_sdst_mask(w, in->vdst, r);
}

/* 32-bit integer compares (loop conditions, bounds checks: the common case) without widening. */
#define CMP32(T)                                                                 \
    do {                                                                         \
        const T *x = (const T *)A, *y = (const T *)B;                            \
        switch (cond) {                                                          \
        case 0: break;                                                           \
        case 1: CMP_LOOP(x[l] < y[l]); break;                                    \
        case 2: CMP_LOOP(x[l] == y[l]); break;                                   \
        case 3: CMP_LOOP(x[l] <= y[l]); break;                                   \
        case 4: CMP_LOOP(x[l] > y[l]); break;                                    \
        case 5: CMP_LOOP(x[l] != y[l]); break;                                   \
        case 6: CMP_LOOP(x[l] >= y[l]); break;                                   \
        default: r = ~0ull; break;                                               \
        }                                                                        \
    } while (0)

static uint64_t cmp32(rdna3_wave *w, const rdna3_inst *in, bool sgn, unsigned cond)
{
    uint32_t ab[RDNA3_MAX_LANES], bb[RDNA3_MAX_LANES];
    const uint32_t *A = rdna3_vsrc(w, in, 0, RK_B32, ab), *B = rdna3_vsrc(w, in, 1, RK_B32, bb);
    unsigned n = w->wave_size;
    if (n > RDNA3_MAX_LANES) n = RDNA3_MAX_LANES;
    uint64_t r = 0;
    if (sgn) CMP32(int32_t);
    else CMP32(uint32_t);
    return r;
}

static void exec_cmp(rdna3_wave *w, const rdna3_inst *in)
{
    unsigned op = in->op, n = w->wave_size;
    int t = cmp_type(op);
    uint64_t r;
    if (t == T_I32 || t == T_U32) {
        r = cmp32(w, in, t == T_I32, op & 7u);
    } else if (t <= T_F64) {
        double a[RDNA3_MAX_LANES], b[RDNA3_MAX_LANES];
        fetch_f(w, in, 0, t, a);
        fetch_f(w, in, 1, t, b);
        r = cmp_float(a, b, n, op & 15u);
    } else {
        uint64_t a[RDNA3_MAX_LANES], b[RDNA3_MAX_LANES];
        fetch_i(w, in, 0, t, a);
        fetch_i(w, in, 1, t, b);
        r = cmp_int(a, b, n, op & 7u, t == T_I16 || t == T_I32 || t == T_I64);
    }
    write_result(w, in, r, op);
}

static void exec_class(rdna3_wave *w, const rdna3_inst *in)
{
    unsigned op = in->op & 0x7fu, n = w->wave_size;
    uint32_t mb[RDNA3_MAX_LANES];
    const uint32_t *M = rdna3_vsrc(w, in, 1, RK_B32, mb);
    uint64_t r = 0;
    if (op == 0x7f) {
        uint64_t a[RDNA3_MAX_LANES];
        rdna3_vsrc64(w, in, 0, RK_F64, a);
        CMP_LOOP(rdna3_class64(f64_of(a[l]), M[l]));
    } else {
        uint32_t ab[RDNA3_MAX_LANES];
        const uint32_t *A = rdna3_vsrc(w, in, 0, op == 0x7d ? RK_F16 : RK_F32, ab);
        /* class tests the exact bits: a denormal input is not flushed first */
        if (op == 0x7d) CMP_LOOP(rdna3_class16(A[l] & 0xffffu, M[l]));
        else CMP_LOOP(rdna3_class32(f32_of(A[l]), M[l]));
    }
    write_result(w, in, r, in->op);
}

rdna3_exec_fn rdna3_vopc_handler(unsigned op)
{
    if (op > 0xff) return NULL;
    unsigned o = op & 0x7fu;
    if (o >= 0x7d) return exec_class;
    if (o < 0x30) return exec_cmp;
    if (o < 0x60 && o != 0x30 && o != 0x37 && o != 0x38 && o != 0x3f) return exec_cmp;
    return NULL;
}
