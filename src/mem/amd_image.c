/* Image (T#) and sampler (S#) descriptors, and umbra's linear image layout (see amd_image.h and
 * docs/MEMORY_MODEL.md §Images). */
#include "mem/amd_image.h"

#include <math.h>

/* Bits [lo, lo+n) of a 32-bit word. */
static inline uint32_t bits(uint32_t w, unsigned lo, unsigned n) { return (w >> lo) & ((1u << n) - 1u); }
static inline uint32_t put(uint32_t v, unsigned lo, unsigned n) { return (v & ((1u << n) - 1u)) << lo; }

void amd_tsharp_decode(const uint32_t *src, unsigned dwords, amd_tsharp *t)
{
    uint32_t w[8] = { 0 };
    for (unsigned i = 0; i < 8 && i < dwords; i++) w[i] = src[i];

    t->base = ((uint64_t)w[0] << 8) | ((uint64_t)bits(w[1], 0, 8) << 40);
    t->llc_noalloc = (uint8_t)bits(w[1], 13, 2);
    t->big_page = (uint8_t)bits(w[1], 15, 1);
    t->max_mip = (uint8_t)bits(w[1], 16, 4);
    t->format = (uint8_t)bits(w[1], 20, 8);
    t->width = (bits(w[1], 30, 2) | bits(w[2], 0, 12) << 2) + 1u;
    t->height = bits(w[2], 14, 14) + 1u;

    for (unsigned c = 0; c < 4; c++) t->dst_sel[c] = (uint8_t)bits(w[3], 3 * c, 3);
    t->base_level = (uint8_t)bits(w[3], 12, 4);
    t->last_level = (uint8_t)bits(w[3], 16, 4);
    t->sw_mode = (uint8_t)bits(w[3], 20, 5);
    t->bc_swizzle = (uint8_t)bits(w[3], 25, 3);
    t->type = (uint8_t)bits(w[3], 28, 4);

    t->depth = (uint16_t)bits(w[4], 0, 13);
    t->pitch_msb = (uint8_t)bits(w[4], 13, 1);
    t->base_array = (uint16_t)bits(w[4], 16, 13);

    t->array_pitch = (uint8_t)bits(w[5], 0, 4);
    t->depth_scale = (uint8_t)bits(w[5], 8, 4);
    t->height_scale = (uint8_t)bits(w[5], 12, 4);
    t->width_scale = (uint8_t)bits(w[5], 16, 4);
    t->perf_mod = (uint8_t)bits(w[5], 20, 3);
    t->corner_samples = (uint8_t)bits(w[5], 23, 1);
    t->linked_resource = (uint8_t)bits(w[5], 24, 1);
    t->lod_hw_cnt_en = (uint8_t)bits(w[5], 25, 1);
    t->prt_default = (uint8_t)bits(w[5], 26, 1);
    t->min_lod = (uint16_t)(bits(w[5], 27, 5) | bits(w[6], 0, 7) << 5);

    t->iterate_256 = (uint8_t)bits(w[6], 10, 1);
    t->sample_pattern_offset = (uint8_t)bits(w[6], 11, 4);
    t->max_uncompressed_block_size = (uint8_t)bits(w[6], 15, 2);
    t->max_compressed_block_size = (uint8_t)bits(w[6], 17, 2);
    t->meta_pipe_aligned = (uint8_t)bits(w[6], 19, 1);
    t->write_compress_enable = (uint8_t)bits(w[6], 20, 1);
    t->compression_enable = (uint8_t)bits(w[6], 21, 1);
    t->alpha_is_on_msb = (uint8_t)bits(w[6], 22, 1);
    t->color_transform = (uint8_t)bits(w[6], 23, 1);
    t->meta_data_address = ((uint64_t)bits(w[6], 24, 8) << 8) | ((uint64_t)w[7] << 16);
}

