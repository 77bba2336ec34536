"""SOFA's DAG scene graph as SoftRobots' Tripod tutorial uses it: a body built under a 'Modelling'
node and added to the 'Simulation' node that holds the solver (two parents), and a node 'Link'
below two rigid frames, mapped from both by a SubsetMultiMapping (Tripod's RigidParts below the
servo wheels). The equivalent tree: the body only under Simulation, Link only under its last frame."""

import Sofa.Core


def createScene(rootNode):
    rootNode.dt = 0.01
    rootNode.gravity = [0, -9.81, 0]
    rootNode.addObject("DefaultAnimationLoop")
    modelling = rootNode.addChild("Modelling")
    simulation = rootNode.addChild("Simulation")
    simulation.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    simulation.addObject("SparseLDLSolver")

    body = modelling.addChild("Body")
    body.addObject("RegularGridTopology", nx=4, ny=2, nz=2, min=[0, 0, 0], max=[3, 1, 1])
    body.addObject("MechanicalObject", name="dofs")
    body.addObject("UniformMass", totalMass=1)
    body.addObject("HexahedronFEMForceField", youngModulus=500, poissonRatio=0.3, method="large")
    body.addObject("FixedProjectiveConstraint", indices=[0, 4, 8, 12])
    simulation.addChild(body)

    a = simulation.addChild("A")
    a.addObject("MechanicalObject", name="dofs", template="Rigid3", position=[0, 2, 0, 0, 0, 0, 1])
    a.addObject("UniformMass", totalMass=1)
    b = simulation.addChild("B")
    b.addObject("MechanicalObject", name="dofs", template="Rigid3", position=[2, 2, 0, 0, 0, 0, 1])
    b.addObject("UniformMass", totalMass=2)
    b.addObject("RestShapeSpringsForceField", stiffness=50, angularStiffness=20)
    link = a.addChild("Link")
    b.addChild(link)
    link.addObject("MechanicalObject", name="dofs", template="Rigid3")
    link.addObject("SubsetMultiMapping", template="Rigid3,Rigid3", input=[a.dofs.getLinkPath(), b.dofs.getLinkPath()],
                   output="@./dofs", indexPairs=[0, 0, 1, 0])
    points = link.addChild("Points")
    points.addObject("MechanicalObject", name="dofs", template="Vec3", position=[0.5, 2, 0, 1.5, 2.2, 0])
    points.addObject("RigidMapping", input=link.dofs.getLinkPath(), output="@dofs", rigidIndexPerPoint=[0, 1],
                     globalToLocalCoords=True)
    points.addObject("SpringForceField", spring=[0, 1, 100, 1, 1])

    # the graph as SOFA's Python API shows it
    assert [p.name.value for p in body.getParents()] == ["Modelling", "Simulation"]
    assert body.getFirstParent().name.value == "Modelling" and body.getNbParents() == 2
    assert body.hasParent(simulation) and not body.hasParent(a)
    assert [p.name.value for p in link.parents] == ["A", "B"]
    assert body.getPathName() == "/Modelling/Body" and link.getLinkPath() == "@/Simulation/A/Link"
    assert simulation.getChild("Body") is body and modelling.getChild("Body") is body
    # a second adoption by the same parent changes nothing (SOFA lists the child twice, visits it once)
    assert simulation.addChild(body) is body and body.getNbParents() == 2
    try:
        link.addChild(simulation)
        raise AssertionError("a cycle should be refused")
    except ValueError as e:
        assert "cycle" in str(e)
