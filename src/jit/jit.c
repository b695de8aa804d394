/* umb_jit: one LLVM ORC LLJIT as the loader of host machine code (see jit.h). */
#include "jit/jit.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Object.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

struct umb_jit {
    LLVMOrcLLJITRef lljit;
};

struct umb_jit_unit {
    LLVMOrcResourceTrackerRef rt;
};

static pthread_once_t native_once = PTHREAD_ONCE_INIT;
static int native_failed;   /* written once under native_once, read after it */

/* ---------------- the exit gate ----------------
 * exit() runs the destructors of LLVM's static objects (its command-line options, registries)
 * while another thread may be inside LLVM: the translator thread making a background translation,
 * or a queue's thread translating a launch. That thread then crashes a program that has finished
 * (seen: SIGSEGV in TargetPassConfig::addPass after an OpenCL program printed its result and
 * returned from main; under ASan the crash report deadlocked with the leak check at exit). So
 * every use of LLVM holds the gate, and an exit handler closes it: it waits for the uses in
 * progress and refuses new ones ("the process is exiting"), and LLVM's destructors run with no
 * thread inside LLVM. Exit handlers run in the reverse order of their registration, so the handler
 * is registered when LLVM is first used (after LLVM's global objects) and again after the first
 * code generation (after the statics LLVM makes on first use). That first generation itself is
 * not covered (the statics it makes are registered after the handler, and run before it), so it
 * must not run while the program may exit: in a process whose devices live until exit (the HIP
 * and OpenCL rooms: umb_jit_foreground_first) translators make it in the foreground
 * (umb_jit_background_ok). This is process-wide state because LLVM's static objects are. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_idle = PTHREAD_COND_INITIALIZER;
static unsigned gate_holds;      /* holds in progress, nested ones included */
static bool gate_closed;         /* the process is exiting */
/* Who holds it, so that a thread calling exit() from inside LLVM (LLVM's fatal-error path ends in
 * exit(1)) does not wait for itself. Not thread-local storage: in the OpenCL platform, a library
 * the ICD loader dlopens, that is dynamic TLS, which LeakSanitizer's exit-time scan of a thread's
 * TLS crashes on (glibc 2.36, GCC 12). */
#define GATE_HOLDERS 32
static struct {
    pthread_t thread;
    unsigned holds;
} gate_holders[GATE_HOLDERS];    /* a thread beyond GATE_HOLDERS holding it is only counted */
static pthread_once_t gate_once = PTHREAD_ONCE_INIT, gate_again_once = PTHREAD_ONCE_INIT;


/* This thread's entry (the lock held): NULL if it holds nothing and `add` is false or no entry
 * is free. */
static unsigned *own_holds(bool add)
{
    pthread_t self = pthread_self();
    int free_slot = -1;
    for (int i = 0; i < GATE_HOLDERS; i++) {
        if (gate_holders[i].holds && pthread_equal(gate_holders[i].thread, self)) return &gate_holders[i].holds;
        if (!gate_holders[i].holds && free_slot < 0) free_slot = i;
    }
    if (!add || free_slot < 0) return NULL;
    gate_holders[free_slot].thread = self;
    return &gate_holders[free_slot].holds;
}

static void close_gate_at_exit(void)
{
    pthread_mutex_lock(&gate_lock);
    gate_closed = true;
    unsigned *own = own_holds(false);
    while (gate_holds > (own ? *own : 0u)) pthread_cond_wait(&gate_idle, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
}

static void register_gate(void)
{
    atexit(close_gate_at_exit);   /* when it cannot be registered, exit stays as it was */
}

bool umb_jit_enter(char *err, size_t errlen)
{
    pthread_once(&gate_once, register_gate);
    pthread_mutex_lock(&gate_lock);
    unsigned *own = own_holds(true);
    /* once exit began no new hold, but a nested one of a thread already inside LLVM goes on */
    bool open = !gate_closed || (own && *own);
    if (open) {
        gate_holds++;
        if (own) ++*own;
    }
    pthread_mutex_unlock(&gate_lock);
    if (!open) snprintf(err, errlen, "the process is exiting (no new translation)");
    return open;
}

void umb_jit_leave(void)
{
    pthread_mutex_lock(&gate_lock);
    unsigned *own = own_holds(false);
    if (own) --*own;
    if (gate_holds) gate_holds--;
    /* the exit handler may wait for fewer than all (its own thread's holds stay) */
    if (gate_closed || !gate_holds) pthread_cond_broadcast(&gate_idle);
    pthread_mutex_unlock(&gate_lock);
}

static void init_native(void)
{
    native_failed = LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter();
}

bool umb_jit_init_native(char *err, size_t errlen)
{
    if (!umb_jit_enter(err, errlen)) return false;
    pthread_once(&native_once, init_native);
    umb_jit_leave();
    if (native_failed) snprintf(err, errlen, "LLVM has no native target in this build");
    return !native_failed;
}

/* Move an LLVM error's text into err (consumes e). */
static void take_error(LLVMErrorRef e, const char *what, char *err, size_t errlen)
{
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, errlen, "%s: %s", what, msg ? msg : "unknown LLVM error");
    LLVMDisposeErrorMessage(msg);
}

