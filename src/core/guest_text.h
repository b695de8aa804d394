/* Guest strings in messages. Names read from guest files (metadata notes, kernel and ELF symbol
 * names, Ventus launch-file names) are bytes, not text: a corrupted file may hold any of them.
 * Every message that shows one passes it through umb_guest_text, so messages stay printable
 * ASCII (valid UTF-8) and their length stays bounded. */
#ifndef UMBRA_CORE_GUEST_TEXT_H
#define UMBRA_CORE_GUEST_TEXT_H

#include <stddef.h>

/* Room for one escaped guest string: at most UMB_GUEST_TEXT_SHOWN characters of escaped text,
 * then "..." when the string was longer, and the NUL. */
enum { UMB_GUEST_TEXT_SHOWN = 256, UMB_GUEST_TEXT_MAX = UMB_GUEST_TEXT_SHOWN + 4 };

/* A buffer for umb_guest_text, declared where the message is built. */
typedef struct umb_guest_text_buf { char s[UMB_GUEST_TEXT_MAX]; } umb_guest_text_buf;

/* src[0..len) as printable ASCII: bytes outside 0x20..0x7e and the backslash as \xNN; cut at a
 * character boundary with "..." when the escaped text would exceed UMB_GUEST_TEXT_SHOWN.
 * Returns buf->s. src may be NULL (shown as "(none)"). */
const char *umb_guest_text_n(umb_guest_text_buf *buf, const char *src, size_t len);

/* The same for a NUL-terminated string. */
const char *umb_guest_text(umb_guest_text_buf *buf, const char *src);

#endif
