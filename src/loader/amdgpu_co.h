/* AMDGPU code objects (gfx1100): the ELF checks, the kernel descriptors and the msgpack metadata.
 *
 * amdgpu_co.c        ELF64 / e_machine / e_flags checks, `.kd` descriptors, image extent, relocations
 * amdgpu_metadata.c  the NT_AMDGPU_METADATA note (msgpack, read with msgpack-c) -> kernel infos
 *
 * Every message starts with the file name and says what is wrong ("k.co: metadata note: kernel
 * 'vadd': .args[1]: missing .offset").
 */
#ifndef UMBRA_LOADER_AMDGPU_CO_H
#define UMBRA_LOADER_AMDGPU_CO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/elf.h"
#include "umbra/rdna3.h"

/* ELF constants of the AMDGPU ABI (AMDGPUUsage). */
enum {
    UMB_ELFOSABI_AMDGPU_HSA = 64,
    UMB_NT_AMDGPU_METADATA = 32,
    UMB_EF_AMDGPU_MACH = 0xff,
    UMB_EF_AMDGPU_MACH_GFX1100 = 0x41,
    UMB_EF_AMDGPU_MACH_GFX1101 = 0x46,
    UMB_EF_AMDGPU_MACH_GFX1102 = 0x47,
    UMB_EF_AMDGPU_MACH_GFX1103 = 0x44,
    UMB_R_AMDGPU_RELATIVE64 = 13,
    UMB_AMDGPU_KD_SIZE = 64,
};

/* What the metadata note says. */
typedef struct umb_amdgpu_metadata {
    uint32_t version[2];        /* amdhsa.version */
    char target[96];            /* amdhsa.target */
    uint32_t nkernels;
    umb_rdna3_kernel_info *kernels;
    uint32_t nprintf;           /* amdhsa.printf: "ID:NARGS:SIZE:...:FORMAT" strings, as written */
    char **printf_formats;
} umb_amdgpu_metadata;

/* Parse a msgpack metadata blob. name prefixes the messages. */
umb_status umb_amdgpu_metadata_parse(const char *name, const void *blob, size_t size,
                                     umb_amdgpu_metadata *md, char *err, size_t errlen);
void umb_amdgpu_metadata_free(umb_amdgpu_metadata *md);

/* A parsed code object. */
typedef struct umb_amdgpu_co {
    umb_elf elf;
    umb_amdgpu_metadata md;
    uint64_t image_size;        /* end of the highest PT_LOAD segment (vaddr + memsz) */
} umb_amdgpu_co;

/* Parse a code object from memory (data must outlive co) or a file (data == NULL: read path).
 * On failure nothing needs freeing. */
umb_status umb_amdgpu_co_open(umb_amdgpu_co *co, const char *path, const void *data, size_t size,
                              char *err, size_t errlen);
void umb_amdgpu_co_close(umb_amdgpu_co *co);

/* Decode the 64-byte descriptor layout. */
void umb_amdgpu_kd_decode(const uint8_t raw[UMB_AMDGPU_KD_SIZE], umb_rdna3_kernel_descriptor *kd);

/* Copy the image into device memory at base (every PT_LOAD at base + vaddr) and apply the
 * R_AMDGPU_RELATIVE64 dynamic relocations. */
umb_status umb_amdgpu_co_upload(umb_amdgpu_co *co, umb_device *dev, uint64_t base, char *err, size_t errlen);

#endif
