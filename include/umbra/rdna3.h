/* umbra/rdna3.h — the AMD RDNA3 (gfx1100) front end: code objects, compiling, launching.
 *
 * A program is an AMDGPU code object (ELF64, e_machine EM_AMDGPU, code object v4/v5) as
 * `clang-19 -target amdgcn-amd-amdhsa -mcpu=gfx1100` + `ld.lld-19 -shared` produce it. Loading it
 * reads the kernel descriptors (`NAME.kd`) and the msgpack metadata note, and copies the image
 * into device memory. A dispatch then runs one kernel as the hardware would: kernarg segment with
 * the COV5 hidden arguments, a real dispatch packet, user and system SGPRs, packed work-item ids,
 * per-wave scratch with architected flat scratch, LDS of the static size plus `__local` arguments.
 * The single-step API (one wave, one instruction) is in umbra/rdna3_step.h.
 */
#ifndef UMBRA_RDNA3_API_H
#define UMBRA_RDNA3_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "umbra/device.h"
#include "umbra/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Metadata `.value_kind` of a kernel argument (AMDGPUUsage, code object v5). */
#define UMB_RDNA3_VALUE_KINDS(X)                                   \
    X(BY_VALUE, "by_value")                                        \
    X(GLOBAL_BUFFER, "global_buffer")                              \
    X(DYNAMIC_SHARED_POINTER, "dynamic_shared_pointer")            \
    X(SAMPLER, "sampler")                                          \
    X(IMAGE, "image")                                              \
    X(PIPE, "pipe")                                                \
    X(QUEUE, "queue")                                              \
    X(HIDDEN_GLOBAL_OFFSET_X, "hidden_global_offset_x")            \
    X(HIDDEN_GLOBAL_OFFSET_Y, "hidden_global_offset_y")            \
    X(HIDDEN_GLOBAL_OFFSET_Z, "hidden_global_offset_z")            \
    X(HIDDEN_NONE, "hidden_none")                                  \
    X(HIDDEN_PRINTF_BUFFER, "hidden_printf_buffer")                \
    X(HIDDEN_HOSTCALL_BUFFER, "hidden_hostcall_buffer")            \
    X(HIDDEN_DEFAULT_QUEUE, "hidden_default_queue")                \
    X(HIDDEN_COMPLETION_ACTION, "hidden_completion_action")        \
    X(HIDDEN_MULTIGRID_SYNC_ARG, "hidden_multigrid_sync_arg")      \
    X(HIDDEN_BLOCK_COUNT_X, "hidden_block_count_x")                \
    X(HIDDEN_BLOCK_COUNT_Y, "hidden_block_count_y")                \
    X(HIDDEN_BLOCK_COUNT_Z, "hidden_block_count_z")                \
    X(HIDDEN_GROUP_SIZE_X, "hidden_group_size_x")                  \
    X(HIDDEN_GROUP_SIZE_Y, "hidden_group_size_y")                  \
    X(HIDDEN_GROUP_SIZE_Z, "hidden_group_size_z")                  \
    X(HIDDEN_REMAINDER_X, "hidden_remainder_x")                    \
    X(HIDDEN_REMAINDER_Y, "hidden_remainder_y")                    \
    X(HIDDEN_REMAINDER_Z, "hidden_remainder_z")                    \
    X(HIDDEN_GRID_DIMS, "hidden_grid_dims")                        \
    X(HIDDEN_HEAP_V1, "hidden_heap_v1")                            \
    X(HIDDEN_DYNAMIC_LDS_SIZE, "hidden_dynamic_lds_size")          \
    X(HIDDEN_PRIVATE_BASE, "hidden_private_base")                  \
    X(HIDDEN_SHARED_BASE, "hidden_shared_base")                    \
    X(HIDDEN_QUEUE_PTR, "hidden_queue_ptr")

typedef enum umb_rdna3_value_kind {
#define UMB_X_ENUM(name, str) UMB_RDNA3_ARG_##name,
    UMB_RDNA3_VALUE_KINDS(UMB_X_ENUM)
#undef UMB_X_ENUM
    UMB_RDNA3_ARG_KIND_COUNT
} umb_rdna3_value_kind;

const char *umb_rdna3_value_kind_name(umb_rdna3_value_kind k);

