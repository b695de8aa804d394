/* The process exits while another thread is inside LLVM (src/jit/jit.c, "the exit gate").
 *
 * The OpenCL platform and the HIP runtime never destroy their device, so a program that returns
 * from main while the translator thread is still making a background translation used to exit
 * under it: exit() destroyed LLVM's static objects and the translator thread crashed the finished
 * program (opencl.program.bitonic_sort, about one run in three under ASan; a SIGSEGV in
 * TargetPassConfig::addPass).
 *
 * Here a thread compiles a big module through umb_jit_compile while the main thread calls exit(0)
 * as soon as that thread holds the gate. Expected, in this order on stdout:
 *   "compiled <n> bytes"  the compile finished: exit waited for it (without the gate the process
 *                         is gone, or crashes, before this line);
 *   "refused: ..."        an exit handler registered before LLVM was first used runs after the
 *                         gate's and finds it closed: no new use of LLVM starts once exit began.
 * and the exit status 0.
 *
 * With the argument `holding`, the main thread itself holds the gate when it calls exit() (as
 * LLVM's fatal-error path, which ends in exit(1) inside LLVM): the handler waits for the other
 * thread only, not for itself (else the process would hang), and the order above is the same.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit/jit.h"

static atomic_int entered;
static bool holding;   /* the main thread holds the gate when it calls exit() */

/* A function of `blocks` blocks of dependent arithmetic, chained by conditional branches: a few
 * hundred milliseconds of LLVM's default pipeline and code generator. */
static LLVMModuleRef big_module(LLVMContextRef ctx, unsigned blocks)
{
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("exit_gate", ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef fnty = LLVMFunctionType(i64, (LLVMTypeRef[]){ i64, i64 }, 2, false);
    LLVMValueRef f = LLVMAddFunction(m, "exit_gate_fn", fnty);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef slot = LLVMBuildAlloca(b, i64, "acc");
    LLVMBuildStore(b, LLVMGetParam(f, 0), slot);
    LLVMBasicBlockRef cur = entry;
    for (unsigned i = 0; i < blocks; i++) {
        LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(ctx, f, "body");
        LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(ctx, f, "next");
        LLVMPositionBuilderAtEnd(b, cur);
        LLVMValueRef v = LLVMBuildLoad2(b, i64, slot, "v");
        LLVMValueRef c = LLVMBuildICmp(b, LLVMIntULT, v, LLVMConstInt(i64, 1000u + i, false), "c");
        LLVMBuildCondBr(b, c, body, next);
        LLVMPositionBuilderAtEnd(b, body);
        LLVMValueRef w = LLVMBuildMul(b, v, LLVMGetParam(f, 1), "w");
        w = LLVMBuildXor(b, w, LLVMConstInt(i64, 0x9e3779b97f4a7c15ull * (i + 1u), false), "x");
        w = LLVMBuildAdd(b, w, LLVMBuildLShr(b, w, LLVMConstInt(i64, 7u + i % 13u, false), "s"), "a");
        LLVMBuildStore(b, w, slot);
        LLVMBuildBr(b, next);
        cur = next;
    }
    LLVMPositionBuilderAtEnd(b, cur);
    LLVMBuildRet(b, LLVMBuildLoad2(b, i64, slot, "r"));
    LLVMDisposeBuilder(b);
    return m;
}

static void *compile_thread(void *arg)
{
    (void)arg;
    char err[512];
    if (!umb_jit_enter(err, sizeof err)) {
        printf("FAIL: the gate is closed before exit: %s\n", err);
        fflush(stdout);
        _exit(1);
    }
    atomic_store(&entered, 1);   /* the main thread exits now, while this thread is inside LLVM */
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = big_module(ctx, 400);
    void *obj = NULL;
    size_t len = 0;
    bool ok = umb_jit_compile(m, LLVMCodeGenLevelDefault, "default<O2>", &obj, &len, err, sizeof err);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    /* said while still holding the gate: once it is left, exit goes on and may end this thread */
    if (ok) printf("compiled %zu bytes\n", len);
    else printf("FAIL: compile: %s\n", err);
    fflush(stdout);
    umb_jit_leave();
    free(obj);
    return NULL;
}

/* Registered before LLVM is first used, so it runs after the gate's handler (exit handlers run in
 * the reverse order of their registration). */
static void after_gate(void)
{
    char err[256];
    if (holding) umb_jit_leave();   /* (its own nested holds would go on: this thread is inside) */
    if (umb_jit_enter(err, sizeof err)) {
        umb_jit_leave();
        printf("FAIL: LLVM still usable after exit began\n");
        fflush(stdout);
        _exit(1);
    }
    printf("refused: %s\n", err);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    holding = argc > 1 && !strcmp(argv[1], "holding");
    atexit(after_gate);
    char err[256];
    if (!umb_jit_init_native(err, sizeof err)) {
        printf("SKIP: %s\n", err);
        return 77;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, compile_thread, NULL) != 0) {
        printf("FAIL: no thread\n");
        return 1;
    }
    while (!atomic_load(&entered)) usleep(1000);
    if (holding && !umb_jit_enter(err, sizeof err)) {
        printf("FAIL: the gate is closed before exit: %s\n", err);
        return 1;
    }
    exit(0);   /* without joining t: as a program returning from main with a translation running */
}
