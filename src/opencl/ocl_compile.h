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
/* Bitcode files (clCompileProgram's results) -> one code object. Returns CL_SUCCESS,
 * CL_INVALID_LINKER_OPTIONS, CL_LINK_PROGRAM_FAILURE or CL_OUT_OF_RESOURCES. */
cl_int ocl_link_bitcode(const uint8_t *const *bc, const size_t *sizes, size_t n, const char *options,
                        ocl_compile_result *r);
void ocl_compile_result_free(ocl_compile_result *r);

#endif
