/* RDNA3 opcode tables (internal to the decoder and disassembler).
 *
 * Every encoding family has one table indexed by its opcode, all expanded from op_tables.def, so
 * decode, disassembly text and dispatch cannot drift apart. A row says what the opcode is called,
 * its statistics class, which modifiers it has and how its operands print.
 */
#ifndef UMBRA_RDNA3_OP_TABLE_H
#define UMBRA_RDNA3_OP_TABLE_H

#include <stdint.h>

#include "isa/rdna3/rdna3.h"

/* Operand types: how an inline constant or literal prints (and how wide the value is). */
enum {
    RDNA3_TY_B32 = 1, RDNA3_TY_F16, RDNA3_TY_I16, RDNA3_TY_BF16, RDNA3_TY_V2F16, RDNA3_TY_V2B16,
    RDNA3_TY_I64, RDNA3_TY_F64,
};

/* Operand kind: bits 0-4 number of registers, bit 5 scalar register file, bits 8-11 type,
 * bit 12 true16 half-register operand (.l/.h). */
#define RDNA3_K(n, sc, ty) ((uint16_t)((n) | ((sc) << 5) | ((RDNA3_TY_##ty) << 8)))
#define RDNA3_KT16 (1u << 12)
static inline unsigned rdna3_k_regs(uint16_t k) { return k & 31u; }
static inline unsigned rdna3_k_scalar(uint16_t k) { return (k >> 5) & 1u; }
static inline unsigned rdna3_k_type(uint16_t k) { return (k >> 8) & 15u; }

/* Row flags. */
enum {
    RDNA3_F_E32 = 1u << 0,      /* prints _e32 */
    RDNA3_F_E64 = 1u << 1,      /* prints _e64 (VOP1/VOP2/VOPC promoted to VOP3) */
    RDNA3_F_DPP16 = 1u << 2,    /* has a DPP16 form */
    RDNA3_F_DPP8 = 1u << 3,     /* has a DPP8 form */
    RDNA3_F_LITK = 1u << 4,     /* always carries a literal constant K (fmamk/fmaak) */
    RDNA3_F_SD = 1u << 5,       /* VOP3 with a scalar destination (VOP3SD) */
    RDNA3_F_XEXEC2 = 1u << 6,   /* src2 is a lane mask SGPR (exec is not a valid one) */
    RDNA3_F_NEG = 1u << 7,      /* VOP3P: neg_lo */
    RDNA3_F_OPSEL = 1u << 8,    /* op_sel is meaningful and printed */
    RDNA3_F_OPSEL_IGN = 1u << 9,/* op_sel bits are accepted but meaningless */
    RDNA3_F_CLAMP = 1u << 10,
    RDNA3_F_OMOD = 1u << 11,
    RDNA3_F_NEGHI = 1u << 12,   /* VOP3P neg_hi */
    RDNA3_F_OPSELHI = 1u << 13, /* VOP3P op_sel_hi */
    RDNA3_F_MIX = 1u << 14,     /* v_fma_mix*: op_sel_hi defaults to 0 */
    RDNA3_F_2ADDR = 1u << 15,   /* DS: offset0/offset1 */
    RDNA3_F_SWIZZLE = 1u << 16, /* DS: ds_swizzle offset */
    RDNA3_F_NOOFF = 1u << 17,   /* DS: no offset field */
    RDNA3_F_GDS = 1u << 18,     /* DS: gds allowed */
    RDNA3_F_ATOMIC = 1u << 19,  /* memory atomic: glc = return the old value */
    RDNA3_F_SEXT0 = 1u << 20,   /* DPP: the neg bit of src0 means sign-extend (integer operand) */
    RDNA3_F_SEXT1 = 1u << 21,   /* same for src1 */
    RDNA3_F_GDSONLY = 1u << 22, /* DS: exists only with gds set (GWS, ordered count, GS registers) */
};
/* Per-source masks packed above bit 32 of the flags (bit i = source i; op_sel bit 3 = dst). */
#define RDNA3_FM(v, sh) ((uint64_t)(v) << (sh))
#define RDNA3_F_ABSM(m) RDNA3_FM(m, 32)      /* VOP3: sources whose |x| prints */
#define RDNA3_F_NEGM(m) RDNA3_FM(m, 35)      /* VOP3: sources whose -x prints; VOP3P: neg_lo accepted */
#define RDNA3_F_ABSIGN(m) RDNA3_FM(m, 38)    /* VOP3: abs bits accepted but meaningless */
#define RDNA3_F_NEGIGN(m) RDNA3_FM(m, 41)    /* VOP3: neg bits accepted but meaningless */
#define RDNA3_F_OPSELN(n) RDNA3_FM(n, 44)    /* VOP3: op_sel prints n entries */
#define RDNA3_F_LO128(m) RDNA3_FM(m, 47)     /* e32: 16-bit operands limited to v0..v127 (vdst, src0, vsrc1) */
#define RDNA3_F_NEGHIM(m) RDNA3_FM(m, 50)    /* VOP3P: neg_hi accepted */
#define RDNA3_F_OPSELM(m) RDNA3_FM(m, 53)    /* VOP3P: op_sel accepted */
#define RDNA3_F_OPSELHIM(m) RDNA3_FM(m, 56)  /* VOP3P: op_sel_hi may differ from all-ones */
#define RDNA3_F_SEXTM(m) RDNA3_FM(m, 59)     /* VOP3: the neg bit of these (integer) sources means sext */
#define RDNA3_F_OPSELPM(m) RDNA3_FM(m, 50)   /* VOP3 (4 bits, bit 3 = dst): op_sel bits that print */
#define RDNA3_F_OPSELOKM(m) RDNA3_FM(m, 54)  /* VOP3 (4 bits): op_sel bits accepted (printed or ignored) */
static inline unsigned rdna3_fm(uint64_t f, unsigned sh) { return (unsigned)(f >> sh) & 7u; }
static inline unsigned rdna3_f_absm(uint64_t f) { return rdna3_fm(f, 32); }
static inline unsigned rdna3_f_negm(uint64_t f) { return rdna3_fm(f, 35); }
static inline unsigned rdna3_f_absign(uint64_t f) { return rdna3_fm(f, 38); }
static inline unsigned rdna3_f_negign(uint64_t f) { return rdna3_fm(f, 41); }
static inline unsigned rdna3_f_opseln(uint64_t f) { return rdna3_fm(f, 44); }
static inline unsigned rdna3_f_lo128(uint64_t f) { return rdna3_fm(f, 47); }
static inline unsigned rdna3_f_neghim(uint64_t f) { return rdna3_fm(f, 50); }
static inline unsigned rdna3_f_opselm(uint64_t f) { return rdna3_fm(f, 53); }
static inline unsigned rdna3_f_opselhim(uint64_t f) { return rdna3_fm(f, 56); }
static inline unsigned rdna3_f_sextm(uint64_t f) { return rdna3_fm(f, 59); }
static inline unsigned rdna3_f_opselpm(uint64_t f) { return (unsigned)(f >> 50) & 15u; }
static inline unsigned rdna3_f_opselokm(uint64_t f) { return (unsigned)(f >> 54) & 15u; }

