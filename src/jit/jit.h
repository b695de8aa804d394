/* A small owner of one LLVM ORC LLJIT instance: build a module in its context, optimise it for
 * the host, compile it, look up its functions, free everything. Knows no instruction set (the
 * RDNA3 translator, src/isa/rdna3/translate.c, is its client). Only built with UMBRA_JIT.
 *
 * No global mutable state of umbra's: each umb_jit owns its LLJIT, its thread-safe context and the
 * code it compiled. LLVM's own one-time target registration is done once per process
 * (pthread_once). Errors come back as text (err, errlen); nothing here aborts the process.
 *
 * Usage: j = umb_jit_create(); m = umb_jit_module(j, "name"); ... build m with the LLVM C API in
 * umb_jit_context(j) ...; umb_jit_add(j, m, "default<O2>") (takes m); f = umb_jit_lookup(j, "fn");
 * call f; umb_jit_destroy(j) frees the code (every pointer looked up dies with it).
 */
#ifndef UMBRA_JIT_H
#define UMBRA_JIT_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

typedef struct umb_jit umb_jit;

/* A new JIT for the host CPU whose code generator optimises at `level` (instruction selection,
 * register allocation), or NULL with err filled. */
umb_jit *umb_jit_create(LLVMCodeGenOptLevel level, char *err, size_t errlen);
void umb_jit_destroy(umb_jit *j);

/* The LLVM context modules of j are built in (owned by j). */
LLVMContextRef umb_jit_context(umb_jit *j);
/* A new, empty module with the host's triple and data layout (owned by the caller until
 * umb_jit_add; LLVMDisposeModule otherwise). */
LLVMModuleRef umb_jit_module(umb_jit *j, const char *name);

/* Verify m, optimise it with the new pass manager's pipeline text `passes` (NULL or "": none),
 * and hand it to the JIT, which compiles it on the first lookup. Takes m in every case. */
bool umb_jit_add(umb_jit *j, LLVMModuleRef m, const char *passes, char *err, size_t errlen);

/* Address of the compiled function `name`, or NULL with err filled (a compile error shows here). */
void *umb_jit_lookup(umb_jit *j, const char *name, char *err, size_t errlen);

#endif
