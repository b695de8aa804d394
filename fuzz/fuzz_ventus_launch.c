/* Ventus launch files: `.metadata` text, a NUL byte, `.data` text (seeds: the shipped test
 * directories). Parses both, then replays the buffers into a device as `umbra ventus run` does. */
#include <stdlib.h>

#include "fuzz_common.h"
#include "loader/ventus_launch.h"

/* exact-size copies, so that ASan sees a read past either file's end */
static char *copy(const uint8_t *p, size_t n)
{
    char *c = malloc(n ? n : 1);
    if (c && n) memcpy(c, p, n);
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *m, *d;
    size_t mlen, dlen;
    fuzz_split(data, size, &m, &mlen, &d, &dlen);
    char *mtext = copy(m, mlen), *dtext = copy(d, dlen);
    umb_vt_launch_file lf;
    memset(&lf, 0, sizeof lf);
    snprintf(lf.name, sizeof lf.name, "fuzz_0");
    char err[512];
    umb_device *dev = fuzz_device(0);
    if (mtext && dtext && dev &&
        umb_vt_parse_metadata("fuzz_0.metadata", mtext, mlen, &lf, err, sizeof err) == UMB_OK &&
        umb_vt_parse_data("fuzz_0.data", dtext, dlen, &lf, err, sizeof err) == UMB_OK)
        umb_vt_launch_replay(dev, &lf, err, sizeof err);
    umb_vt_launch_file_free(&lf);
    if (dev) umb_device_destroy(dev);
    free(mtext);
    free(dtext);
    return 0;
}
