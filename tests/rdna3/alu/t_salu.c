/* Scalar ALU and program control (SOP1/SOP2/SOPK/SOPC/SOPP). Expected values follow the RDNA3
 * ISA rules: SCC = carry/borrow for unsigned add/sub, signed overflow for *_i32, result != 0 for
 * logic/shift/bit ops, "S0 chosen" for min/max. */
#include "at.h"

static void salu_add_sub_carry(at *t)
{
    at_s(t, 0, 0xffffffffu);
    at_s(t, 1, 2);
    at_code(t, "s_add_u32 s2, s0, s1\n"       /* 1, carry */
               "s_addc_u32 s3, 0, 0\n"        /* 0 + 0 + carry = 1, no carry */
               "s_cselect_b32 s4, 11, 22\n"   /* SCC = 0 after addc -> 22 */
               "s_sub_u32 s5, 1, 2\n"         /* borrow */
               "s_subb_u32 s6, 5, 1\n"        /* 5 - 1 - 1 = 3 */
               "s_add_i32 s7, 0x7fffffff, 1\n" /* signed overflow */
               "s_cselect_b32 s8, 1, 0\n"
               "s_sub_i32 s9, 0x80000000, 1\n"
               "s_cselect_b32 s10, 1, 0\n"
               "s_absdiff_i32 s11, -5, 7\n");
    RUNS(t);
    EQ(t, at_gs(t, 2), 1);
    EQ(t, at_gs(t, 3), 1);
    EQ(t, at_gs(t, 4), 22);
    EQ(t, at_gs(t, 5), 0xffffffffu);
    EQ(t, at_gs(t, 6), 3);
    EQ(t, at_gs(t, 7), 0x80000000u);
    EQ(t, at_gs(t, 8), 1);
    EQ(t, at_gs(t, 9), 0x7fffffffu);
    EQ(t, at_gs(t, 10), 1);
    EQ(t, at_gs(t, 11), 12);
}

static void salu_logic_64(at *t)
{
    at_s64(t, 0, 0xff00ff00f0f0f0f0ull);
    at_s64(t, 2, 0x0ff00ff000ff00ffull);
    at_code(t, "s_and_b64 s[4:5], s[0:1], s[2:3]\n"
               "s_or_b64 s[6:7], s[0:1], s[2:3]\n"
               "s_xor_b64 s[8:9], s[0:1], s[2:3]\n"
               "s_nand_b64 s[10:11], s[0:1], s[2:3]\n"
               "s_and_not1_b64 s[12:13], s[0:1], s[2:3]\n"
               "s_or_not1_b32 s14, s0, s2\n"
               "s_xnor_b32 s15, s0, s2\n"
               "s_and_b32 s16, s0, 0x0f0f0f0f\n"); /* 0 -> SCC 0 */
    RUNS(t);
    uint64_t a = 0xff00ff00f0f0f0f0ull, b = 0x0ff00ff000ff00ffull;
    EQ(t, at_gs64(t, 4), a & b);
    EQ(t, at_gs64(t, 6), a | b);
    EQ(t, at_gs64(t, 8), a ^ b);
    EQ(t, at_gs64(t, 10), ~(a & b));
    EQ(t, at_gs64(t, 12), a & ~b);
    EQ(t, at_gs(t, 14), (uint32_t)a | ~(uint32_t)b);
    EQ(t, at_gs(t, 15), ~((uint32_t)a ^ (uint32_t)b));
    EQ(t, at_gs(t, 16), 0);
    EQ(t, umb_rdna3_step_get_scc(t->s), 0);
}