/* `.address_space` of a pointer argument (absent: UMB_RDNA3_AS_NONE). */
typedef enum umb_rdna3_addr_space {
    UMB_RDNA3_AS_NONE = 0, UMB_RDNA3_AS_PRIVATE, UMB_RDNA3_AS_GLOBAL, UMB_RDNA3_AS_CONSTANT,
    UMB_RDNA3_AS_LOCAL, UMB_RDNA3_AS_GENERIC, UMB_RDNA3_AS_REGION,
} umb_rdna3_addr_space;

/* `.access` of an image (or pipe) argument (absent: UMB_RDNA3_ACCESS_NONE). */
typedef enum umb_rdna3_access {
    UMB_RDNA3_ACCESS_NONE = 0, UMB_RDNA3_ACCESS_READ_ONLY, UMB_RDNA3_ACCESS_WRITE_ONLY, UMB_RDNA3_ACCESS_READ_WRITE,
} umb_rdna3_access;

typedef struct umb_rdna3_arg_info {
    char name[256];             /* `.name` (empty when the metadata has none) */
    char type_name[256];        /* `.type_name` (empty when absent) */
    uint32_t offset, size;      /* in the kernarg segment */
    umb_rdna3_value_kind kind;
    umb_rdna3_addr_space address_space;
    uint32_t pointee_align;     /* dynamic_shared_pointer: `.pointee_align` (0 when absent) */
    umb_rdna3_access access;    /* images: `.access` */
    bool is_const, is_restrict, is_volatile;   /* `.is_const`, `.is_restrict`, `.is_volatile` (type qualifiers) */
} umb_rdna3_arg_info;

/* The 64-byte kernel descriptor `NAME.kd` (AMDHSAKernelDescriptor.h). */
typedef struct umb_rdna3_kernel_descriptor {
    uint32_t group_segment_fixed_size;
    uint32_t private_segment_fixed_size;
    uint32_t kernarg_size;
    int64_t kernel_code_entry_byte_offset;   /* relative to the descriptor's address */
    uint32_t compute_pgm_rsrc3, compute_pgm_rsrc1, compute_pgm_rsrc2;
    uint16_t kernel_code_properties;
    uint16_t kernarg_preload;
} umb_rdna3_kernel_descriptor;

/* kernel_code_properties bits */
enum {
    UMB_RDNA3_KCP_PRIVATE_SEGMENT_BUFFER = 1u << 0,
    UMB_RDNA3_KCP_DISPATCH_PTR = 1u << 1,
    UMB_RDNA3_KCP_QUEUE_PTR = 1u << 2,
    UMB_RDNA3_KCP_KERNARG_SEGMENT_PTR = 1u << 3,
    UMB_RDNA3_KCP_DISPATCH_ID = 1u << 4,
    UMB_RDNA3_KCP_FLAT_SCRATCH_INIT = 1u << 5,
    UMB_RDNA3_KCP_PRIVATE_SEGMENT_SIZE = 1u << 6,
    UMB_RDNA3_KCP_WAVEFRONT_SIZE32 = 1u << 10,
    UMB_RDNA3_KCP_USES_DYNAMIC_STACK = 1u << 11,
};

typedef struct umb_rdna3_kernel_info {
    char name[4096];            /* `.name`: C++ template kernels (rocPRIM's) have names of hundreds of bytes */
    char symbol[4100];          /* `.symbol`, the descriptor's symbol (NAME.kd) */
    uint32_t kernarg_segment_size, kernarg_segment_align;
    uint32_t group_segment_fixed_size, private_segment_fixed_size;
    uint32_t wavefront_size;    /* 32 or 64 */
    uint32_t sgpr_count, vgpr_count, max_flat_workgroup_size;
    uint32_t sgpr_spill_count, vgpr_spill_count;
    uint32_t reqd_workgroup_size[3];   /* `.reqd_workgroup_size` (reqd_work_group_size), 0,0,0 if none */
    uint32_t workgroup_size_hint[3];   /* `.workgroup_size_hint` (work_group_size_hint), 0,0,0 if none */
    char vec_type_hint[64];     /* `.vec_type_hint` (vec_type_hint(T)), "" if none */
    bool uses_dynamic_stack, workgroup_processor_mode;
    uint32_t nargs;             /* every argument, hidden ones included */
    uint32_t nexplicit;         /* arguments the program passes (the non-hidden ones, in order) */
    umb_rdna3_arg_info *args;
    umb_rdna3_kernel_descriptor kd;
    uint64_t kd_vaddr;          /* descriptor address in the image */
    uint64_t entry_vaddr;       /* first instruction in the image */
    uint64_t code_size;         /* bytes of the kernel's function symbol (0 if unknown) */
} umb_rdna3_kernel_info;

