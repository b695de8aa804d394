/* Buffer descriptors and addressing (see amd_buffer.h and docs/MEMORY_MODEL.md §Buffers). */
#include "mem/amd_buffer.h"

void amd_vsharp_decode(const uint32_t w[4], amd_vsharp *v)
{
    v->base = (uint64_t)w[0] | ((uint64_t)(w[1] & 0xffffu) << 32);
    v->stride = (w[1] >> 16) & 0x3fffu;
    v->swizzle_enable = (uint8_t)(w[1] >> 30);
    v->num_records = w[2];
    for (unsigned c = 0; c < 4; c++) v->dst_sel[c] = (uint8_t)((w[3] >> (3 * c)) & 7u);
    v->format = (uint8_t)((w[3] >> 12) & 63u);
    v->index_stride = (uint8_t)((w[3] >> 21) & 3u);
    v->add_tid = (uint8_t)((w[3] >> 23) & 1u);
    v->llc_noalloc = (uint8_t)((w[3] >> 26) & 3u);
    v->oob_select = (uint8_t)((w[3] >> 28) & 3u);
    v->type = (uint8_t)(w[3] >> 30);
}

void amd_vsharp_encode(const amd_vsharp *v, uint32_t w[4])
{
    w[0] = (uint32_t)v->base;
    w[1] = (uint32_t)((v->base >> 32) & 0xffffu) | ((v->stride & 0x3fffu) << 16) | ((uint32_t)(v->swizzle_enable & 3u) << 30);
    w[2] = v->num_records;
    w[3] = 0;
    for (unsigned c = 0; c < 4; c++) w[3] |= (uint32_t)(v->dst_sel[c] & 7u) << (3 * c);
    w[3] |= (uint32_t)(v->format & 63u) << 12 | (uint32_t)(v->index_stride & 3u) << 21 |
            (uint32_t)(v->add_tid & 1u) << 23 | (uint32_t)(v->llc_noalloc & 3u) << 26 |
            (uint32_t)(v->oob_select & 3u) << 28 | (uint32_t)(v->type & 3u) << 30;
}

uint64_t amd_buf_address(const amd_vsharp *v, uint32_t sgpr_offset, uint32_t index, uint32_t offset)
{
    uint32_t es = amd_vsharp_element_size(v);
    if (!es) return v->base + sgpr_offset + offset + (uint64_t)v->stride * index;
    uint64_t is = amd_vsharp_index_stride(v);
    uint64_t index_msb = index / is, index_lsb = index % is;
    uint64_t offset_msb = offset / es, offset_lsb = offset % es;
    uint64_t buffer_offset = (index_msb * v->stride + offset_msb * es) * is + index_lsb * es + offset_lsb;
    return v->base + sgpr_offset + buffer_offset;
}

bool amd_buf_in_range(const amd_vsharp *v, uint32_t sgpr_offset, uint32_t index, uint32_t offset,
                      uint32_t payload)
{
    uint64_t end = (uint64_t)offset + payload;
    switch (v->oob_select & 3u) {
    case 0: return index < v->num_records && end <= v->stride;
    case 1: return index < v->num_records;
    case 2: return v->num_records != 0;
    default:
        if (amd_vsharp_element_size(v) && v->stride)
            return index < v->num_records && end <= v->stride;
        /* Raw: byte-exact, payload included, NUM_RECORDS reduced by sgpr_offset. The offset is
         * the whole buffer offset, so an index (idxen or add_tid) is counted in it. */
        if (sgpr_offset > v->num_records) return false;
        return end + (uint64_t)v->stride * index <= (uint64_t)v->num_records - sgpr_offset;
    }
}
