"""The cable finger of scenes/softrobots/finger-direct.scn with a Python controller that touches
10 Data per step (5 reads, 5 writes: the cable's value, the pull point, the root's gravity, the
mass, a goal of its own) — the cost of Python in the loop, against the XML scene (npm run bench).
sys.argv[1] = 'roundtrips:N' instead makes the controller write then read the cable's value N
times per step: each read after a write asks the engine (one round trip, carrying the write)."""

import os
import sys

import Sofa.Core

SCENE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scenes", "softrobots", "finger-direct.scn")


class TenData(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.root = kwargs["root"]
        self.reads = int(sys.argv[1].split(":")[1]) if len(sys.argv) > 1 else 0

    def onAnimateBeginEvent(self, event):
        finger = self.root.finger
        cable = finger.cable
        if self.reads:
            v = [float(cable.value.value[0])]
            for _ in range(self.reads):
                cable.value = v
                cable.value.value
            return
        v = cable.value.value
        p = cable.pullPoint.value
        g = self.root.gravity.value
        m = finger.UniformMass.totalMass.value
        d = self.root.dt.value
        cable.value = [float(v[0])]
        cable.pullPoint = p
        self.root.gravity = g
        finger.UniformMass.totalMass = m
        self.root.dt = d


def createScene(root):
    root.dt = 0.01
    root.gravity = [0, 0, 0]
    root.addObject("FreeMotionAnimationLoop")
    root.addObject("BlockGaussSeidelConstraintSolver", tolerance=1e-10, maxIterations=1000)
    finger = root.addChild("finger")
    finger.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    finger.addObject("SparseLDLSolver")
    finger.addObject("RegularGridTopology", name="grid", nx=11, ny=3, nz=3, min=[0, 0, 0], max=[100, 10, 10])
    finger.addObject("MechanicalObject", name="dofs")
    finger.addObject("UniformMass", totalMass=0.01)
    finger.addObject("HexahedronFEMForceField", youngModulus=18000, poissonRatio=0.3, method="large")
    finger.addObject("BoxROI", name="clamp", box=[-1, -1, -1, 1, 11, 11])
    finger.addObject("FixedProjectiveConstraint", indices="@clamp.indices")
    finger.addObject("LinearSolverConstraintCorrection")
    finger.addObject("CableConstraint", name="cable", indices=list(range(34, 44)), pullPoint=[-10, 0, 5],
                     valueType="displacement", value=2, minForce=0)
    root.addObject(TenData(name="tenData", root=root))
