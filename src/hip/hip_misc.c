/* Entry points that are neither memory, streams nor launches: half-precision conversions, the
 * channel descriptor, the names of API calls and commands, the debugger's build strings, and the
 * profiler hooks (roctracer's), which umbra does not offer. */
#include <math.h>
#include <string.h>

#include "hip_internal.h"

/* IEEE binary16 <-> binary32, round to nearest even (what compiler-rt's __gnu_* do). */
HIP_EXPORT unsigned short __gnu_f2h_ieee(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xff) return (unsigned short)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 0x1f) return (unsigned short)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return (unsigned short)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e), half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1))) half++;
        return (unsigned short)(sign | half);
    }
    uint32_t half = (uint32_t)e << 10 | man >> 13, rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) half++;   /* may carry into the exponent: right */
    return (unsigned short)(sign | half);
}

HIP_EXPORT float __gnu_h2f_ieee(unsigned short h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    if (exp == 0x1f) x = sign | 0x7f800000u | man << 13;
    else if (exp) x = sign | (exp + 112) << 23 | man << 13;
    else if (!man) x = sign;
    else {
        int e = 113;
        while (!(man & 0x400u)) man <<= 1, e--;
        x = sign | (uint32_t)e << 23 | (man & 0x3ffu) << 13;
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

HIP_EXPORT hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f)
{
    hipChannelFormatDesc d = { x, y, z, w, f };
    return d;
}

/* hipRTC's precompiled header of the HIP headers: umbra's hipRTC compiles with the headers
 * themselves, so there is none. */
HIP_EXPORT void __hipGetPCH(const char **pch, unsigned int *size)
{
    if (pch) *pch = NULL;
    if (size) *size = 0;
}

HIP_EXPORT const char *hipApiName(uint32_t id)
{
    (void)id;
    return "unknown";   /* umbra keeps no table of API ids (roctracer's) */
}

HIP_EXPORT const char *hipGetCmdName(uint32_t id)
{
    (void)id;
    return "unknown";
}

HIP_EXPORT size_t amd_dbgapi_get_build_id(void) { return 0; }
HIP_EXPORT const char *amd_dbgapi_get_build_name(void) { return "umbra"; }
HIP_EXPORT const char *amd_dbgapi_get_git_hash(void) { return "umbra"; }

/* Activity callbacks (roctracer): not offered; enabling one fails. */
HIP_EXPORT bool hipEnableActivityCallback(uint32_t op, bool enable)
{
    (void)op;
    if (enable) fprintf(stderr, "umbra hip: hipEnableActivityCallback: activity callbacks (roctracer) are not supported\n");
    return false;
}

HIP_EXPORT void hipInitActivityCallback(void *id_callback, void *op_callback, void *arg)
{
    (void)id_callback, (void)op_callback, (void)arg;
    fprintf(stderr, "umbra hip: hipInitActivityCallback: activity callbacks (roctracer) are not supported\n");
}
