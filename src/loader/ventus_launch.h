/* Ventus test programs as the Ventus pocl driver wrote them (spec/ventus.md §5):
 * `<launch>.metadata` (launch parameters and the buffer table), `<launch>.data` (the buffer
 * contents), `object.riscv` (the ELF), and `pocl.log` (what the host printed, which fixes the
 * launch order). Parsing errors name the file and the line.
 */
#ifndef UMBRA_LOADER_VENTUS_LAUNCH_H
#define UMBRA_LOADER_VENTUS_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "umbra/device.h"
#include "umbra/ventus.h"

/* One buffer of the metadata's buffer table. */
typedef struct umb_vt_buffer {
    uint64_t base, size, allocsize;
} umb_vt_buffer;

/* One launch: its parameters, buffer table and the words of its .data file. */
typedef struct umb_vt_launch_file {
    char name[128];             /* "Fan1_0" (the file names without extension) */
    umb_ventus_launch launch;   /* launch.name points at name */
    uint32_t nbuf;
    umb_vt_buffer *bufs;
    uint32_t *words;            /* .data contents, buffers back to back, ceil(size/4) words each */
    size_t nwords;
} umb_vt_launch_file;

/* A whole test directory, launches in the order the driver ran them. */
typedef struct umb_vt_program {
    char *dir;
    char *elf_path;             /* dir/object.riscv (may not exist: then NULL) */
    umb_vt_launch_file *launches;
    uint32_t nlaunches;
    char order_source[160];     /* how the order was found, for reports */
    char **skipped;             /* .metadata files that are not launches of the driver's counter */
    uint32_t nskipped;
} umb_vt_program;

/* Parse the text of a .metadata file into lf (path names the file in messages). */
umb_status umb_vt_parse_metadata(const char *path, const char *text, size_t len,
                                 umb_vt_launch_file *lf, char *err, size_t errlen);
/* Parse the text of a .data file; lf's buffer table fixes how many words it must hold. */
umb_status umb_vt_parse_data(const char *path, const char *text, size_t len,
                             umb_vt_launch_file *lf, char *err, size_t errlen);
/* Read and parse dir/name.metadata and dir/name.data. */
umb_status umb_vt_launch_file_load(const char *dir, const char *name, umb_vt_launch_file *lf,
                                   char *err, size_t errlen);
void umb_vt_launch_file_free(umb_vt_launch_file *lf);

/* Replay a launch's buffers: map allocsize bytes at each base, copy size bytes of .data. */
umb_status umb_vt_launch_replay(umb_device *dev, const umb_vt_launch_file *lf, char *err, size_t errlen);

/* The launch names of a directory, in launch order (see ventus_launch.c for the rules). The
 * caller frees each name and the array; skipped (if not NULL) gets the .metadata files left out. */
umb_status umb_vt_launch_order(const char *dir, char ***names, uint32_t *count,
                               char ***skipped, uint32_t *nskipped,
                               char *source, size_t sourcelen, char *err, size_t errlen);

/* Find the launch order and load every launch of a directory. */
umb_status umb_vt_program_open(const char *dir, umb_vt_program *p, char *err, size_t errlen);
void umb_vt_program_close(umb_vt_program *p);

/* Prepare memory for launch i: load the ELF's PT_LOAD segments (as the golden model loads
 * object.riscv afresh for every launch: .data/.bss start from the file each time), then replay
 * the launch's buffers. */
umb_status umb_vt_program_prepare(const umb_vt_program *p, uint32_t i, umb_device *dev,
                                  char *err, size_t errlen);

/* Read a whole text file (NUL-terminated); NULL on error with err set. */
char *umb_vt_read_text(const char *path, size_t *len, char *err, size_t errlen);

#endif
