"""SofaPython3's semantics that scenes rely on, checked from a Python program (`import Sofa`).
Run by python-api.spec.ts; prints OK at the end, an assertion's traceback otherwise."""

import os
import sys

import Sofa
import Sofa.Core
import Sofa.Simulation
from Sofa.constants import Key

HERE = os.path.dirname(os.path.abspath(__file__))
np = None
if "--no-numpy" not in sys.argv:
    import numpy as np


def check_naming_and_attributes():
    root = Sofa.Core.Node("root")
    # an unnamed object is named after its class, without a counter (SofaPython3's rule)
    mo = root.addObject("MechanicalObject", position=[[0, 0, 0], [1, 2, 3]])
    assert mo.getName() == "MechanicalObject", mo.getName()
    assert mo.name.value == "MechanicalObject"
    assert root.MechanicalObject is mo
    m = root.addObject("UniformMass", totalMass=2.5)
    assert m.getName() == "UniformMass"
    # an object asked by an alias is named by the type string asked (SofaPython3 names the object
    # description after it): scenes find it by that name
    p = root.addObject("PointModel")
    assert p.getName() == "PointModel", p.getName()
    assert p.getClassName() == "PointCollisionModel", p.getClassName()
    assert root.PointModel is p
    root.removeObject(p)
    # attribute access: an object, then a child, then a Data
    child = root.addChild("dofs")
    assert root.dofs is child
    named = root.addObject("MechanicalObject", name="dofs")  # an object named like a child
    assert root.dofs is named, "an object comes before a child of the same name"
    assert isinstance(root.gravity, Sofa.Core.Data)
    assert root["dofs"] is child, "a path prefers a child node (SofaPython3's getItem)"
    assert len(root["MechanicalObject.position"].value) == 2
    try:
        root.noSuchThing
        raise AssertionError("expected an AttributeError")
    except AttributeError:
        pass
    assert root.hasObject("UniformMass") and not root.hasObject("nope")
    assert root.getObject("UniformMass") is m and root.getObject("nope") is None
    assert root.getChild("dofs") is child and child.getRoot() is root
    assert [o.getName() for o in root.objects] == ["MechanicalObject", "UniformMass", "dofs"]
    assert len(root.children) == 1 and root.children[0] is child
    assert mo.getLinkPath() == "@/MechanicalObject", mo.getLinkPath()
    assert mo.position.getLinkPath() == "@/MechanicalObject.position"
    assert mo.position.linkpath == mo.position.getLinkPath()
    assert child.getLinkPath() == "@/dofs"
    assert mo.getClassName() == "MechanicalObject"
    assert root.getMechanicalState() is mo
    root.removeObject(named)
    assert root.dofs is child
    root.removeChild(child)
    assert root.getChild("dofs") is None


def check_keyword_values():
    root = Sofa.Core.Node("root")
    # booleans, floats (shortest round-trip form), nested lists, numpy arrays
    mo = root.addObject("MechanicalObject", name="mo", position=[[0.1, 0.2, 0.3], [1e-17, -2.5, 3]], showObject=True)
    p = mo.position.value
    assert list(p[0]) == [0.1, 0.2, 0.3] and list(p[1]) == [1e-17, -2.5, 3.0]
    assert mo.showObject.value is True
    if np is not None:
        a = np.array([[4.0, 5.0, 6.0]])
        mo2 = root.addObject("MechanicalObject", name="mo2", position=a)
        assert (mo2.position.value == a).all()
        # a Data given as a keyword value: its value (a copy)
        mo3 = root.addObject("MechanicalObject", name="mo3", position=mo2.position)
        assert (mo3.position.value == a).all()
        mo2.position.value = [[7, 8, 9]]
        assert (mo3.position.value == a).all(), "a copy, not a link"
    # a link path: a link
    mo4 = root.addObject("MechanicalObject", name="mo4", position=mo.position.getLinkPath())
    assert list(mo4.position.value[1]) == [1e-17, -2.5, 3.0]
    assert mo4.position.hasParent()
    mo5 = root.addObject("MechanicalObject", name="mo5", position="@mo.position")
    assert mo5.position.getParentPath().endswith("mo.position")


