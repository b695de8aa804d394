/* WMMA (v_wmma_*_16x16x16_*): matrices placed in registers by the layout AMD's Matrix Instruction
 * Calculator gives for RDNA3 (`matrix_calculator.py -a rdna3 -i INSTR -d`):
 *   A[i][k]: register k / per, element k % per of it, in lanes i, i+16 (and i+32, i+48 in wave64);
 *   B[k][j]: register k / per, element k % per, in lanes j, j+16, ...;
 *   C, D[i][j]: register i / (W / 16), lane (16 * i) % W + j (16-bit results in the half op_sel[2]
 *   picks),
 * with per = 2 (f16, bf16), 4 (iu8) or 8 (iu4) elements a register. Expected results are the
 * matrix product computed here in C. The float inputs are small multiples of 1/4 (integers for the
 * 16-bit results), so every sum is exact and the hardware's summation order cannot matter. */
#include "at.h"

enum { N = 16 };

static uint32_t next_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static uint32_t f16_bits(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}
static float f16_value(uint32_t u)
{
    uint16_t v = (uint16_t)u;
    _Float16 h;
    memcpy(&h, &v, 2);
    return (float)h;
}
static uint32_t bf16_bits(float f) { return fb(f) >> 16; }   /* the values used are exact in bf16 */
static float bf16_value(uint32_t u) { return bf(u << 16); }

/* Element `k` (of `bits` bits) of the row or column `idx` of a source matrix at VGPR `reg`: set
 * in every lane group of the wave. */
static void put_ab(at *t, unsigned reg, unsigned idx, unsigned k, unsigned bits, uint32_t value)
{
    unsigned per = 32u / bits, shift = bits * (k % per);
    uint32_t mask = ((1u << bits) - 1u) << shift;
    for (unsigned l = idx; l < t->wave_size; l += N) {
        uint32_t v = at_gv(t, reg + k / per, l);
        at_v(t, reg + k / per, l, (v & ~mask) | ((value << shift) & mask));
    }
}

static unsigned cd_reg(const at *t, unsigned base, unsigned i) { return base + i / (t->wave_size / N); }
static unsigned cd_lane(const at *t, unsigned i, unsigned j) { return (N * i) % t->wave_size + j; }

/* Float inputs: A and B in [-2, 2] by quarters (or integers in [-3, 3] when `ints`), C likewise
 * times 8. Returned as values; the registers get the encoding (f16 or bf16). */
static void fill_float(at *t, bool bf16, bool ints, float A[N][N], float B[N][N], uint32_t seed)
{
    for (unsigned r = 0; r < 24; r++)
        for (unsigned l = 0; l < t->wave_size; l++) at_v(t, r, l, 0);
    for (unsigned x = 0; x < N; x++)
        for (unsigned k = 0; k < N; k++) {
            float a = ints ? (float)((int)(next_rand(&seed) % 7) - 3) : (float)((int)(next_rand(&seed) % 17) - 8) / 4;
            float b = ints ? (float)((int)(next_rand(&seed) % 7) - 3) : (float)((int)(next_rand(&seed) % 17) - 8) / 4;
            A[x][k] = a, B[k][x] = b;
            put_ab(t, 0, x, k, 16, bf16 ? bf16_bits(a) : f16_bits(a));
            put_ab(t, 8, x, k, 16, bf16 ? bf16_bits(b) : f16_bits(b));
        }
}

static float dot(float A[N][N], float B[N][N], unsigned i, unsigned j, float c)
{
    double s = c;
    for (unsigned k = 0; k < N; k++) s += (double)A[i][k] * B[k][j];
    return (float)s;   /* exact for these inputs */
}

/* v_wmma_f32_16x16x16_{f16,bf16}: D = v[32:..], C = v[16:..]; and D aliasing C, as LLVM allocates it */
static void wmma_f32(at *t, bool bf16)
{
    float A[N][N], B[N][N], C[N][N];
    fill_float(t, bf16, false, A, B, bf16 ? 7u : 3u);
    uint32_t seed = 99;
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            C[i][j] = (float)((int)(next_rand(&seed) % 65) - 32) / 4;
            at_v(t, cd_reg(t, 16, i), cd_lane(t, i, j), fb(C[i][j]));
        }
    const char *op = bf16 ? "v_wmma_f32_16x16x16_bf16" : "v_wmma_f32_16x16x16_f16";
    unsigned last = t->wave_size == 32 ? 7 : 3;
    /* v[40] = AB + C; v[32] = AB + C, then v[32] = AB + v[32] (D and C the same registers) */
    at_code(t, "%s v[40:%u], v[0:7], v[8:15], v[16:%u]\n%s v[32:%u], v[0:7], v[8:15], v[16:%u]\n"
               "%s v[32:%u], v[0:7], v[8:15], v[32:%u]\n",
            op, 40 + last, 16 + last, op, 32 + last, 16 + last, op, 32 + last, 32 + last);
    RUNS(t);
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            float d = dot(A, B, i, j, C[i][j]);
            EQF(t, at_gv(t, cd_reg(t, 40, i), cd_lane(t, i, j)), d);
            EQF(t, at_gv(t, cd_reg(t, 32, i), cd_lane(t, i, j)), dot(A, B, i, j, d));
            EQF(t, at_gv(t, cd_reg(t, 16, i), cd_lane(t, i, j)), C[i][j]);   /* C untouched */
        }
}

