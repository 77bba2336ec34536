"""The inverse finger (scenes/softrobots/finger-inverse.scn): the QP finds the cable's pull that
brings the tip to a goal, which a controller moves up and down (y = 10 + 3 sin(0.2 t))."""

import math

import Sofa.Core


class GoalController(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.effector = kwargs["effector"]
        self.root = kwargs["root"]

    def onAnimateBeginEvent(self, event):
        t = self.root.time.value
        self.effector.effectorGoal = [100, 10 + 3 * math.sin(0.2 * t), 5]


def createScene(rootNode):
    rootNode.dt = 1
    rootNode.gravity = [0, 0, 0]
    rootNode.addObject("FreeMotionAnimationLoop")
    rootNode.addObject("QPInverseProblemSolver", epsilon=0)
    finger = rootNode.addChild("finger")
    finger.addObject("EulerImplicitSolver", firstOrder=True, rayleighStiffness=0, rayleighMass=0)
    finger.addObject("SparseLDLSolver")
    finger.addObject("RegularGridTopology", name="grid", nx=11, ny=3, nz=3, min=[0, 0, 0], max=[100, 10, 10])
    finger.addObject("MechanicalObject", name="dofs")
    finger.addObject("UniformMass", totalMass=0.01)
    finger.addObject("HexahedronFEMForceField", youngModulus=18000, poissonRatio=0.3, method="large")
    finger.addObject("BoxROI", name="clamp", box=[-1, -1, -1, 1, 11, 11])
    finger.addObject("FixedProjectiveConstraint", indices="@clamp.indices")
    finger.addObject("LinearSolverConstraintCorrection")
    finger.addObject("CableActuator", name="cable", indices=list(range(56, 66)), pullPoint=[-10, 10, 5], minForce=0, maxPositiveDisp=15)
    effector = finger.addObject("PositionEffector", name="effector", indices=[54], effectorGoal=[100, 10, 5], useDirections=[0, 1, 0])
    rootNode.addObject(GoalController(name="goal", effector=effector, root=rootNode))
