/* OpenCL printf on AMDGPU, the host side of what LLVM's AMDGPUPrintfRuntimeBinding does on the device.
 *
 * The compiler turns each printf call into a record written into a buffer that the runtime passes
 * as the hidden_printf_buffer kernel argument, and puts the format strings into the metadata
 * (`amdhsa.printf`: "ID:NARGS:SIZE1:...:SIZEN:FORMAT", with \n \a \b \f \r \v and ':' (\72)
 * escaped). The buffer (ockl's __printf_alloc):
 *
 *   +0  u32  bytes of records written so far (atomically advanced by each printf)
 *   +4  u32  size of the whole buffer, header included (a record that does not fit is dropped)
 *   +8  records: u32 format ID, then each argument's bytes (SIZEk of them)
 *
 * Arguments: integers narrower than 4 bytes widened to 4; float as 4 bytes (not promoted to
 * double), double 8; half widened to float; vectors as their alloc size (3 elements take 4 slots,
 * elements narrower than a dword widened); %s of a constant string its bytes without the NUL,
 * padded to a dword (0xffffff00 for ""); pointers 8 bytes.
 */
#ifndef UMBRA_RUNTIME_RDNA3_PRINTF_H
#define UMBRA_RUNTIME_RDNA3_PRINTF_H

#include <stddef.h>
#include <stdint.h>

#include "loader/amdgpu_co.h"
#include "umbra/rdna3.h"

#define RDNA3_PRINTF_HEADER 8u
/* Marks an OpenCL %F or %A that umbra's compiler rewrote as %f or %a before LLVM 19's printf
 * lowering, which stores no value for conversions it does not know (rdna3_cc.c). */
#define RDNA3_PRINTF_UPPER_MARK '\x01'
/* Rewrite the printf formats of an LLVM IR text module in place (see rdna3_cc.c); *changed tells
 * whether any format was rewritten. NULL: out of host memory. */
char *rdna3_printf_fix_ir(const char *ir, bool *changed);

typedef struct rdna3_printf_format {
    uint32_t id;
    uint32_t nargs;
    uint32_t nstored;           /* arguments in a record: the first nstored (see parse_format) */
    uint32_t *sizes;            /* bytes of each stored argument in a record */
    uint32_t record_size;       /* 4 + the sizes */
    char *text;                 /* the format string, unescaped */
} rdna3_printf_format;

typedef struct rdna3_printf_table {
    uint32_t n;
    rdna3_printf_format *formats;
    uint32_t max_record;        /* largest record (to tell a full buffer) */
} rdna3_printf_table;

/* Parse the metadata's format strings; a malformed one is UMB_ERR_FORMAT naming path and index. */
umb_status rdna3_printf_table_build(const umb_amdgpu_metadata *md, const char *path, rdna3_printf_table *t,
                                    char *err, size_t errlen);
void rdna3_printf_table_free(rdna3_printf_table *t);

/* Format every record of a buffer's contents (its header included, `bytes` long) and hand each to
 * fn (NULL: stdout). Damaged records (an unknown ID, a record running past the end) and a full
 * buffer are reported on stderr, naming the kernel. */
void rdna3_printf_emit(const rdna3_printf_table *t, const uint8_t *buffer, size_t bytes, const char *kernel,
                       umb_rdna3_printf_fn fn, void *ctx);

/* Format one record's arguments with a format string (exposed for tests). The result is a
 * malloc'd NUL-terminated string, *len its length; NULL when out of memory. */
char *rdna3_printf_format_record(const rdna3_printf_format *f, const uint8_t *args, size_t *len);

/* A HIP printf message (what ROCm's hostcall SERVICE_PRINTF assembles from a work-item's packets,
 * without its leading control word): the format string (NUL-terminated, padded to 8 bytes), then
 * one 8-byte word per argument (integers as 64 bits, floating point as double bits, pointers,
 * each '*' width or precision) and each %s string inline (NUL-terminated, padded to 8 bytes). The
 * text is what ROCm's host printf makes of it: each conversion through the C library with the
 * type its length modifier names; an argument list that runs out ends the text there. The result
 * is malloc'd and NUL-terminated, *len its length; NULL when out of memory. */
char *rdna3_printf_format_hip(const uint8_t *data, size_t nwords, size_t *len);

#endif
