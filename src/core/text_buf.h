/* A growable NUL-terminated text buffer (printf output, compiler command logs). An allocation
 * failure sets nomem and makes later appends no-ops, so callers check once at the end. */
#ifndef UMBRA_CORE_TEXT_BUF_H
#define UMBRA_CORE_TEXT_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct umb_text_buf {
    char *s;                    /* NULL until the first append; the caller frees it */
    size_t len, cap;
    bool nomem;
} umb_text_buf;

void umb_text_append(umb_text_buf *b, const char *s, size_t n);
void umb_text_str(umb_text_buf *b, const char *s);
__attribute__((format(printf, 2, 3))) void umb_text_printf(umb_text_buf *b, const char *fmt, ...);

#endif