/* A case in wave32 (the harness's wave), then again in wave64. */
static void in_both_waves(at *t, void (*fn)(at *, bool), bool arg)
{
    fn(t, arg);
    at_begin(t, 64);
    fn(t, arg);
}

static void wmma_f32_f16(at *t) { in_both_waves(t, wmma_f32, false); }
static void wmma_f32_bf16(at *t) { in_both_waves(t, wmma_f32, true); }

/* v_wmma_{f16,bf16}_16x16x16_*: 16-bit C and D in the low halves, or with op_sel:[0,0,1] in the
 * high halves; the other halves keep their bits. */
static void wmma_half(at *t, bool bf16)
{
    float A[N][N], B[N][N], C[N][N];
    fill_float(t, bf16, true, A, B, bf16 ? 11u : 5u);
    uint32_t seed = 123;
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            C[i][j] = (float)((int)(next_rand(&seed) % 33) - 16);
            uint32_t c = bf16 ? bf16_bits(C[i][j]) : f16_bits(C[i][j]);
            /* v16: C low, v24: C high; the other half a marker to be kept */
            at_v(t, cd_reg(t, 16, i), cd_lane(t, i, j), 0xabcd0000u | c);
            at_v(t, cd_reg(t, 24, i), cd_lane(t, i, j), (c << 16) | 0x1234u);
        }
    const char *op = bf16 ? "v_wmma_bf16_16x16x16_bf16" : "v_wmma_f16_16x16x16_f16";
    unsigned last = t->wave_size == 32 ? 7 : 3;
    at_code(t, "%s v[16:%u], v[0:7], v[8:15], v[16:%u]\n%s v[24:%u], v[0:7], v[8:15], v[24:%u] op_sel:[0,0,1]\n",
            op, 16 + last, 16 + last, op, 24 + last, 24 + last);
    RUNS(t);
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            float d = dot(A, B, i, j, C[i][j]);
            uint32_t want = bf16 ? bf16_bits(d) : f16_bits(d);
            OK(t, (bf16 ? bf16_value(want) : f16_value(want)) == d);   /* the inputs keep it exact */
            EQ(t, at_gv(t, cd_reg(t, 16, i), cd_lane(t, i, j)), 0xabcd0000u | want);
            EQ(t, at_gv(t, cd_reg(t, 24, i), cd_lane(t, i, j)), (want << 16) | 0x1234u);
        }
}

static void wmma_f16_f16(at *t) { in_both_waves(t, wmma_half, false); }
static void wmma_bf16_bf16(at *t) { in_both_waves(t, wmma_half, true); }

static int64_t int_of(uint32_t e, unsigned bits, bool sgn)
{
    return sgn && (e >> (bits - 1)) ? (int64_t)e - ((int64_t)1 << bits) : (int64_t)e;
}

/* v_wmma_i32_16x16x16_iu8 / _iu4 with each signedness of A and B (neg_lo[0], neg_lo[1]), with and
 * without clamp; C near the i32 limits so that clamping matters. */
