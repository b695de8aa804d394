#!/usr/bin/env python3
"""pyopencl on umbra: arrays, elementwise, reduction and scan kernels that pyopencl generates,
each result checked with numpy. Run with OCL_ICD_VENDORS naming umbra.icd."""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import GenericScanKernel, InclusiveScanKernel


def check(name, got, want, **tol):
    if not np.allclose(got, want, **tol):
        bad = np.flatnonzero(~np.isclose(got, want, **tol))[:5]
        sys.exit(f"FAIL {name}: at {bad.tolist()} got {np.asarray(got).ravel()[bad]} want {np.asarray(want).ravel()[bad]}")
    print(f"ok {name}")


def main():
    platforms = cl.get_platforms()
    assert [p.name for p in platforms] == ["umbra"], [p.name for p in platforms]
    dev = platforms[0].get_devices()[0]
    assert dev.name == "umbra RDNA3 gfx1100", dev.name
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    rng = np.random.default_rng(1)
    n = 5000
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    da, db = cla.to_device(q, a), cla.to_device(q, b)

    check("array arithmetic", (2 * da + db * db - 1).get(), 2 * a + b * b - 1, rtol=1e-5, atol=1e-5)
    check("array math", cla.max(da).get(), a.max())

    lin = ElementwiseKernel(ctx, "float k, float *x, float *y, float *z", "z[i] = k * x[i] + y[i]", "lin")
    dz = cla.empty_like(da)
    lin(np.float32(3.0), da, db, dz)
    check("elementwise", dz.get(), 3 * a + b, rtol=1e-5, atol=1e-5)

    dot = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                          arguments="__global const float *x, __global const float *y")
    check("reduction (dot)", dot(da, db).get(), np.dot(a.astype(np.float64), b), rtol=1e-4)
    check("sum", cla.sum(da).get(), a.astype(np.float64).sum(), rtol=1e-4, atol=1e-3)

    ints = rng.integers(-50, 50, size=10000).astype(np.int32)
    di = cla.to_device(q, ints)
    scan = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
    check("inclusive scan", scan(di.copy()).get(), np.cumsum(ints))

    excl = GenericScanKernel(ctx, np.int32, arguments="__global int *x, __global int *y",
                             input_expr="x[i]", scan_expr="a+b", neutral="0",
                             output_statement="y[i] = prev_item")
    dy = cla.empty_like(di)
    excl(di, dy)
    want = np.concatenate([[0], np.cumsum(ints)[:-1]])
    check("exclusive scan", dy.get(), want)
    print("PASS")


if __name__ == "__main__":
    main()