typedef struct umb_rdna3_program umb_rdna3_program;

/* Parse a code object and, when dev is not NULL, copy its image into device memory (disassembly
 * works without a device). On failure *out is NULL, the message names the file and what is wrong,
 * and goes to err (if not NULL) and to the device's last error (if dev is not NULL). */
umb_status umb_rdna3_program_load_file(umb_device *dev, const char *path, umb_rdna3_program **out,
                                       char *err, size_t errlen);
umb_status umb_rdna3_program_load_memory(umb_device *dev, const char *name, const void *data,
                                         size_t size, umb_rdna3_program **out, char *err, size_t errlen);
void umb_rdna3_program_destroy(umb_rdna3_program *p);

const char *umb_rdna3_program_target(const umb_rdna3_program *p);   /* amdhsa.target */
uint32_t umb_rdna3_program_kernel_count(const umb_rdna3_program *p);
const umb_rdna3_kernel_info *umb_rdna3_program_kernel(const umb_rdna3_program *p, uint32_t i);
/* By `.name` (also accepts the `.kd` symbol name); NULL if there is none. */
const umb_rdna3_kernel_info *umb_rdna3_program_find_kernel(const umb_rdna3_program *p, const char *name);
/* A global symbol of the code object (a `__device__` variable, a kernel's `.kd`): its device
 * address (image base + value) and size in bytes. UMB_ERR_INVALID if the code object defines no
 * such symbol or the program was loaded without a device. */
umb_status umb_rdna3_program_find_symbol(const umb_rdna3_program *p, const char *name, uint64_t *addr,
                                         uint64_t *size);
/* Where the image is in device memory (0 without a device). */
uint64_t umb_rdna3_program_base(const umb_rdna3_program *p);
/* Bytes of the program's writable data objects: its program-scope variables in the global
 * address space (OpenCL's CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE). */
uint64_t umb_rdna3_program_globals_size(const umb_rdna3_program *p);

/* Dwords of the loaded image (the length of umb_rdna3_dispatch.pc_counts). */
uint64_t umb_rdna3_program_code_words(const umb_rdna3_program *p);
/* The disassembly (as umbra disasm prints it) of the instruction at byte offset `offset` of the
 * image, into buf; returns its size in bytes, or 0 (buf then says why) if no executable section
 * holds a decodable instruction there. */
uint32_t umb_rdna3_program_disasm_at(const umb_rdna3_program *p, uint64_t offset, char *buf, size_t len);

/* Disassemble every executable section as llvm-objdump-19 -d --mcpu=gfx1100 lays it out:
 * kernel labels, address, encoding dwords, text. */
umb_status umb_rdna3_program_disasm(const umb_rdna3_program *p, FILE *out);

/* One explicit kernel argument. */
typedef struct umb_rdna3_arg {
    const void *value;          /* by_value / global_buffer: the bytes (a device address for buffers) */
    uint32_t size;              /* bytes at value (must equal the metadata size);
                                   dynamic_shared_pointer: LDS bytes to allocate, value unused */
} umb_rdna3_arg;

/* Receives a kernel's printf output (see umb_rdna3_dispatch.printf_fn), text as C printf formats it
 * (not NUL-terminated). OpenCL printf (the printf buffer): one call per record, after the kernel, in
 * the order the device wrote them. HIP printf (hostcall): one call per printf of a work-item, while
 * the kernel runs, never two at once (docs/RDNA3.md "Hostcall" gives the order). */
typedef void (*umb_rdna3_printf_fn)(void *ctx, const char *text, size_t len);
#define UMB_RDNA3_PRINTF_BUFFER_DEFAULT (1u << 20)   /* bytes, as ROCm's default */