static void wmma_int(at *t, unsigned bits)
{
    unsigned ab = N * bits / 32;   /* registers of A and of B */
    uint32_t seed = bits * 77u, A[N][N], B[N][N];
    int32_t C[N][N];
    for (unsigned r = 0; r < 2 * ab; r++)
        for (unsigned l = 0; l < t->wave_size; l++) at_v(t, r, l, 0);
    for (unsigned x = 0; x < N; x++)
        for (unsigned k = 0; k < N; k++) {
            A[x][k] = next_rand(&seed) & ((1u << bits) - 1u);
            B[k][x] = next_rand(&seed) & ((1u << bits) - 1u);
            put_ab(t, 0, x, k, bits, A[x][k]);
            put_ab(t, ab, x, k, bits, B[k][x]);
        }
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            uint32_t r = next_rand(&seed);
            C[i][j] = (i + j) % 3 == 0 ? INT32_MAX - (int32_t)(r % 1000) : (i + j) % 3 == 1 ? INT32_MIN + (int32_t)(r % 1000)
                                                                                    : (int32_t)(r % 20001) - 10000;
            at_v(t, cd_reg(t, 16, i), cd_lane(t, i, j), (uint32_t)C[i][j]);
        }
    const char *op = bits == 8 ? "v_wmma_i32_16x16x16_iu8" : "v_wmma_i32_16x16x16_iu4";
    unsigned last = t->wave_size == 32 ? 7 : 3, bl = 2 * ab - 1;
    char src[1024];
    size_t n = 0;
    for (unsigned v = 0; v < 4; v++)   /* D at v[32 + 8v ...], then the same four with clamp */
        n += (size_t)snprintf(src + n, sizeof src - n, "%s v[%u:%u], v[0:%u], v[%u:%u], v[16:%u] neg_lo:[%u,%u,0]\n", op,
                              32 + 8 * v, 32 + 8 * v + last, ab - 1, ab, bl, 16 + last, v & 1u, v >> 1);
    for (unsigned v = 0; v < 4; v++)
        n += (size_t)snprintf(src + n, sizeof src - n, "%s v[%u:%u], v[0:%u], v[%u:%u], v[16:%u] neg_lo:[%u,%u,0] clamp\n",
                              op, 64 + 8 * v, 64 + 8 * v + last, ab - 1, ab, bl, 16 + last, v & 1u, v >> 1);
    at_code(t, "%s", src);
    RUNS(t);
    for (unsigned v = 0; v < 4; v++)
        for (unsigned i = 0; i < N; i++)
            for (unsigned j = 0; j < N; j++) {
                int64_t s = C[i][j];
                for (unsigned k = 0; k < N; k++) s += int_of(A[i][k], bits, v & 1u) * int_of(B[k][j], bits, v >> 1);
                int64_t sat = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                EQ(t, at_gv(t, cd_reg(t, 32 + 8 * v, i), cd_lane(t, i, j)), (uint32_t)s);   /* wraps */
                EQ(t, at_gv(t, cd_reg(t, 64 + 8 * v, i), cd_lane(t, i, j)), (uint32_t)sat);
            }
}

static void wmma_int8(at *t, bool unused) { (void)unused; wmma_int(t, 8); }
static void wmma_int4(at *t, bool unused) { (void)unused; wmma_int(t, 4); }
static void wmma_i32_iu8(at *t) { in_both_waves(t, wmma_int8, false); }
static void wmma_i32_iu4(at *t) { in_both_waves(t, wmma_int4, false); }

/* Special inputs, A times B = I (the identity) plus C = 0, so that D's row i is A's row i:
 * f16 subnormals (converted exactly: the sums are exact in double and in f32), infinities, and
 * NaNs; Inf x 0 (B's zeros) and Inf - Inf make NaNs too. A NaN result is the result type's
 * default quiet NaN whatever the inputs' payloads (umbra's rule, docs/RDNA3_PRECISION.md "WMMA":
 * which payload the hardware keeps is not published); the f16 and bf16 forms too. */