def check_data_access():
    root = Sofa.Core.Node("root")
    mo = root.addObject("MechanicalObject", name="mo", position=[[0, 0, 0], [1, 1, 1]])
    v = mo.position.value
    if np is not None:
        assert isinstance(v, np.ndarray) and v.dtype == np.float64 and v.shape == (2, 3)
        try:
            v[0, 0] = 5
            raise AssertionError("value must be read-only")
        except ValueError:
            pass
        with mo.position.writeable() as w:
            w[0, 0] = 5
        assert mo.position.value[0, 0] == 5
    else:
        assert v == [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    mo.position.value = [[2, 2, 2]]
    assert len(mo.position) == 1
    assert mo.position.getValueString() == "2 2 2"
    assert mo.position.typeName() == "vector<Coord>"
    root.gravity = [0, -10, 0]
    assert list(root.gravity.value) == [0, -10, 0]
    root.dt = 0.5
    assert root.dt.value == 0.5 and isinstance(root.dt.value, float)
    # scalars
    m = root.addObject("UniformMass", name="m", totalMass=3)
    assert m.totalMass.value == 3.0 and isinstance(m.totalMass.value, float)
    m.totalMass = 4
    assert m.totalMass.value == 4.0
    # setParent
    mo2 = root.addObject("MechanicalObject", name="mo2")
    mo2.position.setParent(mo.position)
    assert list(mo2.position.value[0]) == [2, 2, 2]
    # a bad value is refused with SOFA's message
    try:
        m.totalMass = "heavy"
        raise AssertionError("expected a ValueError")
    except ValueError as e:
        assert "totalMass" in str(e), str(e)
    # addData on a node and on an object
    d = root.addData(name="myParam", value=1.5, default=0.0, help="a parameter", group="mine", type="float")
    assert root.myParam.value == 1.5 and d.getHelp() == "a parameter"
    s = m.addData(name="label", value="hello", type="string")
    assert m.label.value == "hello"
    # a link as the value: the new Data takes the linked one's type (not `type`) and follows it
    f = root.addData(name="follow", value=mo.position.getLinkPath(), type="float", help="linked")
    assert f.hasParent() and f.typeName() == mo.position.typeName(), f.typeName()
    mo.position.value = [[3, 4, 5]]
    assert list(root.follow.value[0]) == [3, 4, 5]
    g = m.addData(name="massCopy", value=m.totalMass)
    assert g.hasParent() and g.value == 4.0
    try:
        root.addData(name="nowhere", value="@no/such.data", type="float")
        raise AssertionError("expected a TypeError")
    except TypeError as e:
        assert "no/such.data" in str(e), str(e)


class Counter(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.node = kwargs["node"]  # an extra keyword argument, left to the subclass
        self.begins = 0
        self.ends = 0
        self.keys = []
        self.inited = 0

    def init(self):
        self.inited += 1

    def onAnimateBeginEvent(self, event):
        assert event["type"] == "AnimateBeginEvent" and event["dt"] == 0.01
        self.begins += 1
        # inside a handler: reads after writes see the writes
        self.node.mo.velocity = [[0, float(self.begins), 0]]
        assert self.node.mo.velocity.value[0][1] == float(self.begins)

    def onAnimateEndEvent(self, event):
        self.ends += 1

    def onKeypressedEvent(self, event):
        self.keys.append(event["key"])
        return True


class Kinds(Sofa.Core.Controller):
    """Reads Data of each kind, then writes some, from a handler: from the second step on, the
    reads come with the event (the engine sends the values of those read the step before)."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.node = kwargs["node"]
        self.root = kwargs["root"]
        self.seen = []

    def onAnimateBeginEvent(self, event):
        mo = self.node.mo
        self.seen.append((mo.size.value, mo.name.value, mo.showObject.value, self.node.UniformMass.totalMass.value,
                          mo.tags.value, self.root.dt.value, mo.position.value))
        if len(self.seen) == 1:
            mo.showObject = True
            self.node.UniformMass.totalMass = 1  # an int into a double: 1.0 read back
            mo.tags = self.root.tags  # a Data written from another Data
        elif len(self.seen) == 2:
            mo.tags = ["a", "b"]


class Fallback(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.events = []

    def onEvent(self, event):
        self.events.append(event["type"])


def check_controllers_and_simulation():
    root = Sofa.Core.Node("root")
    root.dt = 0.01
    root.gravity = [0, 0, 0]
    n = root.addChild("body")
    n.addObject("EulerExplicitSolver", symplectic=True)
    n.addObject("MechanicalObject", name="mo", position=[0, 0, 0])
    n.addObject("UniformMass", totalMass=1)
    c = n.addObject(Counter(name="counter", node=n))
    k = n.addObject(Kinds(name="kinds", node=n, root=root))
    root.tags = ["t1"]
    f = root.addObject(Fallback())
    assert f.getName() == "Fallback" and c.getName() == "counter"
    assert n.counter is c, "the Python object itself"
    c.listening = True  # a Data of the controller
    assert c.listening.value is True
    Sofa.Simulation.init(root)  # a DefaultAnimationLoop is added to a root that has none
    assert c.inited == 1
    for _ in range(3):
        Sofa.Simulation.animate(root, root.dt.value)
    assert (c.begins, c.ends) == (3, 3), (c.begins, c.ends)
    assert abs(root.time.value - 0.03) < 1e-15
    # the velocity written at the third step, integrated: x = 0.01 * (1 + 2 + 3)
    assert abs(n.mo.position.value[0][1] - 0.06) < 1e-15, n.mo.position.value
    assert "AnimateBeginEvent" in f.events and "SimulationInitDoneEvent" in f.events
    # the values read in a handler, asked (first step) or sent with the event (the others): the
    # same Python values and types as outside a handler
    first, second, third = k.seen
    assert first[:6] == (1, "mo", False, 1.0, [], 0.01), first
    assert second[:6] == (1, "mo", True, 1.0, ["t1"], 0.01), second
    assert [type(x) for x in second[:6]] == [int, str, bool, float, list, float], second
    assert third[4] == ["a", "b"], third
    if np is not None:
        assert all(isinstance(s[6], np.ndarray) and s[6].shape == (1, 3) and not s[6].flags.writeable for s in k.seen)
    assert third[6][0][1] == n.mo.position.value[0][1] - 0.01 * 3, (third[6], n.mo.position.value)
    Sofa.Simulation.reset(root)
    assert n.mo.position.value[0][1] == 0


class Arm(Sofa.Prefab):
    """A prefab: its parameters are Data of the node, init builds it."""
    prefabParameters = [{"name": "length", "type": "float", "help": "arm length", "default": 1.0},
                        {"name": "label", "type": "string", "help": "a label", "default": "arm"}]

    def init(self):
        self.addObject("MechanicalObject", name="tip", position=[self.length.value, 0, 0])


def check_prefab_and_messages():
    root = Sofa.Core.Node("root")
    arm = root.addChild(Arm(name="arm", length=2.5))
    assert root.arm is arm and arm.length.value == 2.5 and arm.label.value == "arm"
    assert list(arm.tip.position.value[0]) == [2.5, 0, 0]
    detached = Sofa.Core.Node("later")
    detached.addObject("MechanicalObject", name="m")
    root.addChild(detached)
    assert root.later.m.getLinkPath() == "@/later/m"
    Sofa.msg_info("a message from the script")
    Sofa.Helper.msg_warning(arm, "a warning about the arm")
    assert Key.plus == "+" and Key.uparrow == chr(19)


check_naming_and_attributes()
check_keyword_values()
check_data_access()
check_controllers_and_simulation()
check_prefab_and_messages()
print("OK")
