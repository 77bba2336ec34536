"""A pneumatic cavity (the scene of scenes/softrobots/cavity-direct-pressure.scn) inflated by a
controller: pressure += 0.5 per step up to 3."""

import os

import Sofa.Core

MESH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenes", "softrobots", "mesh", "cavity-box.vtk")


class PressureController(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.node = kwargs["node"]

    def onAnimateBeginEvent(self, event):
        cavity = self.node.cavity
        p = cavity.value.value[0]
        cavity.value = [min(p + 0.5, 3.0)]


def createScene(rootNode):
    rootNode.dt = 0.01
    rootNode.gravity = [0, 0, 0]
    rootNode.addObject("FreeMotionAnimationLoop")
    rootNode.addObject("BlockGaussSeidelConstraintSolver", tolerance=1e-10, maxIterations=1000)
    actuator = rootNode.addChild("actuator")
    actuator.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    actuator.addObject("SparseLDLSolver")
    loader = actuator.addObject("MeshVTKLoader", name="loader", filename=MESH)
    actuator.addObject("MeshTopology", name="topology", position=loader.position.getLinkPath(), hexahedra="@loader.hexahedra")
    actuator.addObject("MechanicalObject", name="dofs")
    actuator.addObject("UniformMass", totalMass=0.002)
    actuator.addObject("HexahedronFEMForceField", youngModulus=18000, poissonRatio=0.3, method="large")
    actuator.addObject("BoxROI", name="base", box=[-1, -1, -1, 14, 14, 0.5])
    actuator.addObject("FixedProjectiveConstraint", indices="@base.indices")
    actuator.addObject("LinearSolverConstraintCorrection")
    actuator.addObject("SurfacePressureConstraint", name="cavity", quads=loader.quads.linkpath, valueType="pressure", value=0)
    actuator.addObject(PressureController(node=actuator))