void amd_tsharp_encode(const amd_tsharp *t, uint32_t w[8])
{
    uint32_t wm1 = t->width ? t->width - 1u : 0u, hm1 = t->height ? t->height - 1u : 0u;

    w[0] = (uint32_t)(t->base >> 8);
    w[1] = put((uint32_t)(t->base >> 40), 0, 8) | put(t->llc_noalloc, 13, 2) | put(t->big_page, 15, 1) |
           put(t->max_mip, 16, 4) | put(t->format, 20, 8) | put(wm1, 30, 2);
    w[2] = put(wm1 >> 2, 0, 12) | put(hm1, 14, 14);
    w[3] = 0;
    for (unsigned c = 0; c < 4; c++) w[3] |= put(t->dst_sel[c], 3 * c, 3);
    w[3] |= put(t->base_level, 12, 4) | put(t->last_level, 16, 4) | put(t->sw_mode, 20, 5) |
            put(t->bc_swizzle, 25, 3) | put(t->type, 28, 4);
    w[4] = put(t->depth, 0, 13) | put(t->pitch_msb, 13, 1) | put(t->base_array, 16, 13);
    w[5] = put(t->array_pitch, 0, 4) | put(t->depth_scale, 8, 4) | put(t->height_scale, 12, 4) |
           put(t->width_scale, 16, 4) | put(t->perf_mod, 20, 3) | put(t->corner_samples, 23, 1) |
           put(t->linked_resource, 24, 1) | put(t->lod_hw_cnt_en, 25, 1) | put(t->prt_default, 26, 1) |
           put(t->min_lod, 27, 5);
    w[6] = put((uint32_t)t->min_lod >> 5, 0, 7) | put(t->iterate_256, 10, 1) |
           put(t->sample_pattern_offset, 11, 4) | put(t->max_uncompressed_block_size, 15, 2) |
           put(t->max_compressed_block_size, 17, 2) | put(t->meta_pipe_aligned, 19, 1) |
           put(t->write_compress_enable, 20, 1) | put(t->compression_enable, 21, 1) |
           put(t->alpha_is_on_msb, 22, 1) | put(t->color_transform, 23, 1) |
           put((uint32_t)(t->meta_data_address >> 8), 24, 8);
    w[7] = (uint32_t)(t->meta_data_address >> 16);
}

uint32_t amd_tsharp_pitch(const amd_tsharp *t)
{
    return ((uint32_t)t->pitch_msb << 13 | t->depth) + 1u;
}

void amd_tsharp_set_pitch(amd_tsharp *t, uint32_t pitch)
{
    uint32_t pm1 = pitch ? pitch - 1u : 0u;
    t->depth = (uint16_t)(pm1 & 0x1fffu);
    t->pitch_msb = (uint8_t)((pm1 >> 13) & 1u);
}

uint32_t amd_img_linear_pitch(uint32_t w, uint32_t bpe)
{
    if (bpe == 0) return w;
    uint32_t align = (256u % bpe == 0) ? 256u / bpe : 256u;
    return (w + align - 1u) / align * align;
}

static uint32_t minify(uint32_t v, unsigned l) { return (v >> l) ? (v >> l) : 1u; }

void amd_img_level_layout(const amd_tsharp *t, uint32_t bpe, uint32_t slices, unsigned level,
                          amd_img_level *out)
{
    bool is3d = t->type == AMD_IMG_3D;
    uint64_t offset = 0;
    for (unsigned l = 0;; l++) {
        uint32_t w = minify(t->width, l), h = minify(t->height, l);
        uint32_t d = is3d ? minify(amd_tsharp_depth3d(t), l) : 1u;
        uint32_t pitch = (l == 0 && amd_img_type_has_pitch(t->type)) ? amd_tsharp_pitch(t)
                                                                      : amd_img_linear_pitch(w, bpe);
        uint64_t slice_bytes = (uint64_t)pitch * h * bpe;
        if (l == level) {
            *out = (amd_img_level){ w, h, d, pitch, slice_bytes, offset };
            return;
        }
        offset += slice_bytes * (is3d ? d : (slices ? slices : 1u));
    }
}

