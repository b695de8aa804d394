// Cooperative groups on RDNA3: grid-wide synchronisation (ockl's __ockl_grid_sync: s_barrier, one
// work-item per workgroup at ds_gws_barrier, s_barrier) and grid.is_valid() (the kernel's
// hidden_multigrid_sync_arg). coop_test.py checks the results against its own reference.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

// Round r: workgroup g publishes vals[g] = prev_g * 2654435761 + r (prev_g: its result of the round
// before, g at first), the grid synchronises, every workgroup reads every workgroup's value:
// res[r * n + g] = sum over i of vals[i] * (i + g + 1) (mod 2^32), and the grid synchronises again
// before the next round overwrites vals. A grid sync that let a workgroup through early would read
// a stale value and break the chain from then on.
extern "C" __global__ void grid_rounds(unsigned *vals, unsigned *res, unsigned rounds, unsigned *info)
{
    cg::grid_group grid = cg::this_grid();
    __shared__ unsigned part;
    const unsigned n = gridDim.x * gridDim.y * gridDim.z;
    const unsigned g = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned prev = g;
    for (unsigned r = 0; r < rounds; r++) {
        if (tid == 0) {
            vals[g] = prev * 2654435761u + r;
            part = 0;
        }
        grid.sync();
        unsigned s = 0;
        for (unsigned i = tid; i < n; i += nthreads) s += vals[i] * (i + g + 1);
        atomicAdd(&part, s);
        __syncthreads();
        prev = part;
        if (tid == 0) res[r * n + g] = prev;
        grid.sync();
    }
    if (g == 0 && tid == 0) {
        info[0] = grid.is_valid();
        info[1] = (unsigned)grid.size();
        info[2] = n;
    }
}

// grid.is_valid() alone: 1 in a cooperative launch, 0 otherwise (no grid sync: runs either way).
extern "C" __global__ void grid_valid(unsigned *out)
{
    if (threadIdx.x == 0) out[blockIdx.x] = cg::this_grid().is_valid();
}
