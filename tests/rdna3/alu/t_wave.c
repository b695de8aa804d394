/* Wave-level behaviour: wave64 masks, faults and their messages, statistics, step API edges,
 * and the interpreter's speed on an ALU loop. */
#include <stdlib.h>
#include <time.h>

#include "at.h"
#include "isa/rdna3/rdna3.h"

static void wave64_masks(at *t)
{
    at_begin(t, 64);
    at_fill_int(t);
    umb_rdna3_step_set_exec(t->s, 0xf00000000000000full);
    at_code(t, "v_add_nc_u32_e32 v0, v1, v2\n"
               "v_cmp_gt_u32_e64 s[4:5], v1, v2\n"
               "v_add_co_u32 v5, vcc, v1, v2\n"
               "s_mov_b64 s[6:7], exec\n"
               "s_or_saveexec_b64 s[8:9], -1\n");
    RUNS(t);
    uint64_t gt = 0, carry = 0;
    for (unsigned l = 0; l < 64; l++) {
        bool on = l < 4 || l >= 60;
        EQ(t, at_gv(t, 0, l), on ? AT_A(l) + AT_B(l) : 0xccccccccu);
        if (on && AT_A(l) > AT_B(l)) gt |= 1ull << l;
        if (on && (uint64_t)AT_A(l) + AT_B(l) > 0xffffffffull) carry |= 1ull << l;
    }
    EQ(t, at_gs64(t, 4), gt);
    EQ(t, umb_rdna3_step_get_vcc(t->s), carry);
    EQ(t, at_gs64(t, 6), 0xf00000000000000full);
    EQ(t, at_gs64(t, 8), 0xf00000000000000full);
    EQ(t, umb_rdna3_step_get_exec(t->s), ~0ull);
}

static void wave64_branches(at *t)
{
    at_begin(t, 64);
    for (unsigned l = 0; l < 64; l++) at_v(t, 1, l, l);
    at_code(t, "v_cmpx_lt_u32_e32 40, v1\n"        /* 0: lanes 41..63 stay on */
               "s_cbranch_execz 4\n"               /* 4 -> 24 if no lane is left */
               "v_mov_b32_e32 v2, 7\n"             /* 8 */
               "s_and_b64 vcc, exec, 1\n"          /* 12: lane 0 is off -> vcc = 0 */
               "s_cbranch_vccz 1\n"                /* 16 -> 24 */
               "v_mov_b32_e32 v2, 9\n"             /* 20: skipped */
               "s_endpgm\n");                      /* 24 */
    uint64_t n = 0;
    EQ(t, umb_rdna3_step_run(t->s, 100, &n), UMB_OK);
    EQ(t, umb_rdna3_step_get_state(t->s), UMB_RDNA3_STEP_ENDED);
    EQ(t, umb_rdna3_step_get_exec(t->s), 0xfffffe0000000000ull);
    for (unsigned l = 0; l < 64; l++) EQ(t, at_gv(t, 2, l), l > 40 ? 7u : 0u);
    EQ(t, n, 6);
}

static void fault_messages(at *t)
{
    at_code(t, "s_nop 0\ns_trap 2");
    FAULTS(t, "s_trap 2");
    FAULTS(t, "s_trap");     /* a faulted wave stays faulted */
    at_code(t, "s_nop 0\ns_trap 2");
    umb_rdna3_step_run(t->s, 5, NULL);
    OK(t, strstr(umb_rdna3_step_error(t->s), "PC 0x7f0000000004") != NULL);
    OK(t, strstr(umb_rdna3_step_error(t->s), "bf900002") != NULL);   /* the encoding */
    EQ(t, umb_rdna3_step_get_state(t->s), UMB_RDNA3_STEP_FAULTED);
    EQ(t, umb_rdna3_step_get_pc(t->s), UMB_RDNA3_STEP_CODE_BASE + 4);

    /* Falling off the end of the code. */
    at_code(t, "s_nop 0");
    umb_status st = at_run_n(t, 2);
    OK(t, st != UMB_OK);
    OK(t, strstr(at_error(t), "outside the code") != NULL);

    /* An encoding that is not a gfx11 instruction (SOPP opcode 0x7f). */
    static const uint32_t bad[2] = {0xbf800000u, 0xbfff0000u};
    EQ(t, umb_rdna3_step_load(t->s, bad, sizeof bad), UMB_OK);
    st = umb_rdna3_step_run(t->s, 2, NULL);
    OK(t, st != UMB_OK);
    OK(t, strstr(umb_rdna3_step_error(t->s), "bfff0000") != NULL);
    OK(t, strstr(umb_rdna3_step_error(t->s), "PC 0x7f0000000004") != NULL);

    /* s_code_end is padding: executing it is an error, not a silent stop. */
    at_code(t, "s_code_end");
    FAULTS(t, "s_code_end");
    /* An instruction umbra decodes but does not execute reports UNSUPPORTED with its text. */
    at_code(t, "v_cubeid_f32 v0, v1, v2, v3");
    st = at_run(t);
    EQ(t, st, UMB_ERR_UNSUPPORTED);
    OK(t, strstr(at_error(t), "v_cubeid_f32") != NULL);
}