typedef struct umb_rdna3_dispatch {
    const char *kernel;         /* `.name` of the kernel */
    uint32_t work_dim;          /* 1..3 */
    uint64_t global_size[3];    /* work-items per dimension; need not be a multiple of local */
    uint32_t local_size[3];     /* work-group size; 0 in every dimension: umbra picks one */
    uint64_t global_offset[3];
    uint32_t dynamic_lds_size;  /* LDS bytes beyond the kernel's static LDS and __local arguments (HIP's
                                   dynamic shared memory, `extern __shared__`) */
    const umb_rdna3_arg *args;  /* the explicit arguments in order */
    uint32_t nargs;
    /* options */
    FILE *trace;                /* per-instruction trace, or NULL */
    bool check_waitcnt;         /* fault on a register read before its s_waitcnt */
    uint32_t alignment_mode;    /* SH_MEM_CONFIG.alignment_mode: 0 = the default (3, UNALIGNED, as ROCm
                                   sets it), 1 = DWORD_STRICT, 2 = STRICT, 3 = UNALIGNED,
                                   UMB_RDNA3_ALIGN_DWORD = mode 0 (DWORD) */
    /* printf (kernels whose metadata has a hidden_printf_buffer argument): umbra allocates the
     * buffer, and when the kernel ends (also when it faulted, before umb_rdna3_run returns) hands
     * each record to printf_fn. A full buffer loses the records that do not fit, as on ROCm, and
     * umbra says so on stderr. HIP kernels (a hidden_hostcall_buffer argument) print through
     * hostcalls instead: printf_fn gets each text as the device sends it; their stderr text (a
     * failed assert()'s) goes into the error of the trap that follows, or to stderr. */
    uint64_t printf_buffer_size;    /* bytes including the 8-byte header; 0 = UMB_RDNA3_PRINTF_BUFFER_DEFAULT */
    umb_rdna3_printf_fn printf_fn;  /* NULL: the text goes to stdout */
    void *printf_ctx;
    uint64_t *pc_counts;        /* NULL (no cost), or umb_rdna3_program_code_words(p) counters indexed by
                                   (PC - umb_rdna3_program_base(p)) / 4: each issued instruction adds one
                                   at its PC (a per-PC profile, for umbra report) */
    /* A cooperative launch (HIP's hipLaunchCooperativeKernel, cooperative_groups::this_grid().sync()):
     * every workgroup of the grid must be resident at once (at most umb_rdna3_workgroups_per_cu(...)
     * x compute units workgroups, and at most 4096, the most a GWS barrier counts; else
     * UMB_ERR_INVALID), the launch owns the 64 Global Wave Sync
     * resources (ds_gws_*; resource 0 set up for a barrier of all its workgroups, as ockl's grid sync
     * expects), and hidden_multigrid_sync_arg points to a multi-grid sync block for one grid (so
     * grid.is_valid() is true). Otherwise that argument is 0 and ds_gws_* fault. */
    bool cooperative;
    /* The translator (docs/TRANSLATOR.md): UMB_RDNA3_JIT_AUTO (0, the default: the interpreter,
     * and code whose launches have run long enough to pay for its translation translated, while
     * they run), UMB_RDNA3_JIT_OFF (the interpreter only) or UMB_RDNA3_JIT_ALWAYS (translate
     * every launch before it runs; an error if umbra was built without it).
     * Results and statistics are the same in every mode. A launch with a trace, pc_counts,
     * check_waitcnt or the timing model always runs in the interpreter. */
    uint32_t jit;
    FILE *jit_log;              /* NULL, or where a line per translation goes (instructions, seconds) */
    /* NULL: translations are kept in memory only, per device (every launch of the same code on
     * the device shares one). Else a folder (e.g. the one umb_cache_default_dir names, the OpenCL
     * compile cache's) where their machine code is kept for later processes. */
    const char *jit_cache_dir;
    /* The compute units the launch's workgroups may run on (HSA's queue CU mask, a HIP stream's
     * hipExtStreamCreateWithCUMask): bit c % 32 of cu_mask[c / 32] enables CU c of the device (of
     * the timing model's machine when one is attached); bits past the last CU are ignored. NULL
     * (or cu_mask_words 0): every CU. A mask that enables none is UMB_ERR_INVALID. Results do not
     * depend on it; occupancy (a cooperative launch's bound), the workgroups' CUs and timing do. */
    const uint32_t *cu_mask;
    uint32_t cu_mask_words;
} umb_rdna3_dispatch;

enum { UMB_RDNA3_JIT_AUTO = 0, UMB_RDNA3_JIT_OFF = 1, UMB_RDNA3_JIT_ALWAYS = 2 };
/* "off" / "auto" / "always" -> UMB_RDNA3_JIT_*, or -1 */
int umb_rdna3_jit_mode(const char *name);

#define UMB_RDNA3_ALIGN_DWORD 0x100u

/* How many workgroups of `block_threads` work-items and `lds_bytes` of LDS (static + dynamic) one
 * compute unit holds at once, as umb_rdna3_run makes them resident (wave slots, VGPRs, LDS): the
 * occupancy a runtime reports and the bound of a cooperative launch (grid <= this x CUs). */
