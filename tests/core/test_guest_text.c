/* umb_guest_text: guest bytes in messages become printable ASCII of bounded length. */
#include <stdbool.h>
#include <stdlib.h>

#include "check.h"
#include "core/guest_text.h"

static bool printable_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) return false;
    return true;
}

int main(void)
{
    umb_guest_text_buf b;
    CHECK(!strcmp(umb_guest_text(&b, "vec_add"), "vec_add"));
    CHECK(!strcmp(umb_guest_text(&b, NULL), "(none)"));
    CHECK(!strcmp(umb_guest_text(&b, ""), ""));
    CHECK(!strcmp(umb_guest_text(&b, "a\\b"), "a\\x5cb"));           /* the backslash: unambiguous */
    CHECK(!strcmp(umb_guest_text(&b, "by\xff\xfe\x01\x7f~ "), "by\\xff\\xfe\\x01\\x7f~ "));
    CHECK(!strcmp(umb_guest_text_n(&b, "ab\0cd", 5), "ab\\x00cd"));  /* embedded NUL with a length */
    CHECK(!strcmp(umb_guest_text(&b, "h\xc3\xa9llo"), "h\\xc3\\xa9llo")); /* UTF-8 too: always ASCII out */
    /* long strings: cut at a character boundary, "..." appended, within UMB_GUEST_TEXT_MAX */
    char *big = malloc(5000);
    for (int fill = 0; fill < 2; fill++) {
        for (int i = 0; i < 4999; i++) big[i] = fill ? (char)(0x80 | (i & 0x7f)) : (char)('a' + i % 26);
        big[4999] = '\0';
        const char *s = umb_guest_text(&b, big);
        size_t n = strlen(s);
        CHECK(n < UMB_GUEST_TEXT_MAX);
        CHECK(n >= UMB_GUEST_TEXT_SHOWN - 3);
        CHECK(!strcmp(s + n - 3, "..."));
        CHECK(printable_ascii(s));
        if (fill) CHECK((n - 3) % 4 == 0);                               /* whole \xNN escapes only */
    }
    for (int i = 0; i < UMB_GUEST_TEXT_SHOWN; i++) big[i] = 'x';        /* exactly the limit: no "..." */
    big[UMB_GUEST_TEXT_SHOWN] = '\0';
    CHECK_EQ_U64(strlen(umb_guest_text(&b, big)), UMB_GUEST_TEXT_SHOWN);
    free(big);
    return check_report("test_guest_text");
}
