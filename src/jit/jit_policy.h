/* When translations may run in the background (jit.c, "the exit gate"). Kept apart from jit.h and
 * jit.c (src/runtime/jit_policy.c, built with or without the translator): the platform layer
 * sets the policy without LLVM's headers. */
#ifndef UMBRA_JIT_POLICY_H
#define UMBRA_JIT_POLICY_H

#include <stdbool.h>

/* A process whose devices live until it exits (the HIP and OpenCL rooms) calls this once: its
 * first code generation must then not run in the background, since exit() could destroy the
 * statics LLVM makes on that first generation while it runs (seen: a HIP program crashing on its
 * way out). */
void umb_jit_foreground_first(void);
/* A translation may run in the background now: always without that call, else once a code
 * generation has finished. */
bool umb_jit_background_ok(void);
/* jit.c: a code generation has finished (its statics made, the exit handler registered after them). */
void umb_jit_note_generated(void);

#endif