static void salu_shift_bfe(at *t)
{
    at_s64(t, 0, 0x8000000000000001ull);
    at_s(t, 2, 0x80000000u);
    at_s(t, 3, 0xdeadbeefu);
    at_code(t, "s_lshl_b64 s[4:5], s[0:1], 4\n"
               "s_lshr_b64 s[6:7], s[0:1], 63\n"
               "s_ashr_i64 s[8:9], s[0:1], 60\n"
               "s_ashr_i32 s10, s2, 31\n"
               "s_lshl_b32 s11, s2, 33\n"           /* shift amount masked to 1 -> 0, SCC 0 */
               "s_cselect_b32 s12, 1, 2\n"
               "s_bfe_u32 s13, s3, 0x80004\n"       /* offset 4, width 8 */
               "s_bfe_i32 s14, s3, 0x40004\n"       /* offset 4, width 4: 0xe -> -2 */
               "s_bfm_b32 s15, 5, 3\n"
               "s_bfe_u64 s[16:17], s[0:1], 0x20003f\n" /* offset 63, width 32 -> 1 */
               "s_lshl2_add_u32 s18, 3, 5\n"
               /* fields past bit 31 take the sign of an arithmetic shift (LLVM folds
                * llvm.amdgcn.sbfe(0x99e83f5a, 29, 29) to -4, as S_BFE_I32 computes it) */
               "s_mov_b32 s19, 0x99e83f5a\n"
               "s_bfe_i32 s20, s19, 0x1d001d\n"    /* offset 29, width 29 -> -4 */
               "s_bfe_i32 s21, s19, 0x280004\n"    /* offset 4, width 40 (>= 32): s19 >> 4 arithmetic */
               "s_bfe_i64 s[22:23], s[0:1], 0x3c003c\n"); /* offset 60, width 60: sign-filled -> -8 */
    RUNS(t);
    EQ(t, at_gs(t, 20), 0xfffffffcu);
    EQ(t, at_gs(t, 21), 0xf99e83f5u);
    EQ(t, at_gs64(t, 22), 0xfffffffffffffff8ull);
    EQ(t, at_gs64(t, 4), 0x10ull);
    EQ(t, at_gs64(t, 6), 1);
    EQ(t, at_gs64(t, 8), 0xfffffffffffffff8ull);
    EQ(t, at_gs(t, 10), 0xffffffffu);
    EQ(t, at_gs(t, 11), 0);
    EQ(t, at_gs(t, 12), 2);
    EQ(t, at_gs(t, 13), 0xeeu);
    EQ(t, at_gs(t, 14), 0xfffffffeu);
    EQ(t, at_gs(t, 15), 0xf8u);
    EQ(t, at_gs64(t, 16), 1);
    EQ(t, at_gs(t, 18), 17);
}

static void salu_bitops(at *t)
{
    at_s(t, 0, 0x00000f00u);
    at_s(t, 1, 0);
    at_s(t, 2, 0xfffff0ffu);
    at_code(t, "s_brev_b32 s3, s0\n"
               "s_ctz_i32_b32 s4, s0\n"
               "s_ctz_i32_b32 s5, s1\n"         /* no bit set: -1 */
               "s_clz_i32_u32 s6, s0\n"
               "s_cls_i32 s7, s2\n"             /* 0xfffff0ff: 20 sign bits -> first opposite at 20 */
               "s_bcnt1_i32_b32 s8, s2\n"
               "s_bcnt0_i32_b32 s9, s2\n"
               "s_sext_i32_i8 s10, 0x80\n"
               "s_sext_i32_i16 s11, 0x7fff\n"
               "s_mov_b32 s12, 0\n"
               "s_bitset1_b32 s12, 7\n"
               "s_quadmask_b32 s13, 0x0000f010\n"
               "s_wqm_b32 s14, 0x00000120\n"
               "s_not_b32 s15, s1\n"
               "s_abs_i32 s16, 0x80000001\n"
               "s_bitreplicate_b64_b32 s[18:19], 0x80000005\n");
    RUNS(t);
    EQ(t, at_gs(t, 3), 0x00f00000u);
    EQ(t, at_gs(t, 4), 8);
    EQ(t, at_gs(t, 5), 0xffffffffu);
    EQ(t, at_gs(t, 6), 20);
    EQ(t, at_gs(t, 7), 20);
    EQ(t, at_gs(t, 8), 28);
    EQ(t, at_gs(t, 9), 4);
    EQ(t, at_gs(t, 10), 0xffffff80u);
    EQ(t, at_gs(t, 11), 0x7fffu);
    EQ(t, at_gs(t, 12), 0x80u);
    EQ(t, at_gs(t, 13), 0x0au);            /* 0x10 is in quad 1, 0xf000 in quad 3 */
    EQ(t, at_gs(t, 14), 0x00000ff0u);
    EQ(t, at_gs(t, 15), 0xffffffffu);
    EQ(t, at_gs(t, 16), 0x7fffffffu);
    EQ(t, at_gs64(t, 18), 0xc000000000000033ull);
}

