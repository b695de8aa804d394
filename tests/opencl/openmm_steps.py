#!/usr/bin/env python3
"""Time steps of OpenMM (Debian's python3-simtk 7.7) on umbra against OpenMM's Reference platform.

The system of OpenMM's installation test (a small protein in TIP3P water, amber99sb, 8867 atoms)
with PME, a 1 nm cutoff and bonds to hydrogen constrained; velocities from the same seed; N steps
of a Verlet integrator (2 fs) on the Reference platform (double precision, on the host) and on the
OpenCL platform (umbra: OpenMM's neighbour lists, PME grids and FFTs, nonbonded and bonded forces,
constraints and integration kernels, single precision). Expected: the two states agree as single
against double precision allows after so few steps: potential energy within 1e-5 relative,
kinetic energy within 1e-4 relative, no coordinate more than 1e-3 nm apart (measured on umbra:
5e-7, 1e-6 and 2e-5 nm after 20 steps).

usage: umbra opencl --identity rocm -- python3 openmm_steps.py [STEPS]
"""
import os
import sys

import numpy as np
import openmm as mm
from openmm import app, unit

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 10
data = os.path.join(os.path.dirname(mm.__file__), "app", "data")
pdb = app.PDBFile(os.path.join(data, "test.pdb"))
system = app.ForceField("amber99sb.xml", "tip3p.xml").createSystem(
    pdb.topology, nonbondedMethod=app.PME, nonbondedCutoff=1 * unit.nanometer, constraints=app.HBonds)


def run(platform):
    integrator = mm.VerletIntegrator(0.002 * unit.picoseconds)
    context = mm.Context(system, integrator, mm.Platform.getPlatformByName(platform))
    context.setPositions(pdb.positions)
    context.setVelocitiesToTemperature(300 * unit.kelvin, 1234)
    integrator.step(steps)
    state = context.getState(getEnergy=True, getPositions=True)
    return (state.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole),
            state.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole),
            state.getPositions(asNumpy=True).value_in_unit(unit.nanometer))


ref, ocl = run("Reference"), run("OpenCL")
dpe = abs(ref[0] - ocl[0]) / abs(ref[0])
dke = abs(ref[1] - ocl[1]) / abs(ref[1])
dx = float(np.abs(ref[2] - ocl[2]).max())
print(f"{system.getNumParticles()} atoms, {steps} steps")
print(f"Reference: potential {ref[0]:.3f} kinetic {ref[1]:.3f} kJ/mol")
print(f"OpenCL:    potential {ocl[0]:.3f} kinetic {ocl[1]:.3f} kJ/mol")
print(f"relative differences: potential {dpe:.2e}, kinetic {dke:.2e}; largest coordinate difference {dx:.2e} nm")
ok = dpe < 1e-5 and dke < 1e-4 and dx < 1e-3
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
