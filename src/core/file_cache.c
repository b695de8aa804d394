/* Cache files named by a hash (file_cache.h). */
#include "core/file_cache.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

umb_hash128 umb_hash_start(void) { return (umb_hash128){ 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull }; }

void umb_hash_bytes(umb_hash128 *h, const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < n; i++) {
        h->a = (h->a ^ p[i]) * 0x100000001b3ull;
        h->b = (h->b ^ p[i]) * 0x00000100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
    h->a = (h->a ^ 0xff) * 0x100000001b3ull;
    h->b = (h->b ^ (n & 0xff)) * 0x00000100000001b3ull;
}

void umb_hash_str(umb_hash128 *h, const char *s) { umb_hash_bytes(h, s ? s : "", s ? strlen(s) : 0); }

bool umb_cache_default_dir(char *out, size_t len)
{
    const char *env = getenv("UMBRA_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && !strcmp(env, "off")) return false;
    int n;
    if (env && *env) n = snprintf(out, len, "%s", env);
    else if (xdg && *xdg) n = snprintf(out, len, "%s/umbra", xdg);
    else if (home && *home) n = snprintf(out, len, "%s/.cache/umbra", home);
    else return false;
    if (n < 0 || (size_t)n >= len) return false;
    for (char *s = out + 1; *s; s++)   /* mkdir -p */
        if (*s == '/') {
            *s = 0;
            mkdir(out, 0755);
            *s = '/';
        }
    return mkdir(out, 0755) == 0 || errno == EEXIST;
}

void umb_cache_path(const char *dir, const umb_hash128 *key, const char *ext, char *out, size_t len)
{
    snprintf(out, len, "%s/%016llx%016llx%s", dir, (unsigned long long)key->a, (unsigned long long)key->b, ext);
}

bool umb_cache_read(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap + 1);
            if (!nb) {
                ok = false;
                break;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    ok = ok && !ferror(f) && buf;
    fclose(f);
    if (!ok) return free(buf), false;
    buf[n] = 0;
    *data = buf, *size = n;
    return true;
}

static bool write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

bool umb_cache_write(const char *path, const void *data, size_t size)
{
    char tmp[PATH_MAX];
    /* unique per process and thread: two launches may write the same entry at once */
    if (snprintf(tmp, sizeof tmp, "%s.%ld.%lx.tmp", path, (long)getpid(), (unsigned long)pthread_self()) >= (int)sizeof tmp)
        return false;
    if (write_file(tmp, data, size) && rename(tmp, path) == 0) return true;
    unlink(tmp);
    return false;
}