typedef struct rdna3_opinfo {
    const char *name;          /* mnemonic without _e32/_e64; NULL = no such opcode */
    const char *tmpl;          /* operand template (see op_tables.def) */
    uint64_t flags;
    uint16_t kind[4];          /* dst, operand 0, 1, 2 */
    uint8_t cls;               /* umb_insn_class */
} rdna3_opinfo;

/* Table families (VOPD has one table per half; FLAT has one per segment). */
typedef enum rdna3_table {
    RDNA3_T_SOP1, RDNA3_T_SOP2, RDNA3_T_SOPK, RDNA3_T_SOPC, RDNA3_T_SOPP, RDNA3_T_SMEM,
    RDNA3_T_VOP1, RDNA3_T_VOP2, RDNA3_T_VOPC, RDNA3_T_VOP3, RDNA3_T_VOP3P, RDNA3_T_VOPDX, RDNA3_T_VOPDY,
    RDNA3_T_DS, RDNA3_T_FLAT, RDNA3_T_GLOBAL, RDNA3_T_SCRATCH, RDNA3_T_MUBUF, RDNA3_T_MTBUF,
    RDNA3_T_MIMG,
    RDNA3_T_COUNT
} rdna3_table;

/* The row of opcode op in table t, or NULL if there is none. */
const rdna3_opinfo *rdna3_opinfo_get(rdna3_table t, unsigned op);
/* The row an instruction was decoded from (VOPD: the X half); NULL for an invalid inst. */
const rdna3_opinfo *rdna3_inst_info(const rdna3_inst *in);
/* "VOP3", "SMEM", ... for messages. */
const char *rdna3_format_name(unsigned fmt);
/* Number of opcodes in table t (for tests). */
unsigned rdna3_table_size(rdna3_table t);

#endif
