/* umb_jit: one LLVM ORC LLJIT (see jit.h). */
#include "jit/jit.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

struct umb_jit {
    LLVMOrcLLJITRef lljit;
    LLVMOrcThreadSafeContextRef tsc;
    LLVMTargetMachineRef tm;   /* the host's, for the optimiser's cost models (vector widths) */
};

static pthread_once_t native_once = PTHREAD_ONCE_INIT;
static int native_failed;   /* written once under native_once, read after it */

static void init_native(void)
{
    native_failed = LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter();
}

/* Move an LLVM error's text into err (consumes e). */
static void take_error(LLVMErrorRef e, const char *what, char *err, size_t errlen)
{
    char *msg = LLVMGetErrorMessage(e);
    snprintf(err, errlen, "%s: %s", what, msg ? msg : "unknown LLVM error");
    LLVMDisposeErrorMessage(msg);
}

static LLVMTargetMachineRef host_machine(const char *triple, LLVMCodeGenOptLevel level, char *err, size_t errlen)
{
    LLVMTargetRef target;
    char *why = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &why)) {
        snprintf(err, errlen, "LLVM has no target for %s: %s", triple, why ? why : "?");
        LLVMDisposeMessage(why);
        return NULL;
    }
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                                      LLVMCodeModelJITDefault);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    if (!tm) snprintf(err, errlen, "LLVM could not create a target machine for %s", triple);
    return tm;
}

umb_jit *umb_jit_create(LLVMCodeGenOptLevel level, char *err, size_t errlen)
{
    pthread_once(&native_once, init_native);
    if (native_failed) {
        snprintf(err, errlen, "LLVM has no native target in this build");
        return NULL;
    }
    umb_jit *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    /* the JIT's code generator: a host target machine at the optimisation level asked for */
    char *triple = LLVMGetDefaultTargetTriple();
    LLVMTargetMachineRef jtm = host_machine(triple, level, err, errlen);
    LLVMDisposeMessage(triple);
    if (!jtm) {
        free(j);
        return NULL;
    }
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm));
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&j->lljit, builder);   /* takes the builder */
    if (e) {
        take_error(e, "LLVM ORC LLJIT creation", err, errlen);
        free(j);
        return NULL;
    }
    j->tsc = LLVMOrcCreateNewThreadSafeContext();
    j->tm = host_machine(LLVMOrcLLJITGetTripleString(j->lljit), level, err, errlen);
    if (!j->tsc || !j->tm) {
        umb_jit_destroy(j);
        return NULL;
    }
    return j;
}

void umb_jit_destroy(umb_jit *j)
{
    if (!j) return;
    if (j->lljit) {
        LLVMErrorRef e = LLVMOrcDisposeLLJIT(j->lljit);
        if (e) LLVMConsumeError(e);   /* nothing left to report it to */
    }
    if (j->tsc) LLVMOrcDisposeThreadSafeContext(j->tsc);
    if (j->tm) LLVMDisposeTargetMachine(j->tm);
    free(j);
}

LLVMContextRef umb_jit_context(umb_jit *j)
{
    return LLVMOrcThreadSafeContextGetContext(j->tsc);
}

LLVMModuleRef umb_jit_module(umb_jit *j, const char *name)
{
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, umb_jit_context(j));
    LLVMSetTarget(m, LLVMOrcLLJITGetTripleString(j->lljit));
    LLVMSetDataLayout(m, LLVMOrcLLJITGetDataLayoutStr(j->lljit));
    return m;
}

bool umb_jit_add(umb_jit *j, LLVMModuleRef m, const char *passes, char *err, size_t errlen)
{
    char *why = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &why)) {
        snprintf(err, errlen, "invalid LLVM IR: %.400s", why ? why : "?");
        LLVMDisposeMessage(why);
        LLVMDisposeModule(m);
        return false;
    }
    LLVMDisposeMessage(why);
    if (passes && *passes) {
        LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
        LLVMErrorRef e = LLVMRunPasses(m, passes, j->tm, o);
        LLVMDisposePassBuilderOptions(o);
        if (e) {
            take_error(e, "LLVM optimisation", err, errlen);
            LLVMDisposeModule(m);
            return false;
        }
    }
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, j->tsc);
    LLVMErrorRef e = LLVMOrcLLJITAddLLVMIRModule(j->lljit, LLVMOrcLLJITGetMainJITDylib(j->lljit), tsm);
    if (e) {   /* tsm belongs to the JIT even then */
        take_error(e, "LLVM ORC add module", err, errlen);
        return false;
    }
    return true;
}

void *umb_jit_lookup(umb_jit *j, const char *name, char *err, size_t errlen)
{
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->lljit, &addr, name);
    if (e) {
        take_error(e, "LLVM ORC compile/lookup", err, errlen);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}
