"""Sofa.Simulation: initialise and step a scene from Python, as SOFA's regression program and
SofaGym do (`Sofa.Simulation.init(root)`, then `Sofa.Simulation.animate(root, dt)` in a loop)."""

from ._engine import engine


def init(node):
    """Finishes the scene (links, a DefaultAnimationLoop if the root has none) and initialises it."""
    engine().call("simInit", {"node": node._id})


def initRoot(node):
    init(node)


def initNode(node):
    init(node)


def animate(node, dt=0.0):
    """One step of dt (the root's dt when 0). Returns nothing, as SofaPython3's."""
    engine().call("simAnimate", {"node": node._id, "dt": float(dt)})


def reset(node):
    engine().call("simReset", {"node": node._id})


def load(filename):
    """Loads an XML scene (.scn) into the engine; returns its root node (not initialised)."""
    from .Core import _proxy

    found, _ = engine().call("simLoad", {"file": str(filename)})
    return _proxy({"k": "node", "id": found})


def unload(node):
    """Kept for SofaPython3 scripts; the engine keeps one scene for its lifetime."""