static void stats_counts(at *t)
{
    umb_rdna3_step_set_exec(t->s, 0x000000ffu);
    at_code(t, "s_mov_b32 s0, 1\n"
               "v_add_nc_u32_e32 v0, v1, v2\n"
               "v_mul_f32_e32 v0, v1, v2\n"
               "s_branch 0\n"
               "s_endpgm");
    uint64_t n = 0;
    EQ(t, umb_rdna3_step_run(t->s, 10, &n), UMB_OK);
    const umb_stats *s = umb_rdna3_step_stats(t->s);
    EQ(t, n, 5);
    EQ(t, s->warp_insts, 5);
    EQ(t, s->thread_insts, 5 * 8);
    EQ(t, s->lane_slots, 5 * 32);
    EQ(t, s->by_class[UMB_CLASS_SALU], 1);
    EQ(t, s->by_class[UMB_CLASS_VALU_INT], 1);
    EQ(t, s->by_class[UMB_CLASS_VALU_FP], 1);
    EQ(t, s->by_class[UMB_CLASS_BRANCH], 1);
}

static void step_api_edges(at *t)
{
    umb_rdna3_stepper *s2 = NULL;
    EQ(t, umb_rdna3_step_create(t->dev, 48, &s2), UMB_ERR_INVALID);
    OK(t, s2 == NULL);
    EQ(t, umb_rdna3_step_run(t->s, 1, NULL), UMB_ERR_INVALID);   /* nothing loaded */
    EQ(t, umb_rdna3_step_load(t->s, "abc", 3), UMB_ERR_INVALID);  /* not whole dwords */
    EQ(t, umb_rdna3_step_set_lds_size(t->s, 1u << 20), UMB_ERR_INVALID);
    EQ(t, umb_rdna3_step_set_lds_size(t->s, 256), UMB_OK);
    uint32_t v = 0x5a5a5a5au, r = 0;
    EQ(t, umb_rdna3_step_lds_write(t->s, 252, &v, 4), UMB_OK);
    EQ(t, umb_rdna3_step_lds_read(t->s, 252, &r, 4), UMB_OK);
    EQ(t, r, v);
    EQ(t, umb_rdna3_step_lds_write(t->s, 254, &v, 4), UMB_ERR_INVALID);
    /* EXEC above the wave size is ignored in wave32 */
    umb_rdna3_step_set_exec(t->s, ~0ull);
    EQ(t, umb_rdna3_step_get_exec(t->s), 0xffffffffull);
    /* Run N stops after N; the next run continues at the PC. */
    at_code(t, "s_add_u32 s0, s0, 1\ns_add_u32 s0, s0, 1\ns_add_u32 s0, s0, 1\ns_endpgm");
    uint64_t n = 0;
    EQ(t, umb_rdna3_step_run(t->s, 2, &n), UMB_OK);
    EQ(t, n, 2);
    EQ(t, at_gs(t, 0), 2);
    EQ(t, umb_rdna3_step_get_state(t->s), UMB_RDNA3_STEP_RUNNING);
    EQ(t, umb_rdna3_step_run(t->s, 10, &n), UMB_OK);
    EQ(t, n, 2);
    EQ(t, at_gs(t, 0), 3);
    EQ(t, umb_rdna3_step_get_state(t->s), UMB_RDNA3_STEP_ENDED);
}

/* Interpreter speed on an ALU-heavy loop: 8 VALU + 3 SALU per iteration. The hard floor here is
 * loose (sanitizer builds are slow); the measured rate is printed. */
