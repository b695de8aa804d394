/* The msgpack metadata parser on blobs built here with msgpack-c's packer: a valid note is read
 * field by field, and each malformed variant fails with the message this file expects. */
#include <stdio.h>
#include <string.h>

#include <msgpack.h>

#include "loader/amdgpu_co.h"

static int failures;

static void pstr(msgpack_packer *pk, const char *s)
{
    msgpack_pack_str(pk, strlen(s));
    msgpack_pack_str_body(pk, s, strlen(s));
}

/* Variants of one kernel's metadata. */
typedef struct variant {
    const char *name;
    unsigned version_major, wave, kernarg_size, nkernels;
    bool offset_as_string, hidden_first, drop_symbol, top_not_map;
    unsigned arg1_offset;
} variant;

static void pack_arg(msgpack_packer *pk, unsigned offset, unsigned size, const char *kind, const char *as, bool str_off)
{
    msgpack_pack_map(pk, as ? 4 : 3);
    pstr(pk, ".offset");
    if (str_off) pstr(pk, "zero");
    else msgpack_pack_uint32(pk, offset);
    pstr(pk, ".size");
    msgpack_pack_uint32(pk, size);
    pstr(pk, ".value_kind");
    pstr(pk, kind);
    if (as) {
        pstr(pk, ".address_space");
        pstr(pk, as);
    }
}

static void pack_kernel(msgpack_packer *pk, const variant *v)
{
    msgpack_pack_map(pk, v->drop_symbol ? 8 : 9);
    pstr(pk, ".name");
    pstr(pk, "k");
    if (!v->drop_symbol) {
        pstr(pk, ".symbol");
        pstr(pk, "k.kd");
    }
    pstr(pk, ".kernarg_segment_size");
    msgpack_pack_uint32(pk, v->kernarg_size);
    pstr(pk, ".group_segment_fixed_size");
    msgpack_pack_uint32(pk, 1024);
    pstr(pk, ".private_segment_fixed_size");
    msgpack_pack_uint32(pk, 16);
    pstr(pk, ".wavefront_size");
    msgpack_pack_uint32(pk, v->wave);
    pstr(pk, ".workgroup_processor_mode");
    msgpack_pack_uint32(pk, 1);   /* LLVM writes 0/1 */
    pstr(pk, ".uses_dynamic_stack");
    msgpack_pack_false(pk);
    pstr(pk, ".args");
    msgpack_pack_array(pk, 3);
    if (v->hidden_first) pack_arg(pk, 16, 4, "hidden_block_count_x", NULL, false);
    pack_arg(pk, 0, 8, "global_buffer", "global", v->offset_as_string);
    pack_arg(pk, v->arg1_offset, 4, "dynamic_shared_pointer", "local", false);
    if (!v->hidden_first) pack_arg(pk, 16, 4, "hidden_block_count_x", NULL, false);
}

static void pack(msgpack_sbuffer *sb, const variant *v)
{
    msgpack_packer pk;
    msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
    if (v->top_not_map) {
        msgpack_pack_array(&pk, 0);
        return;
    }
    msgpack_pack_map(&pk, 3);
    pstr(&pk, "amdhsa.version");
    msgpack_pack_array(&pk, 2);
    msgpack_pack_uint32(&pk, v->version_major);
    msgpack_pack_uint32(&pk, 2);
    pstr(&pk, "amdhsa.target");
    pstr(&pk, "amdgcn-amd-amdhsa--gfx1100");
    pstr(&pk, "amdhsa.kernels");
    msgpack_pack_array(&pk, v->nkernels);
    for (unsigned i = 0; i < v->nkernels; i++) pack_kernel(&pk, v);
}

