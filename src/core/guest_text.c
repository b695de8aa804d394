/* Escaping of guest strings for messages (see guest_text.h). */
#include "core/guest_text.h"

#include <stdbool.h>
#include <string.h>

static bool shown_as_is(unsigned char c) { return c >= 0x20 && c <= 0x7e && c != '\\'; }

const char *umb_guest_text_n(umb_guest_text_buf *buf, const char *src, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    if (!src) {
        memcpy(buf->s, "(none)", sizeof "(none)");
        return buf->s;
    }
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)src[i];
        size_t need = shown_as_is(c) ? 1 : 4;
        if (o + need > UMB_GUEST_TEXT_SHOWN) {
            memcpy(buf->s + o, "...", 3);   /* room: UMB_GUEST_TEXT_MAX = SHOWN + 4 */
            o += 3;
            break;
        }
        if (need == 1) {
            buf->s[o++] = (char)c;
        } else {
            buf->s[o++] = '\\', buf->s[o++] = 'x';
            buf->s[o++] = hex[c >> 4], buf->s[o++] = hex[c & 15u];
        }
    }
    buf->s[o] = '\0';
    return buf->s;
}

const char *umb_guest_text(umb_guest_text_buf *buf, const char *src)
{
    return umb_guest_text_n(buf, src, src ? strlen(src) : 0);
}
