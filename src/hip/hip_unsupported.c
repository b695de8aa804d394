/* The entry points of Debian's libamdhip64 5.2 that umbra's HIP runtime does not implement
 * (unsupported.def): each returns hipErrorNotSupported, remembered for hipGetLastError, and says on
 * stderr which call and why (once per call), never a silent success.
 *
 * This file does not include the HIP headers: one definition serves every signature, because
 * under the x86-64 System V ABI a function returning an int-sized enum may ignore its arguments. */
#include <stdatomic.h>
#include <stdio.h>

int hip_unsupported_ret(int e);   /* hip_ret, typed without the HIP headers */

#define HIP_ERROR_NOT_SUPPORTED 801   /* hipErrorNotSupported */

static const char *why(const char *group)
{
    switch (group[0]) {
    case 'I': return group[1] == 'M' ? "the driver API's texture references (hipTexRef*, hipModuleGetTexRef), mipmapped arrays and these array copies are not supported (docs/HIP.md)"
                   : group[1] == 'P' ? "inter-process memory and events are not supported"
                                     : "interoperation with graphics and external memory is not supported";
    case 'P': return group[1] == 'O' ? "sharing memory pools between processes is not supported" : "profiler and activity callbacks are not supported";
    case 'V': return "sharing virtual memory allocations between processes is not supported";
    case 'M': return "umbra simulates one device: multi-device launches and topology queries are not supported";
    default: return "not supported by umbra's HIP runtime";
    }
}

static int report(const char *name, const char *group, atomic_flag *said)
{
    if (!atomic_flag_test_and_set(said))
        fprintf(stderr, "umbra hip: %s: %s (hipErrorNotSupported)\n", name, why(group));
    return hip_unsupported_ret(HIP_ERROR_NOT_SUPPORTED);
}

#define UNSUPPORTED(name, group)                                                  \
    __attribute__((visibility("default"))) int name(void);                        \
    int name(void)                                                                \
    {                                                                             \
        static atomic_flag said = ATOMIC_FLAG_INIT;                               \
        return report(#name, #group, &said);                                      \
    }
#include "unsupported.def"
#undef UNSUPPORTED
