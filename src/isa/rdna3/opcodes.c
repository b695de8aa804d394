/* RDNA3 opcode tables: op_tables.def expanded once per encoding family. */
#include "isa/rdna3/op_table.h"

#include <stddef.h>

#define F_E32 RDNA3_F_E32
#define F_E64 RDNA3_F_E64
#define F_DPP16 RDNA3_F_DPP16
#define F_DPP8 RDNA3_F_DPP8
#define F_LITK RDNA3_F_LITK
#define F_SD RDNA3_F_SD
#define F_ABSM RDNA3_F_ABSM
#define F_NEGM RDNA3_F_NEGM
#define F_OPSELN RDNA3_F_OPSELN
#define F_LO128 RDNA3_F_LO128
#define F_ABSIGN RDNA3_F_ABSIGN
#define F_SEXTM RDNA3_F_SEXTM
#define F_OPSELPM RDNA3_F_OPSELPM
#define F_OPSELOKM RDNA3_F_OPSELOKM
#define F_NEGIGN RDNA3_F_NEGIGN
#define F_NEGHIM RDNA3_F_NEGHIM
#define F_OPSELM RDNA3_F_OPSELM
#define F_OPSELHIM RDNA3_F_OPSELHIM
#define F_XEXEC2 RDNA3_F_XEXEC2
#define F_NEG RDNA3_F_NEG
#define F_OPSEL RDNA3_F_OPSEL
#define F_OPSEL_IGN RDNA3_F_OPSEL_IGN
#define F_CLAMP RDNA3_F_CLAMP
#define F_OMOD RDNA3_F_OMOD
#define F_NEGHI RDNA3_F_NEGHI
#define F_OPSELHI RDNA3_F_OPSELHI
#define F_MIX RDNA3_F_MIX
#define F_2ADDR RDNA3_F_2ADDR
#define F_SWIZZLE RDNA3_F_SWIZZLE
#define F_NOOFF RDNA3_F_NOOFF
#define F_GDS RDNA3_F_GDS
#define F_GDSONLY RDNA3_F_GDSONLY
#define F_ATOMIC RDNA3_F_ATOMIC
#define F_SEXT0 RDNA3_F_SEXT0
#define F_SEXT1 RDNA3_F_SEXT1
#define K(n, sc, ty) RDNA3_K(n, sc, ty)
#define KT16 RDNA3_KT16
#define K0 0

