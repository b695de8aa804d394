/* The NT_AMDGPU_METADATA note's msgpack document on its own (seeds: the notes of the RDNA3 test
 * kernels), so that mutations reach the parser without first passing the ELF checks. */
#include "fuzz_common.h"
#include "loader/amdgpu_co.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    umb_amdgpu_metadata md;
    memset(&md, 0, sizeof md);
    char err[1024];
    if (umb_amdgpu_metadata_parse("fuzz.co", data, size, &md, err, sizeof err) == UMB_OK)
        umb_amdgpu_metadata_free(&md);
    return 0;
}