static void salu_minmax_mul_pack(at *t)
{
    at_s(t, 20, 0x11112222u);
    at_s(t, 21, 0x33334444u);
    at_s(t, 22, 0xabcd1234u);
    at_s(t, 23, 0x5678u);
    at_code(t, "s_min_i32 s0, -3, 2\n"
               "s_cselect_b32 s1, 1, 0\n"      /* S0 chosen -> SCC 1 */
               "s_max_u32 s2, 1, -1\n"
               "s_cselect_b32 s3, 1, 0\n"      /* S1 chosen -> SCC 0 */
               "s_mul_i32 s4, -7, 6\n"
               "s_mul_hi_u32 s5, 0x80000000, 6\n"
               "s_mul_hi_i32 s6, 0x80000000, 6\n"
               "s_pack_ll_b32_b16 s7, s22, s23\n"
               "s_pack_lh_b32_b16 s8, s20, s21\n"
               "s_pack_hh_b32_b16 s9, s20, s21\n"
               "s_pack_hl_b32_b16 s10, s20, s21\n"
               "s_movk_i32 s11, 0x8000\n"
               "s_addk_i32 s11, 0x10\n"
               "s_mulk_i32 s11, -2\n");
    RUNS(t);
    EQ(t, at_gs(t, 0), 0xfffffffdu);
    EQ(t, at_gs(t, 1), 1);
    EQ(t, at_gs(t, 2), 0xffffffffu);
    EQ(t, at_gs(t, 3), 0);
    EQ(t, at_gs(t, 4), (uint32_t)-42);
    EQ(t, at_gs(t, 5), 3);
    EQ(t, at_gs(t, 6), 0xfffffffdu);
    EQ(t, at_gs(t, 7), 0x56781234u);
    EQ(t, at_gs(t, 8), 0x33332222u);
    EQ(t, at_gs(t, 9), 0x33331111u);
    EQ(t, at_gs(t, 10), 0x44441111u);
    EQ(t, at_gs(t, 11), (uint32_t)((-32768 + 16) * -2));
}

static void salu_compare(at *t)
{
    at_s64(t, 4, 0x100000001ull);
    at_s64(t, 6, 0x100000001ull);
    at_s(t, 8, 0xfffffff0u);
    at_code(t, "s_cmp_lt_i32 s8, 0\n"  "s_cselect_b32 s10, 1, 0\n"
               "s_cmp_lt_u32 s8, 0\n"  "s_cselect_b32 s11, 1, 0\n"
               "s_cmp_eq_u64 s[4:5], s[6:7]\n" "s_cselect_b32 s12, 1, 0\n"
               "s_bitcmp1_b32 s8, 4\n" "s_cselect_b32 s13, 1, 0\n"
               "s_bitcmp0_b64 s[4:5], 32\n" "s_cselect_b32 s14, 1, 0\n"
               "s_cmpk_gt_i32 s8, 0xfff0\n" "s_cselect_b32 s15, 1, 0\n"   /* -16 > -16: no */
               "s_cmpk_lt_u32 s8, 0xfff0\n" "s_cselect_b32 s16, 1, 0\n"); /* 0xfffffff0 < 0xfff0: no */
    RUNS(t);
    EQ(t, at_gs(t, 10), 1);
    EQ(t, at_gs(t, 11), 0);
    EQ(t, at_gs(t, 12), 1);
    EQ(t, at_gs(t, 13), 1);
    EQ(t, at_gs(t, 14), 0);
    EQ(t, at_gs(t, 15), 0);
    EQ(t, at_gs(t, 16), 0);
}

