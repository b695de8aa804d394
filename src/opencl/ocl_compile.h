/* Compiling and linking OpenCL C for the device, through umb_rdna3_compile and a disk cache. */
#ifndef UMBRA_OCL_COMPILE_H
#define UMBRA_OCL_COMPILE_H

#include "ocl.h"

typedef struct ocl_compile_result {
    uint8_t *binary;   /* code object, or LLVM bitcode when compiling only */
    size_t size;
    char *log;         /* clang's diagnostics (never NULL after a call that got as far as clang) */
} ocl_compile_result;

/* An embedded header of clCompileProgram: the name #include finds it by (a relative path, which
 * may name folders), and its text. */
typedef struct ocl_header {
    const char *name;
    const char *source;
} ocl_header;

/* OpenCL C source -> code object (bitcode = false) or bitcode of the source alone (true), with
 * `nheaders` embedded headers that #include "name" finds (after the including file's own folder and
 * the options' -I folders).
 * Kernels see __OPENCL_VERSION__ as the platform reports it (OCL_VERSION_*).
 * Returns CL_SUCCESS, CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE or CL_OUT_OF_RESOURCES;
 * r->log holds the diagnostics either way. */
cl_int ocl_compile_source(const char *source, const char *options, bool bitcode, const ocl_header *headers,
                          size_t nheaders, ocl_compile_result *r);
/* Compiled objects and libraries (bitcode) -> one code object, or (library) one library binary
 * (ocl_library_wrap of the merged module). A symbol defined twice, or (code object) a function
 * defined nowhere, fails with llvm-link's or lld's message in r->log. Returns CL_SUCCESS,
 * CL_INVALID_LINKER_OPTIONS, CL_LINK_PROGRAM_FAILURE, CL_OUT_OF_RESOURCES or CL_OUT_OF_HOST_MEMORY. */
cl_int ocl_link_bitcode(const uint8_t *const *bc, const size_t *sizes, size_t n, const char *options, bool library,
                        ocl_compile_result *r);
void ocl_compile_result_free(ocl_compile_result *r);

/* The binaries CL_PROGRAM_BINARIES returns say what they are:
 * - an executable is a gfx1100 code object (ELF);
 * - a compiled object is LLVM bitcode ("BC" 0xC0DE);
 * - a library is LLVM bitcode inside LLVM's bitcode wrapper (five little-endian 32-bit words:
 *   magic 0x0B17C0DE, version 0, offset and size of the module, CPU type 0), whose header is
 *   followed by the tag "umbra-opencl-library" (NUL-padded to 24 bytes) before the module.
 *   LLVM's tools skip the wrapper, so llvm-link and llvm-dis read a library as they read bitcode. */
bool ocl_binary_is_library(const uint8_t *b, size_t n);
/* The library binary of a bitcode module (malloc'd; NULL when out of memory). */
uint8_t *ocl_library_wrap(const uint8_t *bc, size_t n, size_t *size);

#endif
