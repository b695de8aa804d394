/* The background-translation policy (src/jit/jit_policy.h): process-wide, as LLVM's statics are. */
#include "jit/jit_policy.h"

#include <stdatomic.h>

static atomic_bool foreground_first;   /* umb_jit_foreground_first was called */
static atomic_bool generated;          /* a code generation has finished */

void umb_jit_foreground_first(void) { atomic_store(&foreground_first, true); }

bool umb_jit_background_ok(void) { return !atomic_load(&foreground_first) || atomic_load(&generated); }

void umb_jit_note_generated(void) { atomic_store(&generated, true); }
