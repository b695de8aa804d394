/* gfx11 buffer resource descriptors (V#) and buffer addressing: linear, structured, raw and
 * swizzled forms, add_tid, and the OOB_SELECT range checks (spec/rdna3.md §1, §4). Pure. */
#ifndef UMBRA_AMD_BUFFER_H
#define UMBRA_AMD_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

typedef struct amd_vsharp {
    uint64_t base;          /* 47:0 */
    uint32_t stride;        /* 61:48, bytes */
    uint32_t num_records;   /* 95:64 */
    uint8_t swizzle_enable; /* 63:62: 0 off, 1 element size 4, 2 reserved (off), 3 element size 16 */
    uint8_t dst_sel[4];     /* 0 -> 0, 1 -> 1, 4..7 -> X..W; 2, 3 reserved (read as 0) */
    uint8_t format;         /* 113:108, unified format */
    uint8_t index_stride;   /* 118:117: 8, 16, 32, 64 indices */
    uint8_t add_tid;        /* 119 */
    uint8_t llc_noalloc;    /* 123:122 (cache hint only) */
    uint8_t oob_select;     /* 125:124 */
    uint8_t type;           /* 127:126, 0 = buffer */
} amd_vsharp;

enum { AMD_SEL_0 = 0, AMD_SEL_1 = 1, AMD_SEL_X = 4, AMD_SEL_Y, AMD_SEL_Z, AMD_SEL_W };

void amd_vsharp_decode(const uint32_t w[4], amd_vsharp *v);
void amd_vsharp_encode(const amd_vsharp *v, uint32_t w[4]);

/* const_element_size: 4 or 16 when swizzled, 0 when not. */
static inline uint32_t amd_vsharp_element_size(const amd_vsharp *v)
{
    return v->swizzle_enable == 1 ? 4u : v->swizzle_enable == 3 ? 16u : 0u;
}
static inline uint32_t amd_vsharp_index_stride(const amd_vsharp *v) { return 8u << (v->index_stride & 3u); }

/* "Unbound": all loads return 0 and stores are ignored (FORMAT = INVALID and, for MUBUF,
 * add_tid_enable = 0). */
static inline bool amd_vsharp_unbound(const amd_vsharp *v, bool mubuf)
{
    return v->format == 0 && !(mubuf && v->add_tid);
}

/* Index and offset of a lane ([ISA] Table 40): index = (idxen ? vidx : 0) + (add_tid ? tid : 0),
 * offset = (offen ? voff : 0) + inst_offset. */
static inline uint32_t amd_buf_index(const amd_vsharp *v, bool idxen, uint32_t vidx, uint32_t tid)
{
    return (idxen ? vidx : 0u) + (v->add_tid ? (tid & 63u) : 0u);
}

/* Address of byte `offset` of record `index`: linear base + sgpr_offset + offset + stride*index,
 * or the swizzled form (sgpr_offset is part of the base, not of the offset). */
uint64_t amd_buf_address(const amd_vsharp *v, uint32_t sgpr_offset, uint32_t index, uint32_t offset);

/* OOB_SELECT range check of `payload` bytes at (index, offset). True = in range. */
bool amd_buf_in_range(const amd_vsharp *v, uint32_t sgpr_offset, uint32_t index, uint32_t offset,
                      uint32_t payload);

#endif
