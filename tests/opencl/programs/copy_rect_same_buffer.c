/* clEnqueueCopyBufferRect within one buffer (OpenCL 1.2 §5.2.3, Appendix E): regions whose byte
 * spans interleave but share no byte copy (side by side in the same rows; in alternate rows of a
 * slice); regions that share bytes give CL_MEM_COPY_OVERLAP. The buffer holds byte i = i & 0xff
 * before each copy; expected bytes are computed from the copy's definition. */
#define CL_TARGET_OPENCL_VERSION 120
#include <string.h>

#include "check.h"

enum { ROW = 16, SLICE = 64, SIZE = 256 };

static void fill(cl_command_queue q, cl_mem m, unsigned char *host)
{
    for (int i = 0; i < SIZE; i++) host[i] = (unsigned char)i;
    CHECK_CL(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, SIZE, host, 0, NULL, NULL));
}

/* Copy and compare with the reference; `want_err` is the expected result of the enqueue. */
static void check_copy(cl_command_queue q, cl_mem m, const size_t so[3], const size_t dor[3], const size_t region[3],
                       cl_int want_err, const char *what)
{
    unsigned char ref[SIZE], got[SIZE];
    fill(q, m, ref);
    cl_int err = clEnqueueCopyBufferRect(q, m, m, so, dor, region, ROW, SLICE, ROW, SLICE, 0, NULL, NULL);
    if (err != want_err) FAIL("%s: clEnqueueCopyBufferRect returned %d, want %d", what, err, want_err);
    if (err != CL_SUCCESS) return;
    unsigned char before[SIZE];
    memcpy(before, ref, SIZE);
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            for (size_t x = 0; x < region[0]; x++)
                ref[(dor[2] + z) * SLICE + (dor[1] + y) * ROW + dor[0] + x] =
                    before[(so[2] + z) * SLICE + (so[1] + y) * ROW + so[0] + x];
    CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, SIZE, got, 0, NULL, NULL));
    for (int i = 0; i < SIZE; i++)
        if (got[i] != ref[i]) FAIL("%s: byte %d = %u, want %u", what, i, got[i], ref[i]);
}

int main(void)
{
    cl_context ctx;
    cl_command_queue q;
    first_device(&ctx, &q, 0);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SIZE, NULL, &err);
    CHECK_CL(err);
    /* columns 0..5 -> columns 8..13 of rows 0..3 of slices 0..1: spans interleave, no byte shared */
    size_t a[3] = { 0, 0, 0 }, b[3] = { 8, 0, 0 }, r1[3] = { 6, 4, 2 };
    check_copy(q, m, a, b, r1, CL_SUCCESS, "side by side");
    check_copy(q, m, b, a, r1, CL_SUCCESS, "side by side, backwards");
    /* rows 0..1 -> rows 2..3 of each slice (slice_size 2 rows, gap 2 rows): no byte shared */
    size_t c[3] = { 0, 2, 0 }, r2[3] = { 16, 2, 4 };
    check_copy(q, m, a, c, r2, CL_SUCCESS, "alternate rows");
    /* columns 0..5 -> 4..9: bytes 4 and 5 of each row are shared */
    size_t e[3] = { 4, 0, 0 };
    check_copy(q, m, a, e, r1, CL_MEM_COPY_OVERLAP, "overlapping columns");
    /* rows 0..2 -> rows 2..4 (slice 1 row 0): row 2 shared */
    size_t r3[3] = { 16, 3, 1 };
    check_copy(q, m, a, c, r3, CL_MEM_COPY_OVERLAP, "overlapping rows");
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    PASS();
}
