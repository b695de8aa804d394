/* The RDNA3 translator (issue 22, docs/TRANSLATOR.md): a kernel's decoded instructions -> one host
 * function compiled by LLVM (src/jit), run by wave.c's translated round (rdna3_frontend_jit) in
 * place of the interpreter's run-ahead turn, with the same results, statistics, faults and turn
 * boundaries.
 *
 * The function runs one wave's turn, or the rest of one, from w->pc:
 *     uint32_t fn(rdna3_wave *w, umb_stats *st, rdna3_jit_turn *t)
 * t->n (instructions of the turn so far) and t->thread_insts (their active lanes) come in and go
 * out as run_turn_and_ahead keeps them; it returns an RDNA3_JIT_* code. The code is
 * position-independent: guest PCs are t->base (the launch's code base) plus the offsets it was
 * translated with, and each handler call passes its decoded record from t->recs. So one
 * translation serves every launch of the same code bytes, in this process (the device's cache,
 * translate_cache.c) and, as an object file on disk, in later processes. */
#ifndef UMBRA_RDNA3_TRANSLATE_H
#define UMBRA_RDNA3_TRANSLATE_H

#include "isa/rdna3/rdna3.h"

enum {
    RDNA3_JIT_DONE = 0,         /* the turn is over (w->pc is the next instruction) */
    RDNA3_JIT_FAULT = 1,        /* the instruction at w->pc faulted; counted in by_class and
                                   thread_insts but not in t->n (the caller decides, as the
                                   interpreter does, whether its fault is deferred) */
    RDNA3_JIT_CONTINUE = 2,     /* w->pc has no translated code: the caller goes on with the turn */
    RDNA3_JIT_NOT_ENTERED = 3,  /* nothing ran: w->pc has no translated code */
    RDNA3_JIT_STEP_GO = 4,      /* (rdna3_jit_turn.step only) the instruction retired and the wave
                                   is RUNNABLE: w->pc is the next instruction */
};

typedef struct rdna3_jit_turn {
    uint64_t thread_insts;      /* in and out */
    uint32_t n;                 /* in and out */
    const rdna3_inst *recs;     /* in: the translation's records (rdna3_jit_code.recs) */
    uint64_t base;              /* in: the launch's code base */
    int (*lds_quiet)(const rdna3_wave *w);    /* in: rdna3_lds_quiet as 0/1 (an LDS load may run ahead) */
    int32_t quiet;              /* in and out: lds_quiet's answer in this turn, -1 not asked yet (the
                                 * other waves do not move during a turn, so it holds for the turn) */
    /* in: the host page holding global address addr for reading (umb_mem_page_for_read), NULL if
     * it is not mapped */
    const uint8_t *(*global_page)(const rdna3_wave *w, uint64_t addr);
    /* in: the same for writing (umb_mem_page_for_write: a zero page materialised) */
    uint8_t *(*global_page_write)(const rdna3_wave *w, uint64_t addr);
    /* in: one instruction by its handler, as the interpreter's turn runs it (wave.c jit_step):
     * record index of recs at code offset off, counted, run, the turn's count and the PC updated;
     * returns RDNA3_JIT_STEP_GO, RDNA3_JIT_DONE (the wave left RUNNABLE) or RDNA3_JIT_FAULT */
    uint32_t (*step)(rdna3_wave *w, umb_stats *st, struct rdna3_jit_turn *t, uint32_t index, uint64_t off);
} rdna3_jit_turn;

typedef uint32_t (*rdna3_jit_fn)(rdna3_wave *w, umb_stats *st, struct rdna3_jit_turn *t);

/* A translation as a launch runs it (rdna3_kernel.jit). */
typedef struct rdna3_jit_code {
    rdna3_jit_fn fn;
    const rdna3_inst *recs;     /* records of its instructions, in plan order */
} rdna3_jit_code;

/* What a translation covers: the instructions reachable from the entry (fall-through and static
 * branch targets), as code offsets and copies of their decoded records. */
typedef struct rdna3_jit_plan {
    uint64_t *offsets;          /* from the code base, in discovery order */
    rdna3_inst *recs;           /* their records (copies: they outlive the launch's cache) */
    size_t n, cap;
    uint64_t code_size;         /* of the code the offsets index */
    uint64_t entry;             /* offset of the entry */
} rdna3_jit_plan;

/* Was umbra built with the translator (UMBRA_JIT)? */
bool rdna3_jit_available(void);

/* Discover the code of k reachable from entry_pc, decoding into k's instruction cache (which must
 * exist). false with err filled (no host memory, or not built). */
bool rdna3_jit_discover(rdna3_kernel *k, uint64_t entry_pc, rdna3_jit_plan *plan, char *err, size_t errlen);
void rdna3_jit_plan_free(rdna3_jit_plan *plan);

/* Translate plan for waves of wave_size lanes into a host object file (*obj malloc'd, *len bytes)
 * defining the function `name`. inline_ok false: every instruction calls its handler (the
 * call-threaded form). *inlined: instructions emitted as inline IR. */
bool rdna3_jit_generate(const rdna3_jit_plan *plan, unsigned wave_size, bool inline_ok, const char *name,
                        void **obj, size_t *len, uint32_t *inlined, char *err, size_t errlen);

#endif
