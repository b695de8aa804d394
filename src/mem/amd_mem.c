/* AMD memory model: alignment modes and atomic operations (see amd_mem.h). */
#include "mem/amd_mem.h"

#include <math.h>
#include <string.h>

static float f32_of(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static uint64_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double f64_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static uint64_t bits_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Float min/max: a NaN operand yields the other one (IEEE minNum/maxNum), and -0 < +0. */
static double fminmax(double a, double b, bool is_max)
{
    if (isnan(a)) return b;
    if (isnan(b)) return a;
    if (a == b) return (signbit(a) != signbit(b)) ? (is_max ? fabs(a) : -fabs(a)) : a;
    return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

static uint64_t float_op(amd_atomic_op op, uint32_t size, uint64_t tmp, uint64_t src, uint64_t cmp)
{
    double a = size == 8 ? f64_of(tmp) : f32_of(tmp);
    double b = size == 8 ? f64_of(src) : f32_of(src);
    double r;
    switch (op) {
    case AMD_AT_FADD:
        /* Add in the operand precision: an f32 add is rounded once, to f32. */
        if (size == 4) return bits_f32(f32_of(tmp) + f32_of(src));
        return bits_f64(a + b);
    case AMD_AT_FMIN: r = fminmax(a, b, false); break;
    case AMD_AT_FMAX: r = fminmax(a, b, true); break;
    default: { /* FCMPSWAP: float compare, so -0 == +0 and NaN never matches */
        double c = size == 8 ? f64_of(cmp) : f32_of(cmp);
        return a == c ? src : tmp;
    }
    }
    return size == 8 ? bits_f64(r) : bits_f32((float)r);
}

uint64_t amd_atomic_apply(amd_atomic_op op, uint32_t size, uint64_t tmp, uint64_t src, uint64_t cmp)
{
    uint64_t mask = size == 8 ? ~0ull : 0xffffffffull;
    uint64_t sbit = size == 8 ? (1ull << 63) : (1ull << 31);
    tmp &= mask; src &= mask; cmp &= mask;
    /* Signed compare by flipping the sign bit. */
    uint64_t ts = tmp ^ sbit, ss = src ^ sbit;
    uint64_t r;
    switch (op) {
    case AMD_AT_SWAP: r = src; break;
    case AMD_AT_CMPSWAP: r = tmp == cmp ? src : tmp; break;
    case AMD_AT_ADD: r = tmp + src; break;
    case AMD_AT_SUB: r = tmp - src; break;
    case AMD_AT_RSUB: r = src - tmp; break;
    case AMD_AT_CSUB: r = tmp >= src ? tmp - src : 0; break;
    case AMD_AT_SMIN: r = ts < ss ? tmp : src; break;
    case AMD_AT_UMIN: r = tmp < src ? tmp : src; break;
    case AMD_AT_SMAX: r = ts > ss ? tmp : src; break;
    case AMD_AT_UMAX: r = tmp > src ? tmp : src; break;
    case AMD_AT_AND: r = tmp & src; break;
    case AMD_AT_OR: r = tmp | src; break;
    case AMD_AT_XOR: r = tmp ^ src; break;
    case AMD_AT_INC: r = tmp >= src ? 0 : tmp + 1; break;
    case AMD_AT_DEC: r = (tmp == 0 || tmp > src) ? src : tmp - 1; break;
    case AMD_AT_MSKOR: r = (tmp & ~src) | cmp; break;
    case AMD_AT_WRAP: r = tmp >= src ? tmp - src : tmp + cmp; break;
    default: return float_op(op, size, tmp, src, cmp) & mask;
    }
    return r & mask;
}

const char *amd_atomic_name(amd_atomic_op op)
{
    static const char *const names[AMD_AT_COUNT] = {
        "swap", "cmpswap", "add", "sub", "rsub", "csub", "min_i", "min_u", "max_i", "max_u",
        "and", "or", "xor", "inc", "dec", "mskor", "wrap", "add_f", "min_f", "max_f", "cmpswap_f",
    };
    return (unsigned)op < AMD_AT_COUNT ? names[op] : "?";
}
