"""Sofa: SofaPython3's API over the sofa-ts engine.

`import Sofa` in any python3 gives Sofa.Core (nodes, components, Data, controllers, prefabs),
Sofa.Simulation (init, animate, reset, load), Sofa.Helper (messages), Sofa.constants (keys) and
Sofa.Types; the engine (Node.js, sofa-ts) starts at the first request. Under `sofa-ts run
scene.py` the same package talks to the engine that started this interpreter.
"""

from . import constants  # noqa: F401
from . import Core  # noqa: F401
from . import Helper  # noqa: F401
from . import Simulation  # noqa: F401
from . import Types  # noqa: F401
from .Core import Prefab  # noqa: F401
from .Helper import msg_deprecated, msg_error, msg_info, msg_warning  # noqa: F401

__version__ = "0.1.0"


def getPythonCallingPoint():
    from ._engine import caller_location

    loc = caller_location()
    return (loc.get("file", ""), loc.get("line", 0))
