/* MIMG (image) instructions: what an opcode's table row says about its operands, shared by the
 * decoder, the disassembler and the image executor (exec_mem_img.c).
 *
 * A MIMG row's template (op_tables.def, from op_tables.py mimg_template) lists the address
 * components in register order: O offset, B bias, Z depth-compare value, G gradients (H: 16-bit
 * gradients, the _g16 opcodes), X the coordinates of DIM, L lod / clamp / mip level; and the
 * properties S (takes a sampler), W (vdata is stored), P (gather4), Q (get_resinfo), M (msaa_load),
 * Y (BVH ray).
 * The address size follows LLVM's AMDGPU::getAddrSizeMIMGOp (gfx11 has A16 and G16). */
#ifndef UMBRA_RDNA3_MIMG_H
#define UMBRA_RDNA3_MIMG_H

#include <stdbool.h>
#include <string.h>

#include "isa/rdna3/op_table.h"

/* DIM field values (SQ_RSRC_IMG_*, as llvm-objdump prints them). */
enum {
    RDNA3_DIM_1D = 0, RDNA3_DIM_2D, RDNA3_DIM_3D, RDNA3_DIM_CUBE, RDNA3_DIM_1D_ARRAY,
    RDNA3_DIM_2D_ARRAY, RDNA3_DIM_2D_MSAA, RDNA3_DIM_2D_MSAA_ARRAY,
};

static inline bool rdna3_mimg_has(const rdna3_opinfo *oi, char c)
{
    for (const char *p = oi->tmpl; *p; p++)
        if (*p == c && (p == oi->tmpl || p[-1] == ',')) return true;
    return false;
}

/* Coordinates a DIM addresses (x, y, z / slice / face, fragment) and gradients it takes. */
static inline unsigned rdna3_dim_coords(unsigned dim)
{
    static const unsigned char n[8] = { 1, 2, 3, 3, 2, 3, 3, 4 };
    return n[dim & 7];
}
static inline unsigned rdna3_dim_gradients(unsigned dim)
{
    static const unsigned char n[8] = { 2, 4, 6, 4, 2, 4, 4, 4 };
    return n[dim & 7];
}

/* Address dwords of an image instruction (not BVH). */
static inline unsigned rdna3_mimg_addr_dwords(const rdna3_opinfo *oi, unsigned dim, bool a16)
{
    unsigned words = 0, comps = 0;
    for (const char *p = oi->tmpl; *p; p++) {
        switch (*p) {
        case 'O': case 'B': case 'Z': words++; break;
        case 'X': comps += rdna3_dim_coords(dim); break;
        case 'L': comps++; break;
        case 'G': words += rdna3_dim_gradients(dim); break;   /* gfx11 has G16: A16 leaves them 32-bit */
        case 'H': words += (rdna3_dim_gradients(dim) / 2 + 1) / 2 * 2; break;
        default: break;
        }
    }
    return words + (a16 ? (comps + 1) / 2 : comps);
}

/* Data components an instruction moves: popcount(dmask) (0 counts as 1); gather4 and msaa_load
 * four (one component of four texels / samples). */
static inline unsigned rdna3_mimg_components(const rdna3_opinfo *oi, unsigned dmask)
{
    if (rdna3_mimg_has(oi, 'P') || rdna3_mimg_has(oi, 'M')) return 4;
    unsigned n = (unsigned)__builtin_popcount(dmask & 15u);
    return n ? n : 1;
}

/* VDATA registers as LLVM counts them: components (D16: two per register), plus one for TFE. */
static inline unsigned rdna3_mimg_vdata_regs(const rdna3_opinfo *oi, unsigned dmask, bool d16, bool tfe)
{
    unsigned n = rdna3_mimg_components(oi, dmask);
    if (d16) n = (n + 1) / 2;
    return n + (tfe ? 1u : 0u);
}

#endif