/* The host's target machine at `level`: position-independent code of the small code model, which
 * ORC's JITLink places anywhere (calls out of the object go through its stubs). */
static LLVMTargetMachineRef host_machine(LLVMCodeGenOptLevel level, char *err, size_t errlen)
{
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetRef target;
    char *why = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &why)) {
        snprintf(err, errlen, "LLVM has no target for %s: %s", triple, why ? why : "?");
        LLVMDisposeMessage(why);
        LLVMDisposeMessage(triple);
        return NULL;
    }
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocPIC,
                                                      LLVMCodeModelSmall);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!tm) snprintf(err, errlen, "LLVM could not create a target machine for %s", triple);
    LLVMDisposeMessage(triple);
    return tm;
}

bool umb_jit_host_id(char *buf, size_t len)
{
    if (!umb_jit_enter(buf, len)) return false;
    char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    unsigned major, minor, patch;
    LLVMGetVersion(&major, &minor, &patch);
    snprintf(buf, len, "LLVM %u.%u.%u %s %s %s", major, minor, patch, triple, cpu, features);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    umb_jit_leave();
    return true;
}

umb_jit *umb_jit_create(char *err, size_t errlen)
{
    if (!umb_jit_init_native(err, errlen)) return NULL;
    umb_jit *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    if (!umb_jit_enter(err, errlen)) {
        free(j);
        return NULL;
    }
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->lljit, builder);   /* takes the builder */
    umb_jit_leave();
    if (e) {
        take_error(e, "LLVM ORC LLJIT creation", err, errlen);
        free(j);
        return NULL;
    }
    return j;
}

void umb_jit_destroy(umb_jit *j)
{
    if (!j) return;
    char why[64];
    if (j->lljit && umb_jit_enter(why, sizeof why)) {   /* at exit LLVM's objects may be gone: left to the OS */
        LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->lljit);
        if (e) LLVMConsumeError(e);   /* nothing left to report it to */
        umb_jit_leave();
    }
    free(j);
}

static bool optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, char *err, size_t errlen)
{
    if (!passes || !*passes) return true;
    LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, passes, tm, o);
    LLVMDisposePassBuilderOptions(o);
    if (e) take_error(e, "LLVM optimisation", err, errlen);
    return !e;
}

/* UMBRA_JIT_DUMP_IR=DIR: the optimised module of each translation as DIR/<function>.ll, what the
 * code generator gets (to reproduce a slow or wrong translation with llc-19) */
static void dump_ir(LLVMModuleRef m)
{
    const char *dir = getenv("UMBRA_JIT_DUMP_IR");
    LLVMValueRef f = LLVMGetFirstFunction(m);
    while (f && LLVMIsDeclaration(f)) f = LLVMGetNextFunction(f);
    if (!dir || !*dir || !f) return;
    size_t nlen = 0;
    const char *name = LLVMGetValueName2(f, &nlen);
    char path[4096];
    snprintf(path, sizeof path, "%s/%.*s.ll", dir, (int)nlen, name);
    char *why = NULL;
    if (LLVMPrintModuleToFile(m, path, &why)) {
        fprintf(stderr, "umbra: UMBRA_JIT_DUMP_IR: %s: %s\n", path, why ? why : "?");
        LLVMDisposeMessage(why);
    }
}

