// HIP device code for tests/hostcall: printf, malloc/free, assert/abort through AMD's hostcall
// buffer. Built at test time by clang++-19 --cuda-device-only into a code object (see
// hostcall_test.c); every kernel is extern "C" so that `umbra run --kernel NAME` finds it.
#include <hip/hip_runtime.h>
#include <cassert>

typedef long long ll2 __attribute__((ext_vector_type(2)));
extern "C" __device__ ll2 __ockl_hostcall_preview(unsigned int service, unsigned long long a0, unsigned long long a1,
                                                  unsigned long long a2, unsigned long long a3, unsigned long long a4,
                                                  unsigned long long a5, unsigned long long a6, unsigned long long a7);

// Every work-item prints one line (the test wants exactly these lines, in any order).
extern "C" __global__ void print_many(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) printf("item %d of %d: %f %s|%c|%x\n", i, n, i * 0.25f, (i & 1) ? "odd" : "even", 'a' + i % 26, i * 7);
}

// C's conversions, flags, widths, precisions, '*', length modifiers, strings in several chunks;
// ret[k] = what printf returned (the length of the text).
extern "C" __global__ void print_conversions(const char *s, int *ret)
{
    if (threadIdx.x != 0) return;
    ret[0] = printf("%d %i %u %x %X %o|%5d|%-5d|%05d|%+d|% d|%#x|%#o\n", -42, 42, 42u, 0xbeefu, 0xbeefu, 8u, 7, 7, 7, 7, 7,
                    255u, 8u);
    ret[1] = printf("%ld %lld %lu %hd %hhd %hu %hhu %zu %llx\n", -1234567890123L, 1234567890123LL,
                    18446744073709551615UL, (short)-2, (signed char)-3, (unsigned short)65535, (unsigned char)255,
                    (size_t)123, 0x123456789abcdefULL);
    ret[2] = printf("%f %.3f %10.2f %-10.1f| %e %E %g %G %a %A\n", 3.14159f, 2.5, -1.125, 0.5, 12345.678, 0.00012, 1e-5,
                    1e20, 1.0, -0.5);
    ret[3] = printf("%c%c%c [%s] %10s|%-10s|%.3s|%s|\n", 'x', 'y', 'z', s, "right", "left", "truncate", "");
    ret[4] = printf("%*d|%-*d|%.*f|%*.*f|\n", 6, 42, 6, 42, 2, 3.14159, 8, 3, 2.71828);
    ret[5] = printf("%p %p %%d 100%%\n", (void *)0x1234, (void *)0);
    ret[6] = printf("no arguments at all\n");
    ret[7] = printf("a constant string longer than one packet's fifty-six bytes: %s, then %d\n",
                    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789", 99);
    ret[8] = printf("%s|%5.1s|%c\n", s + 5, s, s[1]);
}

// One packet asks for a service nobody provides.
extern "C" __global__ void unknown_service(int *out)
{
    ll2 r = __ockl_hostcall_preview(9, 1, 2, 3, 4, 5, 6, 7, 8);
    out[threadIdx.x] = (int)r.x;
}

// Each work-item allocates n ints, fills them, sums them and frees them.
extern "C" __global__ void malloc_sum(unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    if (!p) {
        out[i] = ~0ull;
        return;
    }
    for (int k = 0; k < n; k++) p[k] = i * 1000 + k;
    unsigned long long sum = 0;
    for (int k = 0; k < n; k++) sum += p[k];
    out[i] = sum;
    free(p);
}

// Memory allocated by a kernel outlives it: malloc_keep allocates and fills, malloc_release
// (another launch) reads it back and frees it.
extern "C" __global__ void malloc_keep(unsigned long long *ptrs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)malloc(n * sizeof(int));
    if (p)
        for (int k = 0; k < n; k++) p[k] = i + k;
    ptrs[i] = (unsigned long long)p;
}

extern "C" __global__ void malloc_release(unsigned long long *ptrs, unsigned long long *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int *p = (int *)ptrs[i];
    unsigned long long sum = 0;
    for (int k = 0; k < n; k++) sum += p[k];
    sums[i] = sum;
    free(p);
}

// malloc of more than the device has returns NULL; free(NULL) does nothing.
extern "C" __global__ void malloc_huge(unsigned long long *out)
{
    void *p = malloc(1ull << 50);
    out[0] = (unsigned long long)p;
    free(nullptr);
    out[1] = 1;
}

// free() of an address malloc did not return.
extern "C" __global__ void free_bad(int *out)
{
    free((void *)0x10000);
    out[0] = 1;
}

// Work-item 37 fails an assertion.
extern "C" __global__ void assert_one(int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(i != 37);
    out[i] = i;
}

// Four lanes of one wave fail the same assertion at once.
extern "C" __global__ void assert_lanes(int *out)
{
    int i = threadIdx.x;
    assert(i < 3 || i > 6);
    out[i] = i;
}

// Prints, then aborts.
extern "C" __global__ void print_abort(int *out)
{
    int i = threadIdx.x;
    printf("before abort %d\n", i);
    if (i == 2) abort();
    out[i] = i;
}
