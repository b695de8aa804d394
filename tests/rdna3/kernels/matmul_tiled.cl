/* C[M][N] = A[M][K] * B[K][N], 16x16 tiles through LDS; sizes need not be multiples of 16. */
#define TS 16
__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C,
                           uint M, uint N, uint K)
{
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint col = get_group_id(0) * TS + tx, row = get_group_id(1) * TS + ty;
    float acc = 0.0f;
    for (uint t = 0; t < K; t += TS) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (col < N && t + ty < K) ? B[(t + ty) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TS; k++) acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N) C[row * N + col] = acc;
}
