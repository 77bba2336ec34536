"""A cable-driven finger (the scene of scenes/softrobots/finger-direct.scn, written the way
SoftRobots' examples are): a beam of corotational hexahedra clamped at x = 0, a cable along its
lower face, shortened by a controller (displacement += 0.1 per step up to 2)."""

import Sofa.Core


class CableController(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.cable = kwargs["cable"]

    def onAnimateBeginEvent(self, event):
        d = self.cable.value.value[0]
        self.cable.value = [min(d + 0.1, 2.0)]


def createScene(rootNode):
    rootNode.addObject("RequiredPlugin", name="SoftRobots")
    rootNode.addObject("RequiredPlugin", pluginName=["Sofa.Component.AnimationLoop", "Sofa.Component.Constraint.Lagrangian.Correction",
                                                     "Sofa.Component.Constraint.Lagrangian.Solver", "Sofa.Component.Constraint.Projective",
                                                     "Sofa.Component.Engine.Select", "Sofa.Component.LinearSolver.Direct", "Sofa.Component.Mass",
                                                     "Sofa.Component.ODESolver.Backward", "Sofa.Component.SolidMechanics.FEM.Elastic",
                                                     "Sofa.Component.StateContainer", "Sofa.Component.Topology.Container.Grid"])
    rootNode.dt = 0.01
    rootNode.gravity = [0, 0, 0]
    rootNode.addObject("FreeMotionAnimationLoop")
    rootNode.addObject("BlockGaussSeidelConstraintSolver", tolerance=1e-10, maxIterations=1000)

    finger = rootNode.addChild("finger")
    finger.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    finger.addObject("SparseLDLSolver")
    finger.addObject("RegularGridTopology", name="grid", nx=11, ny=3, nz=3, min=[0, 0, 0], max=[100, 10, 10])
    finger.addObject("MechanicalObject", name="dofs")
    finger.addObject("UniformMass", totalMass=0.01)
    finger.addObject("HexahedronFEMForceField", youngModulus=18000, poissonRatio=0.3, method="large")
    finger.addObject("BoxROI", name="clamp", box=[-1, -1, -1, 1, 11, 11])
    finger.addObject("FixedProjectiveConstraint", indices=finger.clamp.indices.getLinkPath())
    finger.addObject("LinearSolverConstraintCorrection")
    cable = finger.addObject("CableConstraint", name="cable", indices=list(range(34, 44)), pullPoint=[-10, 0, 5],
                             valueType="displacement", value=0, minForce=0)
    finger.addObject(CableController(name="controller", cable=cable))
    return rootNode