#define ROW(op, nm, cl, fl, tp, d, a, b, c) \
    [op] = { .name = nm, .tmpl = tp, .flags = (fl), .kind = { d, a, b, c }, .cls = UMB_CLASS_##cl },
#define SKIP(op, nm, cl, fl, tp, d, a, b, c)

/* R3OP(FAMILY, ...) -> R3_<FAMILY>(...); each table turns on only its own family. */
#define R3OP(fam, ...) R3_##fam(__VA_ARGS__)
#define R3_SOP1 SKIP
#define R3_SOP2 SKIP
#define R3_SOPK SKIP
#define R3_SOPC SKIP
#define R3_SOPP SKIP
#define R3_SMEM SKIP
#define R3_VOP1 SKIP
#define R3_VOP2 SKIP
#define R3_VOPC SKIP
#define R3_VOP3 SKIP
#define R3_VOP3P SKIP
#define R3_VOPDX SKIP
#define R3_VOPDY SKIP
#define R3_DS SKIP
#define R3_FLAT SKIP
#define R3_GLOBAL SKIP
#define R3_SCRATCH SKIP
#define R3_MUBUF SKIP
#define R3_MTBUF SKIP
#define R3_MIMG SKIP


/* One block per family: switch the family's macro to ROW, include the rows, switch back. */
#undef R3_SOP1
#define R3_SOP1 ROW
static const rdna3_opinfo t_sop1[256] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_SOP1
#define R3_SOP1 SKIP
#undef R3_SOP2
#define R3_SOP2 ROW
static const rdna3_opinfo t_sop2[128] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_SOP2
#define R3_SOP2 SKIP
#undef R3_SOPK
#define R3_SOPK ROW
static const rdna3_opinfo t_sopk[32] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_SOPK
#define R3_SOPK SKIP
#undef R3_SOPC
#define R3_SOPC ROW
static const rdna3_opinfo t_sopc[128] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_SOPC
#define R3_SOPC SKIP
#undef R3_SOPP
#define R3_SOPP ROW
static const rdna3_opinfo t_sopp[128] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_SOPP
#define R3_SOPP SKIP
#undef R3_SMEM
#define R3_SMEM ROW
static const rdna3_opinfo t_smem[256] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_SMEM
#define R3_SMEM SKIP
#undef R3_VOP1
#define R3_VOP1 ROW
static const rdna3_opinfo t_vop1[256] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_VOP1
#define R3_VOP1 SKIP
#undef R3_VOP2
#define R3_VOP2 ROW
static const rdna3_opinfo t_vop2[64] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_VOP2
#define R3_VOP2 SKIP
#undef R3_VOPC
#define R3_VOPC ROW
static const rdna3_opinfo t_vopc[256] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_VOPC
#define R3_VOPC SKIP
#undef R3_VOP3
#define R3_VOP3 ROW
static const rdna3_opinfo t_vop3[1024] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_VOP3
#define R3_VOP3 SKIP
#undef R3_VOP3P
#define R3_VOP3P ROW
static const rdna3_opinfo t_vop3p[128] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_VOP3P
#define R3_VOP3P SKIP
#undef R3_VOPDX
#define R3_VOPDX ROW
static const rdna3_opinfo t_vopdx[16] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_VOPDX
#define R3_VOPDX SKIP
#undef R3_VOPDY
#define R3_VOPDY ROW
static const rdna3_opinfo t_vopdy[32] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_VOPDY
#define R3_VOPDY SKIP
#undef R3_DS
#define R3_DS ROW
static const rdna3_opinfo t_ds[256] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_DS
#define R3_DS SKIP
#undef R3_FLAT
#define R3_FLAT ROW
static const rdna3_opinfo t_flat[128] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_FLAT
#define R3_FLAT SKIP
#undef R3_GLOBAL
#define R3_GLOBAL ROW
static const rdna3_opinfo t_global[128] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_GLOBAL
#define R3_GLOBAL SKIP
#undef R3_SCRATCH
#define R3_SCRATCH ROW
static const rdna3_opinfo t_scratch[128] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_SCRATCH
#define R3_SCRATCH SKIP
#undef R3_MUBUF
#define R3_MUBUF ROW
static const rdna3_opinfo t_mubuf[256] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_MUBUF
#define R3_MUBUF SKIP
#undef R3_MTBUF
#define R3_MTBUF ROW
static const rdna3_opinfo t_mtbuf[16] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_MTBUF
#define R3_MTBUF SKIP
#undef R3_MIMG
#define R3_MIMG ROW
static const rdna3_opinfo t_mimg[256] = {
#include "isa/rdna3/op_tables.def"
};
#undef R3_MIMG
#define R3_MIMG SKIP

static const struct { const rdna3_opinfo *rows; unsigned n; } tables[RDNA3_T_COUNT] = {
    [RDNA3_T_SOP1] = { t_sop1, 256 }, [RDNA3_T_SOP2] = { t_sop2, 128 }, [RDNA3_T_SOPK] = { t_sopk, 32 },
    [RDNA3_T_SOPC] = { t_sopc, 128 }, [RDNA3_T_SOPP] = { t_sopp, 128 }, [RDNA3_T_SMEM] = { t_smem, 256 },
    [RDNA3_T_VOP1] = { t_vop1, 256 }, [RDNA3_T_VOP2] = { t_vop2, 64 }, [RDNA3_T_VOPC] = { t_vopc, 256 },
    [RDNA3_T_VOP3] = { t_vop3, 1024 }, [RDNA3_T_VOP3P] = { t_vop3p, 128 },
    [RDNA3_T_VOPDX] = { t_vopdx, 16 }, [RDNA3_T_VOPDY] = { t_vopdy, 32 },
    [RDNA3_T_DS] = { t_ds, 256 }, [RDNA3_T_FLAT] = { t_flat, 128 }, [RDNA3_T_GLOBAL] = { t_global, 128 },
    [RDNA3_T_SCRATCH] = { t_scratch, 128 }, [RDNA3_T_MUBUF] = { t_mubuf, 256 }, [RDNA3_T_MTBUF] = { t_mtbuf, 16 },
    [RDNA3_T_MIMG] = { t_mimg, 256 },
};

const rdna3_opinfo *rdna3_opinfo_get(rdna3_table t, unsigned op)
{
    if ((unsigned)t >= RDNA3_T_COUNT || op >= tables[t].n || !tables[t].rows[op].name) return NULL;
    return &tables[t].rows[op];
}

unsigned rdna3_table_size(rdna3_table t)
{
    return (unsigned)t < RDNA3_T_COUNT ? tables[t].n : 0;
}
