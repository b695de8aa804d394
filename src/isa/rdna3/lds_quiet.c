/* Which code cannot write LDS before the next barrier: what lets a wave run an LDS load ahead of
 * its round-robin turn (wave.c run_turn_and_ahead) with the results of plain round robin.
 *
 * The argument. Wave W runs instructions ahead of their turns only up to its next non-local
 * instruction; an LDS load may be one of them when every other wave X of the workgroup that has
 * not exited has its next PC where no LDS write is reachable before a barrier ("quiet" code).
 * Until W's load's own turn, W executes nothing more (its later turns pass), so W reaches no
 * barrier in that window; a barrier completes only when every wave arrives, so no X passes one,
 * and so every X runs only quiet code: nobody writes LDS between the load's early execution and
 * its turn, and it reads the bytes it would have read at its turn. A wave waiting at a barrier
 * has its PC past the barrier, so a barrier already released counts the code after it. LDS loads
 * in the UNALIGNED alignment mode cannot fault (bytes outside the allocation read as zero), so
 * running one early reports nothing early either.
 *
 * The map is conservative: code not reached from the kernel's entry through static control flow,
 * code from which an indirect jump or call is reachable (s_setpc, s_swappc, s_call) before a
 * barrier, and anything that may write LDS (every DS instruction but the loads and the cross-lane
 * ones, FLAT (its address may be in the LDS aperture), buffer_load_lds_*, LDSDIR, an instruction
 * that does not decode) make their predecessors up to the previous barrier noisy. */
#include "isa/rdna3/exec_mem.h"
#include "isa/rdna3/wave.h"

#include <stdlib.h>

enum { Q_OTHER = 0, Q_WRITER, Q_BARRIER };

static bool is_sopp(const rdna3_inst *in, unsigned op) { return in->fmt == RDNA3_FMT_SOPP && in->op == op; }

/* s_endpgm, s_code_end, s_branch, s_setpc_b64 do not fall through */
static bool falls_through(const rdna3_inst *in)
{
    return !is_sopp(in, 0x30) && !is_sopp(in, 0x1f) && !is_sopp(in, 0x20) &&
           !(in->fmt == RDNA3_FMT_SOP1 && in->op == 0x48);
}

static bool static_branch(const rdna3_inst *in) { return in->fmt == RDNA3_FMT_SOPP && in->op >= 0x20 && in->op <= 0x2a; }

static int kind_of(const rdna3_inst *in)
{
    if (is_sopp(in, 0x3d)) return Q_BARRIER;   /* s_barrier */
    if (in->exec == rdna3_exec_unsupported) return Q_WRITER;
    if (in->fmt == RDNA3_FMT_SOP1 && (in->op == 0x48 || in->op == 0x49)) return Q_WRITER;   /* setpc, swappc */
    if (in->fmt == RDNA3_FMT_SOPK && in->op == 0x14) return Q_WRITER;                       /* s_call_b64 */
    if (in->wave_local || in->hint || in->lds_read) return Q_OTHER;
    switch (in->fmt) {
    case RDNA3_FMT_DS: case RDNA3_FMT_FLAT: case RDNA3_FMT_LDSDIR: case RDNA3_FMT_EXP: case RDNA3_FMT_INVALID:
        return Q_WRITER;
    case RDNA3_FMT_MUBUF:   /* buffer_load_lds_* (0x2d-0x32) write LDS (exec_mem_buf.c) */
        return in->op >= 0x2d && in->op <= 0x32 ? Q_WRITER : Q_OTHER;
    default:   /* GLOBAL, SCRATCH, MTBUF, SMEM, MIMG, messages, waits, s_sleep, s_trap: no LDS */
        return Q_OTHER;
    }
}

uint8_t *rdna3_lds_quiet_map(rdna3_kernel *k, uint64_t entry_pc)
{
    size_t nslots = (size_t)((k->code_size + 3u) / 4u);
    uint8_t *quiet = calloc(nslots + 1u, 1);
    uint8_t *kind = calloc(nslots + 1u, 1), *noisy = calloc(nslots + 1u, 1), *seen = calloc(nslots + 1u, 1);
    uint32_t *succ = calloc(2 * (nslots + 1u), sizeof *succ);   /* slot + 1 of each successor, 0: none */
    uint64_t *work = malloc((nslots + 1u) * sizeof *work);
    uint32_t *order = malloc((nslots + 1u) * sizeof *order);
    size_t nwork = 0, norder = 0;
    bool ok = quiet && kind && noisy && seen && succ && work && order;
    if (ok && entry_pc >= k->code_base && entry_pc - k->code_base < k->code_size) work[nwork++] = entry_pc - k->code_base;
    while (ok && nwork) {   /* discovery through static control flow */
        uint64_t off = work[--nwork];
        size_t s = (size_t)(off >> 2);
        if (off >= k->code_size || (off & 3u) || seen[s]) continue;
        seen[s] = 1;
        order[norder++] = (uint32_t)s;
        char why[160];
        const rdna3_inst *in = rdna3_kernel_decode(k, k->code_base + off, why, sizeof why);
        if (!in) {
            kind[s] = Q_WRITER;
            continue;
        }
        kind[s] = (uint8_t)kind_of(in);
        uint64_t next[2] = { falls_through(in) ? off + in->size : UINT64_MAX,
                             static_branch(in) ? off + 4u + (uint64_t)((int64_t)(int16_t)in->simm16 * 4) : UINT64_MAX };
        for (int i = 0; i < 2; i++) {
            if (next[i] == UINT64_MAX) continue;
            if (next[i] >= k->code_size || (next[i] & 3u)) {   /* off the code: treat as unknown */
                kind[s] = Q_WRITER;
                continue;
            }
            succ[2 * s + (size_t)i] = (uint32_t)(next[i] >> 2) + 1u;
            if (!seen[next[i] >> 2]) work[nwork++] = next[i];
        }
    }
    /* noisy: a writer, or a non-barrier with a noisy successor (a fixpoint over the reached code) */
    for (size_t i = 0; ok && i < norder; i++) noisy[order[i]] = kind[order[i]] == Q_WRITER;
    for (bool changed = ok; changed;) {
        changed = false;
        for (size_t i = norder; i-- > 0;) {
            uint32_t s = order[i];
            if (noisy[s] || kind[s] == Q_BARRIER) continue;
            for (int j = 0; j < 2; j++) {
                uint32_t t = succ[2 * (size_t)s + (size_t)j];
                if (t && noisy[t - 1u]) {
                    noisy[s] = 1;
                    changed = true;
                    break;
                }
            }
        }
    }
    for (size_t i = 0; ok && i < norder; i++) quiet[order[i]] = !noisy[order[i]];
    free(kind);
    free(noisy);
    free(seen);
    free(succ);
    free(work);
    free(order);
    if (!ok) {
        free(quiet);
        return NULL;
    }
    return quiet;
}
