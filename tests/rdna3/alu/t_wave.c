/* Wave-level behaviour: wave64 masks, faults and their messages, statistics, step API edges,
 * and the interpreter's speed on an ALU loop. */
#include <stdlib.h>
#include <time.h>

#include "at.h"
#include "isa/rdna3/rdna3.h"
#include "isa/rdna3/wave.h"

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

    /* Operand 254 (LDS direct, gone in gfx11) is reported, not read as some value:
     * v_mov_b32_e32 v0, <254> = 0x7e0002fe. */
    static const uint32_t ldsdir[2] = {0x7e0002feu, 0xbfb00000u};
    EQ(t, umb_rdna3_step_load(t->s, ldsdir, sizeof ldsdir), UMB_OK);
    st = umb_rdna3_step_run(t->s, 2, NULL);
    OK(t, st != UMB_OK);
    OK(t, strstr(umb_rdna3_step_error(t->s), "7e0002fe") != NULL);

    /* s_code_end is padding: executing it is an error, not a silent stop. */
    at_code(t, "s_code_end");
    FAULTS(t, "s_code_end");
    /* An instruction umbra decodes but does not execute reports UNSUPPORTED with its text. */
    at_code(t, "v_mullit_f32 v0, v1, v2, v3");
    st = at_run(t);
    EQ(t, st, UMB_ERR_UNSUPPORTED);
    OK(t, strstr(at_error(t), "v_mullit_f32") != NULL);
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

/* A long ALU loop (8 VALU + 3 SALU per iteration) runs to its end with the exact instruction
 * count and the values the loop computes in every lane. Speed is measured by bench/rdna3, not here. */
static void long_alu_loop(at *t)
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
    uint64_t n = 0;
    EQ(t, umb_rdna3_step_run(t->s, 10000000, &n), UMB_OK);
    EQ(t, n, 2 + 200000ull * 11);
    for (unsigned l = 0; l < 32; l++) {
        EQ(t, at_gv(t, 4, l), l + 3u * 200000u);           /* v4 += 3, 200000 times */
        EQ(t, at_gv(t, 9, l), (l + 3u * 200000u) << 1);    /* v9 = v4 << 1 of the last iteration */
    }
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

/* The umb_frontend in a real launch through the core: 2 workgroups x 2 waves; each wave writes its
 * id to LDS, waits at s_barrier, reads the other wave's slot and stores it to global memory. A
 * wave that faults reports kernel, workgroup and wave. */
#define FE_CODE_BASE 0x100000ull
#define FE_OUT 0x200000ull

static umb_status fe_init_wave(rdna3_kernel *k, umb_workgroup *wg, umb_warp *warp, rdna3_wave *w)
{
    w->pc = k->code_base;
    w->sgpr[0] = wg->id[0];
    w->sgpr[1] = warp->id;
    w->sgpr[2] = (uint32_t)FE_OUT;
    w->sgpr[3] = (uint32_t)(FE_OUT >> 32);
    rdna3_set_exec(w, 1);
    return UMB_OK;
}

static umb_status fe_launch(at *t, const char *src, umb_launch *l, umb_stats *st)
{
    uint8_t code[4096];
    unsigned ninsts = 0;
    size_t n = at_assemble(t, src, code, sizeof code, &ninsts);
    if (!n) return UMB_ERR_INVALID;
    umb_mem_map(t->dev, FE_CODE_BASE, 4096);
    umb_mem_map(t->dev, FE_OUT, 4096);
    umb_mem_copy_to_device(t->dev, FE_CODE_BASE, code, n);
    static const char name[] = "fe_test";
    rdna3_kernel *k = calloc(1, sizeof *k);
    k->dev = t->dev;
    k->global = umb_device_memory(t->dev);
    k->code_base = FE_CODE_BASE;
    k->code_size = n;
    k->name = name;
    k->lds_size = 64;
    k->alignment_mode = 3;
    k->init_wave = fe_init_wave;
    OK(t, rdna3_kernel_prepare(k) == UMB_OK);
    memset(l, 0, sizeof *l);
    l->dev = t->dev;
    l->fe = &rdna3_frontend;
    l->kernel = k;
    l->grid[0] = 2; l->grid[1] = 1; l->grid[2] = 1;
    l->warps_per_wg = 2;
    l->threads_per_warp = 32;
    l->kernel_name = name;
    umb_status s = umb_launch_run(l, st);
    rdna3_kernel_release(k);
    free(k);
    return s;
}

