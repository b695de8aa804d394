/* Strict number parsing for the command line (see cli_args.h). strtoull alone accepts leading
 * white space, a sign (and negates!), and reads "010" as octal; these wrappers do not. */
#include "cli_args.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Digits only (decimal, or hex after 0x), no overflow. */
static bool parse_magnitude(const char *s, uint64_t *out)
{
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    if (!*s) return false;
    uint64_t v = 0;
    for (; *s; s++) {
        int d = hex_value(*s);
        if (d < 0 || (unsigned)d >= base) return false;
        if (v > (UINT64_MAX - (unsigned)d) / base) return false;
        v = v * base + (unsigned)d;
    }
    *out = v;
    return true;
}

bool cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    uint64_t v;
    if (!s || !parse_magnitude(s, &v) || v < min || v > max) return false;
    *out = v;
    return true;
}

bool cli_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    uint64_t v;
    if (!cli_parse_u64(s, min, max, &v)) return false;
    *out = (uint32_t)v;
    return true;
}

bool cli_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    if (!s) return false;
    bool neg = s[0] == '-';
    uint64_t m;
    if (!parse_magnitude(s + neg, &m)) return false;
    int64_t v;
    if (neg) {
        if (m > (uint64_t)INT64_MAX + 1) return false;
        v = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
    } else {
        if (m > (uint64_t)INT64_MAX) return false;
        v = (int64_t)m;
    }
    if (v < min || v > max) return false;
    *out = v;
    return true;
}

bool cli_parse_f64(const char *s, double *out)
{
    if (!s || !*s || isspace((unsigned char)s[0])) return false;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    /* ERANGE on underflow still gives the nearest value (a denormal or 0): accept it; on
     * overflow strtod returns HUGE_VAL for a finite literal: refuse that. */
    if (end == s || *end || (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))) return false;
    *out = d;
    return true;
}

bool cli_parse_hex_bytes(const char *s, size_t max, uint8_t **out, size_t *n)
{
    *out = NULL;
    size_t len = s ? strlen(s) : 0;
    if (!len || len % 2 || len / 2 > max) return false;
    uint8_t *b = malloc(len / 2);
    if (!b) return false;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return free(b), false;
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    *out = b;
    *n = len / 2;
    return true;
}
