/* Shared helpers of the fuzz targets (docs/FUZZING.md). Each target is one libFuzzer
 * LLVMFuzzerTestOneInput; everything it creates it destroys before returning, so that
 * LeakSanitizer checks every input on its own. */
#ifndef UMBRA_FUZZ_COMMON_H
#define UMBRA_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "umbra/device.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A device with an instruction budget, so that a guest loop ends. */
static inline umb_device *fuzz_device(uint64_t max_instructions)
{
    umb_device_config cfg;
    umb_device_config_default(&cfg);
    cfg.max_instructions = max_instructions;
    umb_device *dev = NULL;
    if (umb_device_create(&cfg, &dev) != UMB_OK) return NULL;
    return dev;
}

/* Split data at the first NUL: the part before into *a, after into *b (empty if none). */
static inline void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a, size_t *alen,
                              const uint8_t **b, size_t *blen)
{
    const uint8_t *nul = memchr(data, 0, size);
    *a = data;
    *alen = nul ? (size_t)(nul - data) : size;
    *b = nul ? nul + 1 : data + size;
    *blen = nul ? size - *alen - 1 : 0;
}

/* Read a little-endian word of the input at *pos (zero past its end). */
static inline uint32_t fuzz_u32(const uint8_t *data, size_t size, size_t *pos)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++, (*pos)++)
        if (*pos < size) v |= (uint32_t)data[*pos] << (8 * i);
    return v;
}

#endif
