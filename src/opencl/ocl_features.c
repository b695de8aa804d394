/* The one place that says which OpenCL the platform is: its version, the device's extensions and
 * its OpenCL C versions and optional features, and the compiler arguments that make clang's
 * predefined macros agree with them.
 *
 * OpenCL 3.0 makes every 2.x feature optional. The device reports those umbra implements (what
 * ROCm's OpenCL 2.0 offers on gfx1100 through AMD's device libraries, minus what ROCm offers and
 * umbra does not: pipes and device-side enqueue). Without pipes and device enqueue the device
 * does not support the whole of OpenCL C 2.0, so CL_DEVICE_OPENCL_C_VERSION is "OpenCL C 1.2" (as
 * OpenCL 3.0 requires at least) and CL_DEVICE_OPENCL_C_ALL_VERSIONS lists 1.0, 1.1, 1.2 and 3.0;
 * -cl-std=CL2.0 is still accepted, for programs written for ROCm, and compiles as clang does. */
#include <string.h>

#include "ocl.h"

/* cl_name_version.name is 64 bytes. api_only: an extension of the API alone, which OpenCL C knows
 * nothing of (the CTS's test_compiler lists it so), so not passed to the compiler; clang-19 has no
 * macro for these either. */
static const struct {
    const char *name;
    cl_version version;
    bool api_only;
} extensions[] = {
    { "cl_khr_icd", CL_MAKE_VERSION(1, 0, 0), true },   /* the loader's */
    { "cl_khr_fp64", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_fp16", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_global_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_global_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_local_int32_base_atomics", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_local_int32_extended_atomics", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_int64_base_atomics", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_int64_extended_atomics", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_byte_addressable_store", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_khr_subgroups", CL_MAKE_VERSION(1, 0, 0), false },   /* a sub-group is a wave */
    { "cl_khr_3d_image_writes", CL_MAKE_VERSION(1, 0, 0), false },   /* image_store on 3D images */
    { "cl_khr_depth_images", CL_MAKE_VERSION(1, 0, 0), false },      /* CL_DEPTH 2D images and arrays */
    { "cl_khr_image2d_from_buffer", CL_MAKE_VERSION(1, 0, 0), true },   /* clCreateImage (ocl_image.c) */
    /* AMD's media built-ins, which ROCm reports on gfx1100; AMD's device library implements them
     * (amd_bitalign, amd_sad, amd_msad, amd_qsad, amd_bfe, amd_median3, ...: tests/opencl/media_ops_test.c) */
    { "cl_amd_media_ops", CL_MAKE_VERSION(1, 0, 0), false },
    { "cl_amd_media_ops2", CL_MAKE_VERSION(1, 0, 0), false },
};

/* OpenCL C 3.0 optional features (CL_DEVICE_OPENCL_C_FEATURES), each at version 3.0.0.
 * header_only: clang-19's opencl-c-base.h defines these only for SPIR targets, so for amdgcn
 * the compile path defines them itself (with -D) when building for OpenCL C 3.0. */
static const struct {
    const char *name;
    const char *define;   /* header-only: the -D that defines it */
} features[] = {
    { "__opencl_c_int64", NULL },
    { "__opencl_c_fp64", NULL },
    { "__opencl_c_generic_address_space", NULL },
    { "__opencl_c_program_scope_global_variables", NULL },
    { "__opencl_c_atomic_order_acq_rel", NULL },
    { "__opencl_c_atomic_order_seq_cst", NULL },
    { "__opencl_c_atomic_scope_device", "-D__opencl_c_atomic_scope_device=1" },
    { "__opencl_c_atomic_scope_all_devices", "-D__opencl_c_atomic_scope_all_devices=1" },
    { "__opencl_c_work_group_collective_functions", "-D__opencl_c_work_group_collective_functions=1" },
    { "__opencl_c_subgroups", NULL },
    { "__opencl_c_images", NULL },   /* required when CL_DEVICE_IMAGE_SUPPORT is true */
    { "__opencl_c_3d_image_writes", NULL },
    /* read_write image arguments: image_load and image_store on one T# (ocl_kernel.c) */
    { "__opencl_c_read_write_images", NULL },
};

#define NEXT (sizeof extensions / sizeof extensions[0])
/* AMD's device attribute queries (ocl_amd.c), reported with ROCm's identity only; no OpenCL C
 * macro of clang's, so the compile path defines it (-D) when reported */
#define AMD_ATTRIBUTE_QUERY "cl_amd_device_attribute_query"
static bool amd_listed(void) { return ocl_device() && ocl_device()->p.rocm_identity; }
#define NFEAT (sizeof features / sizeof features[0])

static void name_version(cl_name_version *nv, const char *name, cl_version v)
{
    memset(nv, 0, sizeof *nv);
    strncpy(nv->name, name, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    nv->version = v;
}

/* The space-separated list (CL_DEVICE_EXTENSIONS). */
cl_int ocl_extensions_string(size_t size, void *value, size_t *ret)
{
    char s[1024] = "";
    for (size_t i = 0; i < NEXT; i++) {
        if (i) strcat(s, " ");
        strcat(s, extensions[i].name);
    }
    if (amd_listed()) strcat(s, " " AMD_ATTRIBUTE_QUERY);
    return ocl_info(size, value, ret, s, strlen(s) + 1);
}

cl_int ocl_extensions_with_version(size_t size, void *value, size_t *ret)
{
    cl_name_version nv[NEXT + 1];
    for (size_t i = 0; i < NEXT; i++) name_version(&nv[i], extensions[i].name, extensions[i].version);
    size_t n = NEXT;
    if (amd_listed()) name_version(&nv[n++], AMD_ATTRIBUTE_QUERY, CL_MAKE_VERSION(1, 0, 0));
    return ocl_info(size, value, ret, nv, n * sizeof nv[0]);
}

cl_int ocl_opencl_c_features(size_t size, void *value, size_t *ret)
{
    cl_name_version nv[NFEAT];
    for (size_t i = 0; i < NFEAT; i++) name_version(&nv[i], features[i].name, CL_MAKE_VERSION(3, 0, 0));
    return ocl_info(size, value, ret, nv, sizeof nv);
}

cl_int ocl_opencl_c_all_versions(size_t size, void *value, size_t *ret)
{
    static const cl_version v[] = { CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
                                    CL_MAKE_VERSION(3, 0, 0) };
    cl_name_version nv[sizeof v / sizeof v[0]];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) name_version(&nv[i], "OpenCL C", v[i]);
    return ocl_info(size, value, ret, nv, sizeof nv);
}

/* Is this option (e.g. -cl-std=CL3.0) a word of the build-options string? */
bool ocl_options_has(const char *options, const char *std)
{
    size_t n = strlen(std);
    for (const char *s = options; s && (s = strstr(s, std)); s += n) {
        bool starts = s == options || s[-1] == ' ' || s[-1] == '\t';
        if (starts && (!s[n] || s[n] == ' ' || s[n] == '\t')) return true;
    }
    return false;
}

/* The compiler arguments that make clang's predefined macros what the device reports:
 * "-cl-ext=-all,+EXT...,+FEATURE..." (a cc1 option, hence -Xclang), and for OpenCL C 3.0 a -D for
 * each header-only feature. Without them clang-19's amdgcn target predefines extensions the
 * device does not report (cl_khr_mipmap_image) and, for
 * OpenCL C 3.0, the image features, and leaves out the header-only ones. The API-only
 * extensions (cl_khr_icd, cl_khr_image2d_from_buffer) are not the compiler's. With -cl-std=CL2.0
 * clang defines every OpenCL C 2.0 feature macro whatever -cl-ext says (2.0 has no optional
 * features). buf (OCL_CL_EXT_MAX bytes) holds the
 * -cl-ext text; returns how many of args (OCL_COMPILER_ARGS_MAX) were set. */
uint32_t ocl_compiler_args(const char *options, const char **args, char *buf)
{
    size_t n = (size_t)snprintf(buf, OCL_CL_EXT_MAX, "-cl-ext=-all");
    for (size_t i = 0; i < NEXT; i++)
        if (!extensions[i].api_only)
            n += (size_t)snprintf(buf + n, n < OCL_CL_EXT_MAX ? OCL_CL_EXT_MAX - n : 0, ",+%s", extensions[i].name);
    for (size_t i = 0; i < NFEAT; i++)
        if (!features[i].define)
            n += (size_t)snprintf(buf + n, n < OCL_CL_EXT_MAX ? OCL_CL_EXT_MAX - n : 0, ",+%s", features[i].name);
    uint32_t k = 0;
    args[k++] = "-Xclang";
    args[k++] = buf;
    /* OpenCL C §6.10 (1.2) / §6.12 (3.0): defined to 1 when CL_DEVICE_IMAGE_SUPPORT is true. clang
     * predefines it for SPIR targets only; ROCm's driver passes it for amdgcn as here. */
    args[k++] = "-D__IMAGE_SUPPORT__=1";
    if (amd_listed()) args[k++] = "-D" AMD_ATTRIBUTE_QUERY "=1";
    bool cl30 = ocl_options_has(options, "-cl-std=CL3.0");
    for (size_t i = 0; cl30 && i < NFEAT; i++)
        if (features[i].define) args[k++] = features[i].define;
    return k;
}
