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
};
/* Per-source modifier masks and the number of op_sel entries, packed in the flags. */
#define RDNA3_F_ABSM(m) ((uint32_t)(m) << 22)      /* sources that take |x| */
#define RDNA3_F_NEGM(m) ((uint32_t)(m) << 25)      /* sources that take -x */
#define RDNA3_F_OPSELN(n) ((uint32_t)(n) << 28)    /* op_sel prints n entries */
static inline unsigned rdna3_f_absm(uint32_t f) { return f >> 22 & 7u; }
static inline unsigned rdna3_f_negm(uint32_t f) { return f >> 25 & 7u; }
static inline unsigned rdna3_f_opseln(uint32_t f) { return f >> 28 & 7u; }

typedef struct rdna3_opinfo {
    const char *name;          /* mnemonic without _e32/_e64; NULL = no such opcode */
    const char *tmpl;          /* operand template (see op_tables.def) */
    uint32_t flags;
    uint16_t kind[4];          /* dst, operand 0, 1, 2 */
    uint8_t cls;               /* umb_insn_class */
} rdna3_opinfo;

/* Table families (VOPD has one table per half; FLAT has one per segment). */
typedef enum rdna3_table {
    RDNA3_T_SOP1, RDNA3_T_SOP2, RDNA3_T_SOPK, RDNA3_T_SOPC, RDNA3_T_SOPP, RDNA3_T_SMEM,
    RDNA3_T_VOP1, RDNA3_T_VOP2, RDNA3_T_VOPC, RDNA3_T_VOP3, RDNA3_T_VOP3P, RDNA3_T_VOPDX, RDNA3_T_VOPDY,
    RDNA3_T_DS, RDNA3_T_FLAT, RDNA3_T_GLOBAL, RDNA3_T_SCRATCH, RDNA3_T_MUBUF, RDNA3_T_MTBUF,
    RDNA3_T_COUNT
} rdna3_table;

/* The row of opcode op in table t, or NULL if there is none. */
const rdna3_opinfo *rdna3_opinfo_get(rdna3_table t, unsigned op);
/* The row an instruction was decoded from (VOPD: the X half); NULL for an invalid inst. */
const rdna3_opinfo *rdna3_inst_info(const rdna3_inst *in);
/* Number of opcodes in table t (for tests). */
unsigned rdna3_table_size(rdna3_table t);

#endif
