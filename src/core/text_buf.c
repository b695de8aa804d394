/* A growable text buffer (text_buf.h). */
#include "core/text_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void umb_text_append(umb_text_buf *b, const char *s, size_t n)
{
    if (b->nomem) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 128;
        while (cap < b->len + n + 1) cap *= 2;
        char *g = realloc(b->s, cap);
        if (!g) {
            b->nomem = true;
            return;
        }
        b->s = g, b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void umb_text_str(umb_text_buf *b, const char *s) { umb_text_append(b, s, strlen(s)); }

void umb_text_printf(umb_text_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        umb_text_append(b, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        b->nomem = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    umb_text_append(b, big, (size_t)n);
    free(big);
}
