/* Minimal assertion helpers for the C unit tests: each failure names file, line and both values. */
#ifndef UMBRA_TEST_CHECK_H
#define UMBRA_TEST_CHECK_H
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_passes;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (cond) check_passes++;                                                   \
        else { check_failures++; fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } \
    } while (0)

#define CHECK_EQ_U64(got, want)                                                     \
    do {                                                                            \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                       \
        if (g_ == w_) check_passes++;                                               \
        else { check_failures++; fprintf(stderr, "%s:%d: %s = 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", \
                                        __FILE__, __LINE__, #got, g_, w_); }        \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                 \
    do {                                                                            \
        const char *h_ = (hay);                                                     \
        if (h_ && strstr(h_, needle)) check_passes++;                               \
        else { check_failures++; fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", \
                                        __FILE__, __LINE__, h_ ? h_ : "(null)", needle); } \
    } while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passes, check_failures);
    return check_failures ? 1 : 0;
}
#endif