uint32_t umb_rdna3_workgroups_per_cu(const umb_rdna3_kernel_info *ki, uint32_t block_threads, uint32_t lds_bytes);

/* Run one dispatch to completion. Statistics are added into *stats (may be NULL). Faults,
 * budget exhaustion, deadlock and bad arguments return an error with the device's last error set. */
umb_status umb_rdna3_run(umb_device *dev, const umb_rdna3_program *p, const umb_rdna3_dispatch *d,
                         umb_stats *stats);

/* `umbra cc` and the OpenCL platform's program builds: OpenCL C -> gfx1100 code object with clang-19
 * and ld.lld-19 against AMD's ROCm device libraries (opencl.bc, ocml.bc, ockl.bc and the oclc_*
 * control files), as ROCm compiles OpenCL: every builtin of OpenCL C is the library's.
 *
 *   source -> code object:  input = "k.cl", emit = UMB_RDNA3_EMIT_CODE_OBJECT
 *   clCompileProgram:       input = "k.cl", emit = UMB_RDNA3_EMIT_BITCODE (LLVM bitcode with the
 *                           builtins it uses linked in, for a later link)
 *   clLinkProgram:          inputs = bitcode files, emit = UMB_RDNA3_EMIT_CODE_OBJECT
 */
typedef enum umb_rdna3_emit {
    UMB_RDNA3_EMIT_CODE_OBJECT = 0,   /* a loadable code object (ELF, ET_DYN) */
    UMB_RDNA3_EMIT_BITCODE,           /* LLVM bitcode, to be linked by a later call */
} umb_rdna3_emit;

typedef struct umb_rdna3_cc_options {
    const char *input;          /* a .cl file, or NULL when linking `inputs` */
    const char *const *inputs;  /* bitcode files made with UMB_RDNA3_EMIT_BITCODE, to link */
    uint32_t ninputs;
    const char *output;         /* the file to write */
    umb_rdna3_emit emit;        /* with `inputs`: a code object, or (bitcode) the inputs merged into
                                   one module, a library that a later call links */
    int opt_level;              /* 0..3; -O<n> or -cl-opt-disable in build_options win */
    bool wave64;
    /* An OpenCL build-options string as clBuildProgram takes it: -D NAME[=V], -I DIR, -cl-std=CL1.0|
     * CL1.1|CL1.2|CL2.0|CL3.0 (default CL1.2), -cl-single-precision-constant, -cl-denorms-are-zero,
     * -cl-fp32-correctly-rounded-divide-sqrt, -cl-opt-disable, -cl-mad-enable, -cl-no-signed-zeros,
     * -cl-unsafe-math-optimizations, -cl-finite-math-only, -cl-fast-relaxed-math,
     * -cl-uniform-work-group-size, -cl-no-subgroup-ifp, -cl-kernel-arg-info, -w, -Werror, -g,
     * -O0..-O3. Quotes group words. The math options select the matching oclc_* control files,
     * as ROCm's driver does. Anything else fails with UMB_ERR_INVALID naming the option. */
    const char *build_options;
    const char *const *defines; /* more "NAME" or "NAME=VALUE", passed as -D */
    uint32_t ndefines;
    const char *device_lib_dir; /* NULL: umb_rdna3_find_device_lib() */
    const char *clang;          /* NULL: "clang-19" from PATH */
    const char *lld;            /* NULL: "ld.lld-19" from PATH */
    const char *llvm_link;      /* NULL: "llvm-link-19" from PATH (linking bitcode only) */
    const char *const *extra;   /* more clang arguments, passed as they are */
    uint32_t nextra;
    char **log;                 /* not NULL: the tools' diagnostics are returned here (malloc'd,
                                   NUL-terminated, "" if none; the caller frees) instead of going
                                   to stderr. Set on success and on failure. */
    bool verbose;               /* print the commands on stderr */
} umb_rdna3_cc_options;

/* Compile or link; on failure err holds the reason (the compiler's own diagnostics went to stderr,
 * or to *log). */
umb_status umb_rdna3_compile(const umb_rdna3_cc_options *o, char *err, size_t errlen);

/* The device-library folder used when device_lib_dir is NULL: $UMBRA_DEVICE_LIB_DIR, else the
 * folder the build tree generated, else the installed one (<libdir>/umbra/devicelib). A folder
 * counts when it holds ocml.bc and oclc_isa_version_1100.bc. False (and out = "") if none does. */
bool umb_rdna3_find_device_lib(char *out, size_t len);

#ifdef __cplusplus
}
#endif
#endif
