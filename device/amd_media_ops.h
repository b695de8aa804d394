/* Declarations of the cl_amd_media_ops and cl_amd_media_ops2 built-ins (the Khronos registry's
 * extensions/amd/cl_amd_media_ops.txt and cl_amd_media_ops2.txt) for clang-19, whose default
 * built-in declarations (-fdeclare-opencl-builtins) lack them. AMD's device library (opencl.bc)
 * defines every one of them, for scalars and 2, 3, 4, 8 and 16 components. umbra's compile path
 * includes this file in every OpenCL C compile; it declares nothing unless the macros of the
 * extensions are defined (the OpenCL platform reports both, as ROCm does for gfx1100). */
#ifndef UMBRA_AMD_MEDIA_OPS_H
#define UMBRA_AMD_MEDIA_OPS_H

#define UMB_MO_F __attribute__((overloadable, const))
/* one declaration per width: T is the element type name, R the result's */
#define UMB_MO_WIDTHS(DECL) DECL() DECL(2) DECL(3) DECL(4) DECL(8) DECL(16)

#ifdef cl_amd_media_ops
#define UMB_MO_V1(n)                                                                     \
    uint##n UMB_MO_F amd_bitalign(uint##n, uint##n, uint##n);                            \
    uint##n UMB_MO_F amd_bytealign(uint##n, uint##n, uint##n);                           \
    uint##n UMB_MO_F amd_lerp(uint##n, uint##n, uint##n);                                \
    uint##n UMB_MO_F amd_sad(uint##n, uint##n, uint##n);                                 \
    uint##n UMB_MO_F amd_sadhi(uint##n, uint##n, uint##n);                               \
    float##n UMB_MO_F amd_unpack0(uint##n);                                              \
    float##n UMB_MO_F amd_unpack1(uint##n);                                              \
    float##n UMB_MO_F amd_unpack2(uint##n);                                              \
    float##n UMB_MO_F amd_unpack3(uint##n);
UMB_MO_WIDTHS(UMB_MO_V1)
uint UMB_MO_F amd_pack(float4);
uint UMB_MO_F amd_sad4(uint4, uint4, uint);
#undef UMB_MO_V1
#endif

#ifdef cl_amd_media_ops2
#define UMB_MO_V2(n)                                                                     \
    uint##n UMB_MO_F amd_msad(uint##n, uint##n, uint##n);                                \
    uint##n UMB_MO_F amd_sadw(uint##n, uint##n, uint##n);                                \
    uint##n UMB_MO_F amd_sadd(uint##n, uint##n, uint##n);                                \
    ulong##n UMB_MO_F amd_qsad(ulong##n, uint##n, ulong##n);                             \
    ulong##n UMB_MO_F amd_mqsad(ulong##n, uint##n, ulong##n);                            \
    uint##n UMB_MO_F amd_bfm(uint##n, uint##n);                                          \
    uint##n UMB_MO_F amd_bfe(uint##n, uint##n, uint##n);                                 \
    int##n UMB_MO_F amd_bfe(int##n, uint##n, uint##n);                                   \
    uint##n UMB_MO_F amd_median3(uint##n, uint##n, uint##n);                             \
    int##n UMB_MO_F amd_median3(int##n, int##n, int##n);                                 \
    float##n UMB_MO_F amd_median3(float##n, float##n, float##n);                         \
    uint##n UMB_MO_F amd_min3(uint##n, uint##n, uint##n);                                \
    int##n UMB_MO_F amd_min3(int##n, int##n, int##n);                                    \
    float##n UMB_MO_F amd_min3(float##n, float##n, float##n);                            \
    uint##n UMB_MO_F amd_max3(uint##n, uint##n, uint##n);                                \
    int##n UMB_MO_F amd_max3(int##n, int##n, int##n);                                    \
    float##n UMB_MO_F amd_max3(float##n, float##n, float##n);
UMB_MO_WIDTHS(UMB_MO_V2)
#undef UMB_MO_V2
#endif

#undef UMB_MO_WIDTHS
#undef UMB_MO_F
#endif