void amd_ssharp_decode(const uint32_t w[4], amd_ssharp *s)
{
    s->clamp_x = (uint8_t)bits(w[0], 0, 3);
    s->clamp_y = (uint8_t)bits(w[0], 3, 3);
    s->clamp_z = (uint8_t)bits(w[0], 6, 3);
    s->max_aniso_ratio = (uint8_t)bits(w[0], 9, 3);
    s->depth_compare_func = (uint8_t)bits(w[0], 12, 3);
    s->force_unnormalized = (uint8_t)bits(w[0], 15, 1);
    s->aniso_threshold = (uint8_t)bits(w[0], 16, 3);
    s->mc_coord_trunc = (uint8_t)bits(w[0], 19, 1);
    s->force_degamma = (uint8_t)bits(w[0], 20, 1);
    s->aniso_bias = (uint8_t)bits(w[0], 21, 6);
    s->trunc_coord = (uint8_t)bits(w[0], 27, 1);
    s->disable_cube_wrap = (uint8_t)bits(w[0], 28, 1);
    s->filter_mode = (uint8_t)bits(w[0], 29, 2);
    s->skip_degamma = (uint8_t)bits(w[0], 31, 1);

    s->min_lod = (uint16_t)bits(w[1], 0, 12);
    s->max_lod = (uint16_t)bits(w[1], 12, 12);
    s->perf_mip = (uint8_t)bits(w[1], 24, 4);
    s->perf_z = (uint8_t)bits(w[1], 28, 4);

    uint32_t bias = bits(w[2], 0, 14);
    s->lod_bias = (int16_t)(bias & 0x2000u ? (int32_t)bias - 0x4000 : (int32_t)bias);
    s->lod_bias_sec = (uint8_t)bits(w[2], 14, 6);
    s->xy_mag_filter = (uint8_t)bits(w[2], 20, 2);
    s->xy_min_filter = (uint8_t)bits(w[2], 22, 2);
    s->z_filter = (uint8_t)bits(w[2], 24, 2);
    s->mip_filter = (uint8_t)bits(w[2], 26, 2);
    s->aniso_override = (uint8_t)bits(w[2], 29, 1);
    s->blend_prt = (uint8_t)bits(w[2], 30, 1);
    s->deriv_adjust_en = (uint8_t)bits(w[2], 31, 1);

    s->grad_adj = (uint16_t)bits(w[3], 0, 16);
    s->border_color_ptr = (uint16_t)bits(w[3], 18, 12);
    s->border_color_type = (uint8_t)bits(w[3], 30, 2);
}

void amd_ssharp_encode(const amd_ssharp *s, uint32_t w[4])
{
    w[0] = put(s->clamp_x, 0, 3) | put(s->clamp_y, 3, 3) | put(s->clamp_z, 6, 3) |
           put(s->max_aniso_ratio, 9, 3) | put(s->depth_compare_func, 12, 3) |
           put(s->force_unnormalized, 15, 1) | put(s->aniso_threshold, 16, 3) |
           put(s->mc_coord_trunc, 19, 1) | put(s->force_degamma, 20, 1) | put(s->aniso_bias, 21, 6) |
           put(s->trunc_coord, 27, 1) | put(s->disable_cube_wrap, 28, 1) | put(s->filter_mode, 29, 2) |
           put(s->skip_degamma, 31, 1);
    w[1] = put(s->min_lod, 0, 12) | put(s->max_lod, 12, 12) | put(s->perf_mip, 24, 4) | put(s->perf_z, 28, 4);
    w[2] = put((uint32_t)(int32_t)s->lod_bias, 0, 14) | put(s->lod_bias_sec, 14, 6) |
           put(s->xy_mag_filter, 20, 2) | put(s->xy_min_filter, 22, 2) | put(s->z_filter, 24, 2) |
           put(s->mip_filter, 26, 2) | put(s->aniso_override, 29, 1) | put(s->blend_prt, 30, 1) |
           put(s->deriv_adjust_en, 31, 1);
    w[3] = put(s->grad_adj, 0, 16) | put(s->border_color_ptr, 18, 12) | put(s->border_color_type, 30, 2);
}

uint16_t amd_lod_to_u4_8(float lod)
{
    if (!(lod > 0.0f)) return 0;
    if (lod >= 4095.0f / 256.0f) return 4095;
    return (uint16_t)lrintf(lod * 256.0f);
}

int16_t amd_lod_to_s5_8(float bias)
{
    if (bias != bias) return 0;
    if (bias <= -32.0f) return -8192;
    if (bias >= 8191.0f / 256.0f) return 8191;
    return (int16_t)lrintf(bias * 256.0f);
}
