/* The RDNA3 translator (issue 22, docs/TRANSLATOR.md): the decoded instructions of a launch's
 * kernel -> one host function compiled by LLVM's ORC JIT (src/jit), run by wave.c's translated
 * round (rdna3_frontend_jit) in place of the interpreter's run-ahead turn, with the same results,
 * statistics, faults and turn boundaries.
 *
 * The function runs one wave's turn, or the rest of one, from w->pc:
 *     uint32_t fn(rdna3_wave *w, umb_stats *st, rdna3_jit_turn *t)
 * t->n (instructions of the turn so far) and t->thread_insts (their active lanes) come in and go
 * out as run_turn_and_ahead keeps them; it returns an RDNA3_JIT_* code. */
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
};

typedef struct rdna3_jit_turn {
    uint64_t thread_insts;
    uint32_t n;
} rdna3_jit_turn;

typedef uint32_t (*rdna3_jit_fn)(rdna3_wave *w, umb_stats *st, struct rdna3_jit_turn *t);

typedef struct rdna3_jit rdna3_jit;

/* Figures of one translation (docs/PERFORMANCE.md). */
typedef struct rdna3_jit_info {
    uint32_t insts;             /* instructions translated */
    uint32_t inlined;           /* of which as inline IR (the others call their handler) */
    double seconds;             /* decode + IR + optimisation + machine code (wall) */
    double cpu_seconds;         /* the same in CPU time of the translating thread */
} rdna3_jit_info;

/* Was umbra built with the translator (UMBRA_JIT)? */
bool rdna3_jit_available(void);

/* Translate the code of launch k reachable from entry_pc (fall-through and static branch
 * targets), for waves of wave_size lanes. Decodes into k's instruction cache (which must exist
 * and outlive the result). inline_ok false: every instruction calls its handler (the
 * call-threaded form, which tests compare the inline forms with). NULL with err filled when it
 * cannot (not built, LLVM error). */
rdna3_jit *rdna3_jit_translate(rdna3_kernel *k, uint64_t entry_pc, unsigned wave_size, bool inline_ok,
                               rdna3_jit_info *info, char *err, size_t errlen);
rdna3_jit_fn rdna3_jit_function(const rdna3_jit *j);
void rdna3_jit_free(rdna3_jit *j);

#endif