static void special_values(at *t, bool unused)
{
    (void)unused;
    static const uint32_t row_sub[N] = { 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x0000, 0x8000,
                                         0x0001, 0x0002, 0x0003, 0x0004, 0x0005, 0x0006, 0x0007, 0x0008 };
    for (unsigned r = 0; r < 48; r++)
        for (unsigned l = 0; l < t->wave_size; l++) at_v(t, r, l, 0);
    for (unsigned k = 0; k < N; k++) {
        put_ab(t, 0, 0, k, 16, row_sub[k]);    /* row 0: subnormals, zeros, the smallest normal */
        put_ab(t, 8, k, k, 16, 0x3c00);        /* B = I (1.0 on the diagonal) */
    }
    put_ab(t, 0, 1, 0, 16, 0x7c00);   /* row 1: +Inf in column 0: D[1][0] = +Inf, D[1][j] = Inf x 0 = NaN */
    put_ab(t, 0, 2, 5, 16, 0x7d01);   /* row 2: a signalling NaN with a payload: every D[2][j] is NaN */
    put_ab(t, 0, 3, 2, 16, 0xfc00);   /* row 3: -Inf: D[3][2] = -Inf, others NaN */
    unsigned last = t->wave_size == 32 ? 7 : 3;
    at_code(t, "v_wmma_f32_16x16x16_f16 v[16:%u], v[0:7], v[8:15], 0\n"
               "v_wmma_f16_16x16x16_f16 v[24:%u], v[0:7], v[8:15], 0\n", 16 + last, 24 + last);
    RUNS(t);
    for (unsigned j = 0; j < N; j++) {
        float sum = 0.0f + f16_value(row_sub[j]);   /* C = +0: -0 + +0 is +0 */
        EQF(t, at_gv(t, cd_reg(t, 16, 0), cd_lane(t, 0, j)), sum);   /* exact, subnormals kept */
        EQ(t, at_gv(t, cd_reg(t, 24, 0), cd_lane(t, 0, j)), f16_bits(sum));   /* and back to f16 */
        EQ(t, at_gv(t, cd_reg(t, 16, 1), cd_lane(t, 1, j)), j == 0 ? 0x7f800000u : 0x7fc00000u);
        EQ(t, at_gv(t, cd_reg(t, 24, 1), cd_lane(t, 1, j)) & 0xffffu, j == 0 ? 0x7c00u : 0x7e00u);
        EQ(t, at_gv(t, cd_reg(t, 16, 2), cd_lane(t, 2, j)), 0x7fc00000u);
        EQ(t, at_gv(t, cd_reg(t, 24, 2), cd_lane(t, 2, j)) & 0xffffu, 0x7e00u);
        EQ(t, at_gv(t, cd_reg(t, 16, 3), cd_lane(t, 3, j)), j == 2 ? 0xff800000u : 0x7fc00000u);
    }
    /* bf16 (the f16 patterns above are finite bf16 numbers): a NaN with a payload, Inf x 0, Inf - Inf */
    for (unsigned r = 0; r < 16; r++)
        for (unsigned l = 0; l < t->wave_size; l++) at_v(t, r, l, 0);
    for (unsigned k = 0; k < N; k++) put_ab(t, 8, k, k, 16, 0x3f80);   /* bf16 1.0 */
    put_ab(t, 0, 4, 7, 16, 0xffc1);   /* a bf16 NaN with a payload */
    put_ab(t, 0, 5, 0, 16, 0x7f80);   /* bf16 +Inf and -Inf in one row: every sum has an Inf x 0 */
    put_ab(t, 0, 5, 1, 16, 0xff80);
    put_ab(t, 0, 7, 0, 16, 0x7f80);   /* row 7: +Inf; column 0 of B all ones there: Inf - Inf below */
    for (unsigned k = 1; k < N; k++) put_ab(t, 8, 0, k, 16, 0x3f80);
    put_ab(t, 0, 7, 1, 16, 0xff80);
    at_code(t, "v_wmma_bf16_16x16x16_bf16 v[32:%u], v[0:7], v[8:15], 0\n"
               "v_wmma_f32_16x16x16_bf16 v[40:%u], v[0:7], v[8:15], 0\n", 32 + last, 40 + last);
    RUNS(t);
    for (unsigned j = 0; j < N; j++) {
        EQ(t, at_gv(t, cd_reg(t, 32, 4), cd_lane(t, 4, j)) & 0xffffu, 0x7fc0u);
        EQ(t, at_gv(t, cd_reg(t, 32, 5), cd_lane(t, 5, j)) & 0xffffu, 0x7fc0u);
        EQ(t, at_gv(t, cd_reg(t, 32, 7), cd_lane(t, 7, j)) & 0xffffu, 0x7fc0u);   /* j = 0: Inf - Inf; else Inf x 0 */
        EQ(t, at_gv(t, cd_reg(t, 40, 4), cd_lane(t, 4, j)), 0x7fc00000u);
        EQ(t, at_gv(t, cd_reg(t, 32, 6), cd_lane(t, 6, j)) & 0xffffu, 0u);
    }
}

static void wmma_special_values(at *t) { in_both_waves(t, special_values, false); }

/* What no public source defines is refused with a message, never computed by a guess. */
static void wmma_refused(at *t)
{
    float A[N][N], B[N][N];
    fill_float(t, false, false, A, B, 1u);
    at_code(t, "v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23]\n");
    umb_rdna3_step_set_exec(t->s, 0x0000ffffu);
    FAULTS(t, "inactive lanes");
    at_begin(t, 32);
    fill_float(t, false, false, A, B, 1u);
    at_v(t, 9, 20, at_gv(t, 9, 4) ^ 1u);   /* lane 20's copy of column 4 differs from lane 4's */
    at_code(t, "v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23]\n");
    FAULTS(t, "equal copies");
    at_begin(t, 32);
    fill_float(t, false, false, A, B, 1u);
    at_code(t, "v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], v[16:23] neg_lo:[1,0,0]\n");
    FAULTS(t, "neg/neg_hi");
}

const at_case at_wmma_cases[] = {
    C(wmma_f32_f16), C(wmma_f32_bf16), C(wmma_f16_f16), C(wmma_bf16_bf16), C(wmma_i32_iu8), C(wmma_i32_iu4),
    C(wmma_special_values), C(wmma_refused), {NULL, NULL},
};