static void perf_alu_loop(at *t)
{
    for (unsigned l = 0; l < 32; l++) {
        at_v(t, 1, l, fb(0.5f));
        at_v(t, 2, l, fb(1.0001f + (float)l));
        at_v(t, 3, l, fb(0.999f));
        at_v(t, 4, l, l);
        at_v(t, 5, l, 3);
        at_v(t, 6, l, fb(1.0f));
        at_v(t, 8, l, fb(2.0f));
    }
    at_code(t, "s_mov_b32 s0, 200000\n"
               "v_fma_f32 v1, v2, v3, v1\n"              /* 4: loop */
               "v_add_nc_u32_e32 v4, v4, v5\n"
               "v_mul_f32_e32 v6, v6, v2\n"
               "v_xor_b32_e32 v7, v7, v4\n"
               "v_fmac_f32_e32 v8, v2, v3\n"
               "v_lshlrev_b32_e32 v9, 1, v4\n"
               "v_max_f32_e32 v10, v1, v6\n"
               "v_and_b32_e32 v11, v9, v7\n"
               "s_sub_u32 s0, s0, 1\n"
               "s_cmp_lg_u32 s0, 0\n"
               "s_cbranch_scc1 -12\n"
               "s_endpgm");
    /* CPU time of this thread: the machine may be shared with other jobs */
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    uint64_t n = 0;
    EQ(t, umb_rdna3_step_run(t->s, 10000000, &n), UMB_OK);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    EQ(t, n, 2 + 200000ull * 11);
    double sec = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    double rate = (double)n / sec;
    printf("perf_alu_loop: %.1f M wave-instructions/s (wave32)\n", rate / 1e6);
    OK(t, rate > 1e6);
}

/* Random ALU encodings with random register contents, wave32 and wave64: every run must end in a
 * clean state (ran, ended, or faulted with a message) — never a crash or a sanitizer report.
 * The top bits pick the ALU families so that most words decode. */
static void fuzz_alu_encodings(at *t)
{
    static const uint32_t prefix[][2] = {
        {0x80000000u, 0xc0000000u},   /* SOP2 (and SOPK/SOP1/SOPC/SOPP above it) */
        {0xbe800000u, 0xff800000u},   /* SOP1 */
        {0xbf000000u, 0xff800000u},   /* SOPC */
        {0x7e000000u, 0xfe000000u},   /* VOP1 */
        {0x00000000u, 0x80000000u},   /* VOP2 */
        {0x7c000000u, 0xfe000000u},   /* VOPC */
        {0xd4000000u, 0xfc000000u},   /* VOP3 */
        {0xcc000000u, 0xff000000u},   /* VOP3P */
        {0xc8000000u, 0xfc000000u},   /* VOPD */
    };
    uint64_t x = 0x9e3779b97f4a7c15ull;
    unsigned runs = 0, faults = 0;
    for (unsigned ws = 32; ws <= 64; ws += 32) {
        at_begin(t, ws);
        for (unsigned iter = 0; iter < 1500; iter++) {
            uint32_t code[8];
            for (unsigned i = 0; i < 8; i++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                code[i] = (uint32_t)(x >> 16);
            }
            /* draw until the word is a valid gfx11 encoding (the decoder is the filter) */
            rdna3_inst in;
            char err[160];
            for (unsigned tries = 0; tries < 1000; tries++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                unsigned k = (unsigned)(x % (sizeof prefix / sizeof prefix[0]));
                code[0] = ((uint32_t)(x >> 24) & ~prefix[k][1]) | prefix[k][0];
                memset(&in, 0, sizeof in);
                if (rdna3_decode(code, 3, &in, err, sizeof err)) break;
            }
            for (unsigned i = in.size / 4u; i < 3; i++) code[i] = 0xbf800000u;   /* s_nop */
            code[3] = 0xbfb00000u;   /* s_endpgm after the instruction and its extra dwords */
            for (unsigned r = 0; r < 8; r++) {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                at_s(t, (unsigned)(x % 106u), (uint32_t)x);
                at_v(t, (unsigned)((x >> 8) % 256u), (unsigned)((x >> 20) % 64u), (uint32_t)(x >> 32));
            }
            umb_rdna3_step_set_exec(t->s, x);
            umb_rdna3_step_set_mode(t->s, (uint32_t)(x >> 40) & 0x3ffu);
            if (umb_rdna3_step_load(t->s, code, sizeof code) != UMB_OK) continue;
            umb_status st = umb_rdna3_step_run(t->s, 4, NULL);
            runs++;
            if (st != UMB_OK) {
                faults++;
                if (getenv("AT_FUZZ_VERBOSE")) fprintf(stderr, "%s\n", umb_rdna3_step_error(t->s));
                OK(t, umb_rdna3_step_error(t->s)[0] != '\0');
                OK(t, umb_rdna3_step_get_state(t->s) == UMB_RDNA3_STEP_FAULTED);
            }
        }
    }
    printf("fuzz_alu_encodings: %u runs, %u faulted (unsupported, guest faults)\n", runs, faults);
    OK(t, runs == 3000);
}

const at_case at_wave_cases[] = {
    C(wave64_masks), C(wave64_branches), C(fault_messages), C(stats_counts), C(step_api_edges), C(perf_alu_loop), C(fuzz_alu_encodings),
    {NULL, NULL},
};
