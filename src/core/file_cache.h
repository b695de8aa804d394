/* A folder of files named by a 128-bit key: the OpenCL compile cache (src/opencl/ocl_compile.c)
 * and the translator's cache of machine code (src/isa/rdna3/translate_cache.c) keep their entries
 * here. Writers write a temporary name and rename it, so concurrent processes never read half a
 * file; an entry that cannot be read is a miss, never an error.
 *
 * The key is built with umb_hash_*: a 128-bit FNV-1a style hash of everything the entry depends on
 * (two 64-bit lanes with different primes; not cryptographic: the folder is the user's own). */
#ifndef UMBRA_CORE_FILE_CACHE_H
#define UMBRA_CORE_FILE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "umbra/device.h"

typedef struct umb_hash128 { uint64_t a, b; } umb_hash128;

umb_hash128 umb_hash_start(void);
/* Add n bytes, then a separator, so that ("ab","c") and ("a","bc") differ. */
void umb_hash_bytes(umb_hash128 *h, const void *data, size_t n);
void umb_hash_str(umb_hash128 *h, const char *s);   /* NULL hashes as "" */

/* umb_cache_default_dir (umbra/device.h): the folder clients use unless told otherwise. */

/* dir/<key as 32 hex digits><ext>. */
void umb_cache_path(const char *dir, const umb_hash128 *key, const char *ext, char *out, size_t len);
/* The whole file, NUL-terminated past *size (text reads back as a string); false if absent. */
bool umb_cache_read(const char *path, uint8_t **data, size_t *size);
/* Write through a temporary name and rename; false if it could not (the entry is then absent). */
bool umb_cache_write(const char *path, const void *data, size_t size);

#endif