static void frontend_launch(at *t)
{
    static const char *prog =
        "v_mov_b32_e32 v1, s1\n"
        "v_lshlrev_b32_e32 v2, 2, v1\n"
        "s_lshl_b32 s4, s0, 8\n"
        "s_or_b32 s4, s4, s1\n"
        "v_mov_b32_e32 v3, s4\n"
        "ds_store_b32 v2, v3\n"
        "s_waitcnt lgkmcnt(0)\n"
        "s_barrier\n"
        "v_xor_b32_e32 v4, 4, v2\n"
        "ds_load_b32 v5, v4\n"
        "s_waitcnt lgkmcnt(0)\n"
        "s_lshl_b32 s5, s0, 1\n"
        "s_add_u32 s5, s5, s1\n"
        "s_lshl_b32 s5, s5, 2\n"
        "v_mov_b32_e32 v6, s5\n"
        "global_store_b32 v6, v5, s[2:3]\n"
        "s_endpgm\n";
    umb_launch l;
    umb_stats st;
    memset(&st, 0, sizeof st);
    umb_status s = fe_launch(t, prog, &l, &st);
    if (s != UMB_OK) at_fail(t, __FILE__, __LINE__, "launch: %s", l.fault.message);
    uint32_t out[4] = {0};
    umb_mem_copy_from_device(t->dev, FE_OUT, out, sizeof out);
    EQ(t, out[0], 0x001u);      /* wg 0 wave 0 read wave 1's slot */
    EQ(t, out[1], 0x000u);
    EQ(t, out[2], 0x101u);
    EQ(t, out[3], 0x100u);
    EQ(t, st.warp_insts, 4 * 17);
    EQ(t, st.thread_insts, 4 * 17);   /* one lane on */

    /* the same with 3 instructions per turn (the general step path) */
    umb_device_config cfg = *umb_device_get_config(t->dev);
    cfg.quantum = 3;
    umb_device_set_config(t->dev, &cfg);
    memset(&st, 0, sizeof st);
    umb_mem_unmap(t->dev, FE_OUT, 4096);
    s = fe_launch(t, prog, &l, &st);
    if (s != UMB_OK) at_fail(t, __FILE__, __LINE__, "launch: %s", l.fault.message);
    memset(out, 0, sizeof out);
    umb_mem_copy_from_device(t->dev, FE_OUT, out, sizeof out);
    EQ(t, out[0], 0x001u);
    EQ(t, out[3], 0x100u);
    EQ(t, st.warp_insts, 4 * 17);

    /* the second wave of workgroup 1 traps */
    s = fe_launch(t, "s_cmp_eq_u32 s0, 1\n"
                     "s_cbranch_scc0 3\n"
                     "s_cmp_eq_u32 s1, 1\n"
                     "s_cbranch_scc0 1\n"
                     "s_trap 3\n"
                     "s_endpgm\n", &l, &st);
    OK(t, s != UMB_OK);
    OK(t, strstr(l.fault.message, "fe_test") != NULL);
    OK(t, strstr(l.fault.message, "workgroup (1,0,0)") != NULL);
    OK(t, strstr(l.fault.message, "warp 1") != NULL);
    OK(t, strstr(l.fault.message, "s_trap 3") != NULL);

    /* a wave that never ends: the budget report describes its PC through describe_pc */
    cfg.quantum = 1;
    cfg.max_instructions = 5000;
    umb_device_set_config(t->dev, &cfg);
    s = fe_launch(t, "s_nop 0\ns_branch -1\n", &l, &st);
    EQ(t, s, UMB_ERR_BUDGET);
    OK(t, strstr(l.fault.message, "s_branch") != NULL);
    OK(t, strstr(l.fault.message, "PC 0x100004") != NULL);
}

/* The lane-pattern cases again in wave64: lanes 32..63 repeat the edge values, so every lane
 * loop, mask and DPP row pattern is exercised over 64 lanes. */
static void wave64_suite(at *t)
{
    static void (*const cases[])(at *) = {vint_add_sub, vint_mul, vint_bits, vint_minmax, vint_16bit,
                                          vf32_arith, vf32_round, vf32_omod_clamp, vf32_minmax, dpp_row_patterns};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        at_begin(t, 64);
        cases[i](t);
    }
}

const at_case at_wave_cases[] = {
    C(wave64_masks), C(wave64_branches), C(wave64_suite), C(fault_messages), C(stats_counts), C(step_api_edges), C(long_alu_loop), C(fuzz_alu_encodings), C(frontend_launch),
    {NULL, NULL},
};