static void salu_saveexec(at *t)
{
    umb_rdna3_step_set_exec(t->s, 0xff00ff00u);
    at_s(t, 0, 0x0ff00ff0u);
    at_code(t, "s_and_saveexec_b32 s1, s0\n");
    RUNS(t);
    EQ(t, at_gs(t, 1), 0xff00ff00u);
    EQ(t, umb_rdna3_step_get_exec(t->s), 0x0f000f00u);
    EQ(t, umb_rdna3_step_get_scc(t->s), 1);

    umb_rdna3_step_set_exec(t->s, 0x0000ffffu);
    at_code(t, "s_and_not1_saveexec_b32 s2, s0\n");   /* exec = s0 & ~exec */
    RUNS(t);
    EQ(t, at_gs(t, 2), 0x0000ffffu);
    EQ(t, umb_rdna3_step_get_exec(t->s), 0x0ff00000u);

    umb_rdna3_step_set_exec(t->s, 0x0000ffffu);
    at_code(t, "s_and_not0_wrexec_b32 s3, s0\n");     /* exec = ~s0 & exec, s3 = new exec */
    RUNS(t);
    EQ(t, umb_rdna3_step_get_exec(t->s), 0x0000f00fu);
    EQ(t, at_gs(t, 3), 0x0000f00fu);

    umb_rdna3_step_set_exec(t->s, 0x1u);
    at_code(t, "s_xor_saveexec_b32 s4, 1\n");
    RUNS(t);
    EQ(t, umb_rdna3_step_get_exec(t->s), 0);
    EQ(t, umb_rdna3_step_get_scc(t->s), 0);
}

/* A counted loop: s0 = 10 iterations of s1 += 3, closed with s_cbranch_scc1. Branch offsets
 * are in dwords from the next instruction (llvm-mc leaves label fixups unresolved). */
static void salu_branch_loop(at *t)
{
    at_code(t, "s_mov_b32 s0, 10\n"            /* 0 */
               "s_mov_b32 s1, 0\n"             /* 4 */
               "s_add_u32 s1, s1, 3\n"         /* 8: loop */
               "s_sub_u32 s0, s0, 1\n"         /* 12 */
               "s_cmp_lg_u32 s0, 0\n"          /* 16 */
               "s_cbranch_scc1 -4\n"           /* 20 -> 8 */
               "s_branch 2\n"                  /* 24 -> 36 */
               "s_mov_b32 s1, 0xdead\n"        /* 28 (8 bytes) */
               "s_mov_b32 s2, exec_lo\n"       /* 36 */
               "s_mov_b32 exec_lo, 0\n"        /* 40 */
               "s_cbranch_execz 2\n"           /* 44 -> 56 */
               "s_mov_b32 s1, 0xbad\n"         /* 48 */
               "s_mov_b32 exec_lo, s2\n"       /* 56 */
               "s_endpgm\n"                    /* 60 */
               "s_mov_b32 s1, 0xbad\n");
    umb_status st = at_run_n(t, 1000);
    if (st != UMB_OK) at_fail(t, __FILE__, __LINE__, "fault: %s", at_error(t));
    EQ(t, at_gs(t, 1), 30);
    EQ(t, umb_rdna3_step_get_state(t->s), UMB_RDNA3_STEP_ENDED);
    EQ(t, umb_rdna3_step_get_exec(t->s), 0xffffffffu);
}

