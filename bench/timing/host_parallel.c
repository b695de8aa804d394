/* Can this host run two memory-latency-bound threads of one process in parallel?
 *
 * The parallel timing mode (docs/TIMING.md "Several host threads") splits the model's work evenly
 * between host threads (callgrind counts it), and the model's host work is dominated by loads
 * that miss the host's caches (wave records, scoreboards, cache tags). Its wall-clock speed-up
 * is therefore bounded by how well the host runs two such threads at once. This program measures
 * exactly that, with nothing of umbra in it: each worker builds a random cyclic permutation of
 * its own 16 MiB and follows it (a dependent load per step, no data shared between workers), as
 * one thread, as two threads of this process, and as two processes. A second workload, integer
 * arithmetic in registers (twelve add chains, no memory), tells whether the two CPUs are whole
 * cores or two hardware threads of one core (SMT siblings): latency-bound chases barely slow
 * each other down on siblings, work that fills a core's execution units runs at about half
 * speed there.
 *
 *   host_parallel [ROUNDS]     prints CPU seconds per worker for each workload, arrangement and
 *                              round, then the medians; a host fit for the 2-thread figure shows
 *                              "2 threads" and "2 processes" per worker close to "1 thread".
 *
 * docs/PERFORMANCE.md "Timing mode on several host threads" has this machine's figures. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { SLOTS = 1 << 22, STEPS = 40 * 1000 * 1000, ALU_STEPS = 1000 * 1000 * 1000, MAX_ROUNDS = 64 };

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

/* One worker: the chase over a permutation of its own; returns the CPU seconds of the chase
 * (the set-up excluded), or a negative value without memory. */
static double chase(uint64_t seed)
{
    uint32_t *next = malloc(SLOTS * sizeof *next), *order = malloc(SLOTS * sizeof *order);
    if (!next || !order) {
        free(next), free(order);
        return -1;
    }
    for (uint32_t i = 0; i < SLOTS; i++) order[i] = i;
    for (uint32_t i = SLOTS - 1; i > 0; i--) {   /* Fisher-Yates: one cycle through every slot */
        uint32_t j = (uint32_t)(next_random(&seed) % (i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (uint32_t i = 0; i < SLOTS; i++) next[order[i]] = order[(i + 1) % SLOTS];
    free(order);
    double t0 = thread_cpu_seconds();
    volatile uint32_t sink;
    uint32_t p = 0;
    for (uint32_t k = 0; k < STEPS; k++) p = next[p];
    sink = p;
    (void)sink;
    double t = thread_cpu_seconds() - t0;
    free(next);
    return t;
}

/* One worker of the other workload: twelve independent one-cycle add chains in registers (about
 * four instructions a cycle on a Zen 5 core, more than half its integer ALUs: two such threads
 * on SMT siblings must share them and slow down; the earlier six chains with a multiply left
 * half the ALUs idle, which siblings share without slowing); the CPU seconds. */
static double alu(uint64_t seed)
{
    uint64_t a = seed, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8, i = 9, j = 10, k = 11, l = 12;
    double t0 = thread_cpu_seconds();
    for (uint64_t n = 0; n < ALU_STEPS; n++) {
        a += n, b += n, c += n, d += n, e += n, f += n, g += n, h += n, i += n, j += n, k += n, l += n;
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h), "+r"(i),
                         "+r"(j), "+r"(k), "+r"(l));   /* keep every add */
    }
    volatile uint64_t sink = a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ i ^ j ^ k ^ l;
    (void)sink;
    return thread_cpu_seconds() - t0;
}

typedef double (*work_fn)(uint64_t seed);

typedef struct worker {
    work_fn fn;
    uint64_t seed;
    double seconds;
} worker;

static void *worker_thread(void *arg)
{
    worker *w = arg;
    w->seconds = w->fn(w->seed);
    return NULL;
}

/* Two threads of this process; the mean CPU seconds per worker. */
static double two_threads(work_fn fn, uint64_t seed)
{
    worker w[2] = { { fn, seed, 0 }, { fn, seed + 1, 0 } };
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&t[i], NULL, worker_thread, &w[i]) != 0) return -1;
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    return w[0].seconds < 0 || w[1].seconds < 0 ? -1 : (w[0].seconds + w[1].seconds) / 2;
}

/* Two processes (each reports through a pipe); the mean CPU seconds per worker. */
static double two_processes(work_fn fn, uint64_t seed)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    pid_t pid[2];
    for (int i = 0; i < 2; i++) {
        pid[i] = fork();
        if (pid[i] < 0) return -1;
        if (pid[i] == 0) {
            double s = fn(seed + (uint64_t)i);
            _exit(write(fd[1], &s, sizeof s) == (ssize_t)sizeof s ? 0 : 1);
        }
    }
    close(fd[1]);
    double sum = 0;
    for (int i = 0; i < 2; i++) {
        double s;
        if (read(fd[0], &s, sizeof s) != (ssize_t)sizeof s || s < 0) sum = -2;
        else if (sum >= 0) sum += s;
    }
    close(fd[0]);
    for (int i = 0; i < 2; i++) waitpid(pid[i], NULL, 0);
    return sum < 0 ? -1 : sum / 2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Rounds of one workload in the three arrangements, interleaved (the host's drift hits all three
 * alike); prints them and the medians. False when a worker could not run. */
static bool measure(const char *what, work_fn fn, int rounds)
{
    double one[MAX_ROUNDS], threads[MAX_ROUNDS], procs[MAX_ROUNDS];
    printf("CPU seconds per worker (%s)\n", what);
    printf("round  1 thread  2 threads  2 processes\n");
    for (int r = 0; r < rounds; r++) {
        uint64_t seed = 1000u * (uint64_t)r + 17;
        one[r] = fn(seed);
        threads[r] = two_threads(fn, seed);
        procs[r] = two_processes(fn, seed);
        if (one[r] < 0 || threads[r] < 0 || procs[r] < 0) return false;
        printf("%5d  %8.2f  %9.2f  %11.2f\n", r + 1, one[r], threads[r], procs[r]);
    }
    double m1 = median(one, rounds), mt = median(threads, rounds), mp = median(procs, rounds);
    printf("median %7.2f  %9.2f  %11.2f\n", m1, mt, mp);
    printf("per-worker slow-down: 2 threads %.2fx, 2 processes %.2fx\n\n", mt / m1, mp / m1);
    return true;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "host_parallel: ROUNDS is 1..%d\n", MAX_ROUNDS);
        return 2;
    }
    if (!measure("40 M dependent loads over 16 MiB of its own", chase, rounds) ||
        !measure("1000 M steps of twelve add chains in registers", alu, rounds)) {
        fprintf(stderr, "host_parallel: out of memory or no threads/processes\n");
        return 1;
    }
    printf("1.00x: the host runs two such workers in parallel; a 2-thread timing run can reach at most\n"
           "about 2 / the chase's 2-thread figure. The arithmetic near 2x with the chase near 1x: the two\n"
           "CPUs are SMT siblings of one core.\n");
    return 0;
}