static bool compile_module(LLVMModuleRef m, LLVMCodeGenOptLevel level, const char *passes, void **obj, size_t *len,
                           char *err, size_t errlen)
{
    if (!umb_jit_init_native(err, errlen)) return false;
    char *why = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &why)) {
        snprintf(err, errlen, "invalid LLVM IR: %.400s", why ? why : "?");
        LLVMDisposeMessage(why);
        return false;
    }
    LLVMDisposeMessage(why);
    LLVMTargetMachineRef tm = host_machine(level, err, errlen);
    if (!tm) return false;
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, td);
    LLVMDisposeTargetData(td);
    LLVMMemoryBufferRef buf = NULL;
    bool ok = optimise(m, tm, passes, err, errlen);
    if (ok) dump_ir(m);
    if (ok && LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &why, &buf)) {
        snprintf(err, errlen, "LLVM code generation: %.400s", why ? why : "?");
        LLVMDisposeMessage(why);
        ok = false;
    }
    LLVMDisposeTargetMachine(tm);
    if (!ok) return false;
    size_t n = LLVMGetBufferSize(buf);
    if (!(*obj = malloc(n ? n : 1))) {
        snprintf(err, errlen, "out of host memory for %zu bytes of machine code", n);
        LLVMDisposeMemoryBuffer(buf);
        return false;
    }
    memcpy(*obj, LLVMGetBufferStart(buf), n);
    *len = n;
    LLVMDisposeMemoryBuffer(buf);
    return true;
}

bool umb_jit_compile(LLVMModuleRef m, LLVMCodeGenOptLevel level, const char *passes, void **obj, size_t *len,
                     char *err, size_t errlen)
{
    *obj = NULL, *len = 0;
    if (!umb_jit_enter(err, errlen)) return false;
    bool ok = compile_module(m, level, passes, obj, len, err, errlen);
    /* the code generator has made its lazily built statics: the exit handler again, to run first */
    pthread_once(&gate_again_once, register_gate);
    umb_jit_note_generated();
    umb_jit_leave();
    return ok;
}

umb_jit_unit *umb_jit_add_object(umb_jit *j, const void *obj, size_t len, char *err, size_t errlen)
{
    umb_jit_unit *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    if (!umb_jit_enter(err, errlen)) {
        free(u);
        return NULL;
    }
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j->lljit);
    u->rt = LLVMOrcJITDylibCreateResourceTracker(jd);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, len, "umbra-jit-object");
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFileWithRT(j->lljit, u->rt, buf);   /* takes buf */
    if (e) {
        take_error(e, "LLVM ORC add object", err, errlen);
        LLVMOrcReleaseResourceTracker(u->rt);
        umb_jit_leave();
        free(u);
        return NULL;
    }
    umb_jit_leave();
    return u;
}

void *umb_jit_lookup(umb_jit *j, const char *name, char *err, size_t errlen)
{
    LLVMOrcExecutorAddress addr = 0;
    if (!umb_jit_enter(err, errlen)) return NULL;
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->lljit, &addr, name);
    umb_jit_leave();
    if (e) {
        take_error(e, "LLVM ORC link/lookup", err, errlen);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

void umb_jit_remove(umb_jit *j, umb_jit_unit *u)
{
    (void)j;
    if (!u) return;
    char why[64];
    if (umb_jit_enter(why, sizeof why)) {   /* at exit: left to the OS */
        LLVMErrorRef e = LLVMOrcResourceTrackerRemove(u->rt);
        if (e) LLVMConsumeError(e);   /* the code may stay mapped; nothing else to do */
        LLVMOrcReleaseResourceTracker(u->rt);
        umb_jit_leave();
    }
    free(u);
}

uint64_t umb_jit_object_symbol_size(const void *obj, size_t len, const char *name)
{
    char why[64];
    if (!umb_jit_enter(why, sizeof why)) return 0;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(obj, len, "umbra-jit-object", false);
    char *msg = NULL;
    LLVMBinaryRef bin = LLVMCreateBinary(buf, NULL, &msg);
    uint64_t size = 0;
    if (bin) {
        LLVMSymbolIteratorRef it = LLVMObjectFileCopySymbolIterator(bin);
        for (; it && !LLVMObjectFileIsSymbolIteratorAtEnd(bin, it); LLVMMoveToNextSymbol(it)) {
            const char *n = LLVMGetSymbolName(it);
            if (n && !strcmp(n, name)) {
                size = LLVMGetSymbolSize(it);
                break;
            }
        }
        if (it) LLVMDisposeSymbolIterator(it);
        LLVMDisposeBinary(bin);
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeMemoryBuffer(buf);
    umb_jit_leave();
    return size;
}