static void salu_pc_ops(at *t)
{
    /* s_getpc gives the address of the next instruction; s_setpc jumps over the trap. */
    /* Offsets: getpc 0, add 4, addc 8, setpc 12, s_mov s5 (with literal) 16, s_mov s6 24. */
    at_code(t, "s_getpc_b64 s[0:1]\n"             /* s[0:1] = base + 4 */
               "s_add_u32 s0, s0, 20\n"           /* base + 24 */
               "s_addc_u32 s1, s1, 0\n"
               "s_setpc_b64 s[0:1]\n"
               "s_mov_b32 s5, 0xbad\n"            /* skipped */
               "s_mov_b32 s6, 7\n"
               "s_endpgm\n");
    umb_status st = at_run_n(t, 100);
    EQ(t, st, UMB_OK);
    EQ(t, at_gs(t, 5), 0);
    EQ(t, at_gs(t, 6), 7);
    EQ(t, at_gs64(t, 0), UMB_RDNA3_STEP_CODE_BASE + 24);

    at_code(t, "s_getpc_b64 s[0:1]\n"
               "s_add_u32 s0, s0, 20\n"           /* base + 24: 'sub' below */
               "s_addc_u32 s1, s1, 0\n"
               "s_swappc_b64 s[2:3], s[0:1]\n"    /* at 12; s[2:3] = base + 16 */
               "s_endpgm\n"                       /* 16: the return lands here */
               "s_nop 0\n"                        /* 20 */
               "s_mov_b32 s7, 9\n"                /* 24: subroutine */
               "s_setpc_b64 s[2:3]\n");
    st = at_run_n(t, 100);
    EQ(t, st, UMB_OK);
    EQ(t, at_gs(t, 7), 9);
    EQ(t, at_gs64(t, 2), UMB_RDNA3_STEP_CODE_BASE + 16);
    EQ(t, umb_rdna3_step_get_state(t->s), UMB_RDNA3_STEP_ENDED);
}

static void salu_hwreg_mode(at *t)
{
    umb_rdna3_step_set_mode(t->s, 0x3f0u);   /* denorm all, DX10, IEEE, RNE */
    at_code(t, "s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 32)\n"
               "s_mov_b32 s1, 3\n"
               "s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s1\n"   /* f32 round toward zero */
               "s_getreg_b32 s2, hwreg(HW_REG_MODE, 0, 4)\n"
               "s_denorm_mode 0\n"
               "s_getreg_b32 s3, hwreg(HW_REG_MODE, 4, 4)\n"
               "s_round_mode 0\n"
               "s_getreg_b32 s4, hwreg(HW_REG_MODE, 0, 10)\n");
    RUNS(t);
    EQ(t, at_gs(t, 0), 0x3f0u);
    umb_rdna3_step_set_scratch(t->s, 0x123456789abcull, 64);
    at_code(t, "s_getreg_b32 s5, hwreg(HW_REG_FLAT_SCR_LO)\n"
               "s_getreg_b32 s6, hwreg(HW_REG_FLAT_SCR_HI)\n"
               "s_getreg_b32 s7, hwreg(HW_REG_SH_MEM_BASES)\n");
    RUNS(t);
    EQ(t, at_gs(t, 5), 0x56789abcu);
    EQ(t, at_gs(t, 6), 0x1234u);
    EQ(t, at_gs(t, 7), (uint32_t)(UMB_RDNA3_STEP_PRIVATE_BASE >> 48) | (uint32_t)((UMB_RDNA3_STEP_SHARED_BASE >> 48) << 16));
    EQ(t, at_gs(t, 2), 3);
    EQ(t, at_gs(t, 3), 0);
    EQ(t, at_gs(t, 4), 0x300u);
}

