/* The descriptors a kernel's image and sampler arguments point to (plat_image.h).
 *
 * Dwords 8-10 of an image's are what ROCm's image manager writes after the T# and what AMD's
 * device libraries read for the image queries (ROCm-Device-Libs ockl/src/image.cl: "the runtime
 * allocates 12 words for the T# or V# and fills words 8, 9, and 10"): the HSA channel type, the
 * HSA channel order, the width. The T# and S# themselves are encoded by src/mem/amd_image.h (the
 * MIMG work); a build without it says so (false) and the OpenCL and HIP rooms refuse image and
 * sampler kernel arguments with a message instead of handing a kernel a descriptor of zeros. */
#include <string.h>

#include "platform/plat_image.h"

bool plat_image_descriptor(const plat_image *im, uint32_t words[PLAT_IMAGE_DESC_DWORDS])
{
    memset(words, 0, PLAT_IMAGE_DESC_DWORDS * sizeof *words);
    words[8] = im->format.type;
    words[9] = im->format.order;
    words[10] = (uint32_t)im->width;
    return false;   /* no T# encoder in this build (src/mem/amd_image.h) */
}

bool plat_sampler_descriptor(const plat_sampler *s, uint32_t words[PLAT_SAMPLER_DESC_DWORDS])
{
    (void)s;
    memset(words, 0, PLAT_SAMPLER_DESC_DWORDS * sizeof *words);
    return false;   /* no S# encoder in this build (src/mem/amd_image.h) */
}
