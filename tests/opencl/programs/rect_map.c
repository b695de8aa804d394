/* Moving bytes: WriteBufferRect of a sub-rectangle, CopyBufferRect, ReadBufferRect, FillBuffer with
 * a 16-byte pattern, CopyBuffer, a write-mapped region and a CL_MEM_USE_HOST_PTR buffer whose map
 * returns the host pointer; each result compared with the same moves done on the host. */
#define CL_TARGET_OPENCL_VERSION 120
#include <string.h>

#include "check.h"

enum { W = 40, H = 24, D = 3, SZ = W * H * D };

int main(void)
{
    cl_context ctx;
    cl_command_queue q;
    first_device(&ctx, &q, 0);
    cl_int err;
    unsigned char *src = malloc(SZ), *ref = calloc(SZ, 1), *got = malloc(SZ);
    for (int i = 0; i < SZ; i++) src[i] = (unsigned char)(i * 31 + 7);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SZ, NULL, &err);
    CHECK_CL(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, SZ, NULL, &err);
    CHECK_CL(err);
    unsigned char zero = 0;
    CHECK_CL(clEnqueueFillBuffer(q, a, &zero, 1, 0, SZ, 0, NULL, NULL));
    CHECK_CL(clEnqueueFillBuffer(q, b, &zero, 1, 0, SZ, 0, NULL, NULL));
    /* host (2,3,0)..+(10,5,2) with host pitches W, W*H -> buffer (5,1,1) with pitches W, W*H */
    size_t horg[3] = { 2, 3, 0 }, borg[3] = { 5, 1, 1 }, region[3] = { 10, 5, 2 };
    CHECK_CL(clEnqueueWriteBufferRect(q, a, CL_TRUE, borg, horg, region, W, W * H, W, W * H, src, 0, NULL, NULL));
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            memcpy(ref + (borg[2] + z) * W * H + (borg[1] + y) * W + borg[0],
                   src + (horg[2] + z) * W * H + (horg[1] + y) * W + horg[0], region[0]);
    CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, SZ, got, 0, NULL, NULL));
    if (memcmp(got, ref, SZ)) FAIL("WriteBufferRect placed the wrong bytes");
    /* copy a's (5,1,1)+(10,5,2) to b at (0,0,0) with tight pitches 10, 50 */
    size_t dorg[3] = { 0, 0, 0 };
    CHECK_CL(clEnqueueCopyBufferRect(q, a, b, borg, dorg, region, W, W * H, 10, 50, 0, NULL, NULL));
    unsigned char tight[100];
    CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof tight, tight, 0, NULL, NULL));
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 5; y++)
            if (memcmp(tight + z * 50 + y * 10, ref + (1 + z) * W * H + (1 + y) * W + 5, 10)) FAIL("CopyBufferRect row %zu,%zu", y, z);
    /* read it back as a rectangle into a zeroed host image */
    unsigned char *img = calloc(SZ, 1), *img_ref = calloc(SZ, 1);
    size_t hdst[3] = { 1, 1, 0 };
    CHECK_CL(clEnqueueReadBufferRect(q, b, CL_TRUE, dorg, hdst, region, 10, 50, W, W * H, img, 0, NULL, NULL));
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 5; y++) memcpy(img_ref + z * W * H + (1 + y) * W + 1, tight + z * 50 + y * 10, 10);
    if (memcmp(img, img_ref, SZ)) FAIL("ReadBufferRect placed the wrong bytes");
    /* a 16-byte pattern over bytes [32, 32+160) of b, then b -> a copy of 256 bytes at 64 */
    unsigned char pat[16];
    for (int i = 0; i < 16; i++) pat[i] = (unsigned char)(0xa0 + i);
    CHECK_CL(clEnqueueFillBuffer(q, b, pat, 16, 32, 160, 0, NULL, NULL));
    CHECK_CL(clEnqueueCopyBuffer(q, b, a, 0, 64, 256, 0, NULL, NULL));
    unsigned char bref[256];
    memcpy(bref, tight, 100);
    memset(bref + 100, 0, 156);
    for (int i = 0; i < 160; i++) bref[32 + i] = pat[i % 16];
    memcpy(ref + 64, bref, 256);
    CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, SZ, got, 0, NULL, NULL));
    if (memcmp(got, ref, SZ)) FAIL("FillBuffer/CopyBuffer gave the wrong bytes");
    /* map for writing, change, unmap, read back */
    unsigned char *m = clEnqueueMapBuffer(q, a, CL_TRUE, CL_MAP_WRITE, 100, 50, 0, NULL, NULL, &err);
    CHECK_CL(err);
    for (int i = 0; i < 50; i++) m[i] = (unsigned char)i;
    CHECK_CL(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL));
    for (int i = 0; i < 50; i++) ref[100 + i] = (unsigned char)i;
    CHECK_CL(clEnqueueReadBuffer(q, a, CL_TRUE, 0, SZ, got, 0, NULL, NULL));
    if (memcmp(got, ref, SZ)) FAIL("a mapped write was lost");
    /* CL_MEM_USE_HOST_PTR: the map of a region is the host memory at that offset */
    cl_mem u = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, SZ, src, &err);
    CHECK_CL(err);
    CHECK_CL(clEnqueueCopyBuffer(q, a, u, 0, 0, SZ, 0, NULL, NULL));
    unsigned char *um = clEnqueueMapBuffer(q, u, CL_TRUE, CL_MAP_READ, 8, 64, 0, NULL, NULL, &err);
    CHECK_CL(err);
    if (um != src + 8) FAIL("map of a USE_HOST_PTR buffer returned %p, expected %p", (void *)um, (void *)(src + 8));
    if (memcmp(um, ref + 8, 64)) FAIL("mapped USE_HOST_PTR bytes differ");
    CHECK_CL(clEnqueueUnmapMemObject(q, u, um, 0, NULL, NULL));
    CHECK_CL(clFinish(q));
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(u);
    clReleaseCommandQueue(q), clReleaseContext(ctx);
    free(src), free(ref), free(got), free(img), free(img_ref);
    PASS();
}