static void salu_barrier_endpgm(at *t)
{
    at_code(t, "s_mov_b32 s0, 1\n"
               "s_barrier\n"
               "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
               "s_delay_alu instid0(VALU_DEP_1)\n"
               "s_nop 3\n"
               "s_clause 0x1\n"
               "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\n"
               "s_mov_b32 s1, 2\n"
               "s_endpgm\n"
               "s_mov_b32 s2, 3\n");
    uint64_t n = 0;
    EQ(t, umb_rdna3_step_run(t->s, 100, &n), UMB_OK);
    EQ(t, n, 9);
    EQ(t, at_gs(t, 0), 1);
    EQ(t, at_gs(t, 1), 2);
    EQ(t, at_gs(t, 2), 0);
}

static void salu_constants(at *t)
{
    at_code(t, "s_mov_b32 s0, 0x12345678\n"
               "s_mov_b32 s1, -16\n"
               "s_mov_b32 s2, 64\n"
               "s_mov_b32 s3, 0.5\n"
               "s_mov_b32 s4, -4.0\n"
               "s_mov_b64 s[6:7], 1.0\n"
               "s_mov_b64 s[8:9], -1\n"
               "s_mov_b32 s10, 0.15915494\n"           /* 1/(2pi) inline constant */
               "s_mov_b64 s[12:13], 0.15915494309189532\n"
               "s_mov_b32 m0, 5\n"
               "s_add_u32 s14, m0, 1\n"
               "s_mov_b32 s15, src_scc\n");            /* SCC from the add: 0 */
    RUNS(t);
    EQ(t, at_gs(t, 0), 0x12345678u);
    EQ(t, at_gs(t, 1), 0xfffffff0u);
    EQ(t, at_gs(t, 2), 64);
    EQ(t, at_gs(t, 3), 0x3f000000u);
    EQ(t, at_gs(t, 4), 0xc0800000u);
    EQ(t, at_gs64(t, 6), 0x3ff0000000000000ull);
    EQ(t, at_gs64(t, 8), 0xffffffffffffffffull);
    EQ(t, at_gs(t, 10), 0x3e22f983u);
    EQ(t, at_gs64(t, 12), 0x3fc45f306dc9c882ull);
    EQ(t, at_gs(t, 14), 6);
    EQ(t, at_gs(t, 15), 0);
}

static void salu_movrel(at *t)
{
    at_s(t, 10, 111);
    at_s(t, 12, 222);
    at_code(t, "s_mov_b32 m0, 2\n"
               "s_movrels_b32 s0, s10\n"     /* s0 = s12 */
               "s_movreld_b32 s20, 77\n");   /* s22 = 77 */
    RUNS(t);
    EQ(t, at_gs(t, 0), 222);
    EQ(t, at_gs(t, 22), 77);
    at_code(t, "s_mov_b32 m0, 200\n"
               "s_movrels_b32 s0, s10\n");
    FAULTS(t, "out of range");
}

/* s_sendmsg_rtn: the realtime clock increases, queue ids read as 0. */
static void salu_sendmsg_rtn(at *t)
{
    at_code(t, "s_sendmsg_rtn_b64 s[0:1], sendmsg(MSG_RTN_GET_REALTIME)\n"
               "s_nop 0\n"
               "s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_REALTIME)\n"
               "s_mov_b32 s4, -1\n"
               "s_sendmsg_rtn_b32 s4, sendmsg(MSG_RTN_GET_DOORBELL)\n");
    RUNS(t);
    OK(t, at_gs64(t, 2) > at_gs64(t, 0));
    EQ(t, at_gs(t, 4), 0);
}

const at_case at_salu_cases[] = {
    C(salu_add_sub_carry), C(salu_logic_64), C(salu_shift_bfe), C(salu_bitops), C(salu_minmax_mul_pack),
    C(salu_compare), C(salu_saveexec), C(salu_branch_loop), C(salu_pc_ops), C(salu_hwreg_mode),
    C(salu_barrier_endpgm), C(salu_constants), C(salu_movrel), C(salu_sendmsg_rtn),
    {NULL, NULL},
};
