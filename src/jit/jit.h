/* A small owner of one LLVM ORC LLJIT instance, used as a linker and loader of machine code:
 * build a module in a context of your own, compile it for the host to an object file
 * (umb_jit_compile: verify, optimise, generate code), add objects to the JIT, look up their
 * functions, remove them again. The object file is the unit a disk cache keeps (the translator's,
 * src/isa/rdna3/translate_cache.c). Knows no instruction set. Only built with UMBRA_JIT.
 *
 * No global mutable state of umbra's: each umb_jit owns its LLJIT and the code added to it.
 * LLVM's one-time native-target registration runs once per process (pthread_once), and so does
 * the exit gate (LLVM's static objects are the process's: see umb_jit_enter). Adding,
 * looking up and removing are safe from several threads (ORC's own locking). Errors come back as
 * text (err, errlen); nothing here aborts the process.
 */
#ifndef UMBRA_JIT_H
#define UMBRA_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

#include "jit/jit_policy.h"
#include <llvm-c/TargetMachine.h>

typedef struct umb_jit umb_jit;
typedef struct umb_jit_unit umb_jit_unit;   /* the code of one added object */

/* Hold LLVM's exit gate around any use of LLVM (nested holds are fine): false, with err filled,
 * once the process is exiting. An exit handler closes the gate and waits for every holder, so
 * that exit() destroys LLVM's static objects with no thread inside LLVM. Every function here
 * holds it; a caller that builds IR itself (the translator) holds it around the whole work. */
bool umb_jit_enter(char *err, size_t errlen);
void umb_jit_leave(void);

/* Make the host's native target usable (once per process); false with err filled if this LLVM
 * has none. umb_jit_create and umb_jit_compile call it. */
bool umb_jit_init_native(char *err, size_t errlen);

/* A new JIT for the host, or NULL with err filled. */
umb_jit *umb_jit_create(char *err, size_t errlen);
/* Frees every unit's code (every pointer looked up dies with it). */
void umb_jit_destroy(umb_jit *j);

/* Verify m, give it the host's triple and data layout, optimise it with the new pass manager's
 * pipeline text `passes` (NULL or "": none) and generate an object file for the host CPU at
 * `level`: *obj (malloc'd, the caller frees it) of *len bytes. m stays the caller's. */
bool umb_jit_compile(LLVMModuleRef m, LLVMCodeGenOptLevel level, const char *passes, void **obj, size_t *len,
                     char *err, size_t errlen);

/* What an object of umb_jit_compile depends on besides its IR: LLVM's version, the host triple,
 * CPU and features (a cache key part: objects are only loaded into a process on the same kind of
 * host). False, with the reason in buf, once the process is exiting. */
bool umb_jit_host_id(char *buf, size_t len);

/* Link a copy of the object file obj into j; NULL with err filled if LLVM refuses it. Its
 * symbols are looked up with umb_jit_lookup (names must be unique within j). */
umb_jit_unit *umb_jit_add_object(umb_jit *j, const void *obj, size_t len, char *err, size_t errlen);
/* Address of the function `name` of an added object, or NULL with err filled. */
void *umb_jit_lookup(umb_jit *j, const char *name, char *err, size_t errlen);
/* Free the unit's code (its functions must not run again). */
void umb_jit_remove(umb_jit *j, umb_jit_unit *u);
/* Bytes of the symbol `name` in the object file obj (its symbol table's size), 0 if it has none. */
uint64_t umb_jit_object_symbol_size(const void *obj, size_t len, const char *name);

#endif