static void expect_error(variant v, const char *needle)
{
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    pack(&sb, &v);
    umb_amdgpu_metadata md;
    char err[512] = "";
    umb_status st = umb_amdgpu_metadata_parse("t.co", sb.data, sb.size, &md, err, sizeof err);
    if (st != UMB_ERR_FORMAT || !strstr(err, needle) || strncmp(err, "t.co: metadata note: ", 21)) {
        fprintf(stderr, "FAIL %s: status %s, message '%s', want '%s'\n", v.name, umb_status_name(st), err, needle);
        failures++;
    } else {
        printf("ok   %s: %s\n", v.name, err);
    }
    if (st == UMB_OK) umb_amdgpu_metadata_free(&md);
    msgpack_sbuffer_destroy(&sb);
}

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) fprintf(stderr, "FAIL valid: %s\n", #cond), failures++;         \
    } while (0)

int main(void)
{
    const variant base = { "valid", 1, 32, 272, 1, false, false, false, false, 8 };
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    pack(&sb, &base);
    umb_amdgpu_metadata md;
    char err[512] = "";
    if (umb_amdgpu_metadata_parse("t.co", sb.data, sb.size, &md, err, sizeof err)) {
        fprintf(stderr, "FAIL valid: %s\n", err);
        return 1;
    }
    CHECK(md.version[0] == 1 && md.version[1] == 2);
    CHECK(!strcmp(md.target, "amdgcn-amd-amdhsa--gfx1100"));
    CHECK(md.nkernels == 1);
    const umb_rdna3_kernel_info *k = &md.kernels[0];
    CHECK(!strcmp(k->name, "k") && !strcmp(k->symbol, "k.kd"));
    CHECK(k->kernarg_segment_size == 272 && k->group_segment_fixed_size == 1024);
    CHECK(k->private_segment_fixed_size == 16 && k->wavefront_size == 32);
    CHECK(k->workgroup_processor_mode && !k->uses_dynamic_stack);
    CHECK(k->max_flat_workgroup_size == 1024);   /* absent: the hardware limit */
    CHECK(k->nargs == 3 && k->nexplicit == 2);
    CHECK(k->args[0].kind == UMB_RDNA3_ARG_GLOBAL_BUFFER && k->args[0].address_space == UMB_RDNA3_AS_GLOBAL);
    CHECK(k->args[1].kind == UMB_RDNA3_ARG_DYNAMIC_SHARED_POINTER && k->args[1].offset == 8);
    CHECK(k->args[1].address_space == UMB_RDNA3_AS_LOCAL);
    CHECK(k->args[2].kind == UMB_RDNA3_ARG_HIDDEN_BLOCK_COUNT_X && k->args[2].address_space == UMB_RDNA3_AS_NONE);
    umb_amdgpu_metadata_free(&md);
    /* a truncated blob */
    {
        umb_status st = umb_amdgpu_metadata_parse("t.co", sb.data, sb.size / 2, &md, err, sizeof err);
        if (st != UMB_ERR_FORMAT || !strstr(err, "truncated msgpack")) {
            fprintf(stderr, "FAIL truncated: %s\n", err);
            failures++;
        }
    }
    msgpack_sbuffer_destroy(&sb);

    variant v;
    v = base, v.name = "version", v.version_major = 2;
    expect_error(v, "amdhsa.version 2.2");
    v = base, v.name = "wave16", v.wave = 16;
    expect_error(v, "kernel 'k': .wavefront_size 16");
    v = base, v.name = "arg outside the segment", v.kernarg_size = 10;
    expect_error(v, ".args[1]: bytes [8, 12) are outside .kernarg_segment_size 10");
    v = base, v.name = "offset type", v.offset_as_string = true;
    expect_error(v, ".args[0]: .offset is not an unsigned 32-bit integer");
    v = base, v.name = "hidden first", v.hidden_first = true;
    expect_error(v, "explicit argument after a hidden one");
    v = base, v.name = "missing symbol", v.drop_symbol = true;
    expect_error(v, "kernel 'k': missing .symbol");
    v = base, v.name = "duplicate kernels", v.nkernels = 2;
    expect_error(v, "two kernels named 'k'");
    v = base, v.name = "not a map", v.top_not_map = true;
    expect_error(v, "the top level is not a map");
    if (failures) return fprintf(stderr, "FAIL: %d\n", failures), 1;
    printf("ok   metadata parser\n");
    return 0;
}
