/* The device's translations (issue 22, docs/TRANSLATOR.md "The translation cache"): one LLVM ORC
 * JIT per device, holding the machine code of every kernel entry translated on it, shared by
 * every launch of the same code bytes, with the object files also kept on disk (next to the
 * OpenCL compile cache) for later processes.
 *
 * A launch acquires its translation, runs it and releases it. Lookup in memory is by where the
 * code is (code base and size, entry, wave size) and is then checked against the code bytes the
 * translation was made from (a program unloaded and another loaded at the same address, or code
 * rewritten, makes a new translation, never a stale one); on disk, by a hash of those bytes, the
 * instructions' offsets, the wave size, umbra's own binary and the host CPU. Thread-safe: launches
 * on several host threads may share one device. */
#ifndef UMBRA_RUNTIME_RDNA3_JIT_CACHE_H
#define UMBRA_RUNTIME_RDNA3_JIT_CACHE_H

#include "isa/rdna3/translate.h"

typedef struct rdna3_jit_request {
    uint64_t entry_pc;
    unsigned wave_size;
    bool inline_ok;             /* false: the call-threaded form (every instruction a handler call) */
    /* `auto`: translate once the wave-instructions launches of this code ran interpreted
     * (rdna3_jit_add_work) reach min_work; a translation already in memory is used at once. 0:
     * translate now (`always`). */
    uint64_t min_work;
    /* Make a new translation on the device's translator thread: the launch starts in the
     * interpreter and switches to the code when it is published (res->ticket). false: make it
     * now, before returning. A translation found in memory or on disk is used at once either way. */
    bool background;
    const char *disk_dir;       /* NULL: memory only */
} rdna3_jit_request;

typedef enum rdna3_jit_source {
    RDNA3_JIT_FROM_MEMORY,      /* an earlier launch in this process translated it */
    RDNA3_JIT_FROM_DISK,        /* an object file of an earlier process, linked */
    RDNA3_JIT_TRANSLATED,       /* translated now */
    RDNA3_JIT_BACKGROUND,       /* being translated on the translator thread */
} rdna3_jit_source;

typedef struct rdna3_jit_result {
    /* NULL: no translation for this launch (the interpreter runs it). Else where its code is
     * published (rdna3_kernel.jit): at once, or when the translator thread is done (BACKGROUND;
     * it stays NULL if that translation fails: the launch stays in the interpreter). */
    _Atomic(const rdna3_jit_code *) *ticket;
    rdna3_jit_source source;
    uint32_t insts, inlined;
    double seconds, cpu_seconds;   /* this acquire's work: discovery, code generation or loading */
    uint64_t work;                 /* wave-instructions run interpreted from this code so far */
} rdna3_jit_result;

/* The translation of k's code at rq->entry_pc for this launch (res->ticket, held until
 * rdna3_jit_release), or res->ticket NULL when `auto` says not yet or an earlier translation of
 * this code failed. false with err filled when it cannot translate now (not built, LLVM error, no
 * memory). k's instruction cache must exist. */
bool rdna3_jit_acquire(umb_device *dev, rdna3_kernel *k, const rdna3_jit_request *rq, rdna3_jit_result *res,
                       char *err, size_t errlen);
void rdna3_jit_release(umb_device *dev, _Atomic(const rdna3_jit_code *) *ticket);
/* Add the wave-instructions a launch of k's code at rq->entry_pc ran interpreted to its count
 * (what `auto` compares with rq->min_work at the next acquire). */
void rdna3_jit_add_work(umb_device *dev, const rdna3_kernel *k, const rdna3_jit_request *rq, uint64_t work);

#endif
