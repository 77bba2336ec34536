"""What SoftRobots' scenes read while they build the graph (STLIB's Rigidify, Tripod's BoxROIs): a
mesh loader's outputs, a topology that follows them, and a state initialised by hand (dofs.init())
whose positions follow the loader. SOFA's loaders read their file when it is given, so the values
are there before the scene's init; the VTK file holds 240 points (its POINTS line)."""

import os

import Sofa.Core

MESH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scenes", "softrobots", "mesh", "cavity-box.vtk")


def createScene(rootNode):
    body = rootNode.addChild("body")
    body.addObject("MeshVTKLoader", name="loader", filename=MESH, translation=[0, 30, 0])
    body.addObject("MeshTopology", name="container", src="@loader")
    body.addObject("MechanicalObject", name="dofs", position="@loader.position")
    assert len(body.loader.position.value) == 240
    assert len(body.container.position.value) == 240
    # the loader's translation is applied: the first point of the file is (0, 0, 0)
    assert list(body.loader.position.value[0]) == [0, 30, 0], body.loader.position.value[0]
    body.dofs.init()
    assert len(body.dofs.rest_position.value) == 240

    # a prefab being built initialises one of its nodes (SoftFingerDesign's ActuatedFinger): its
    # subtree's objects are initialised, and the scene is still the one of rootNode
    prefab = Sofa.Core.Node("prefab")
    part = prefab.addChild("part")
    part.addObject("MeshVTKLoader", name="loader", filename=MESH)
    part.addObject("MechanicalObject", name="dofs", position="@loader.position")
    part.init()
    assert len(part.dofs.rest_position.value) == 240
    rootNode.addChild(prefab)
