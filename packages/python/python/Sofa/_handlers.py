"""The engine's calls into Python: build the scene (createScene), a controller's method (its event
handlers are called by the binary EVENT frame: _engine.py)."""

import importlib.util
import os
import sys

from . import _values


def install(eng):
    eng.handlers["createScene"] = _create_scene
    eng.handlers["method"] = lambda a, blobs: _method(eng, a)


def _method(eng, a):
    obj = eng.pyobjects[a["obj"]]
    eng.handler_depth += 1
    try:
        getattr(obj, a["method"])()
    finally:
        eng.handler_depth -= 1
    return None


def _create_scene(a, blobs):
    """Runs the scene script's createScene(root): the script is imported as a module named after
    its file (not __main__, so that its `if __name__ == '__main__':` part does not run), with its
    folder as working directory and first on sys.path, as SofaPython3's scene loader does."""
    from . import Core

    path = os.path.abspath(a["file"])
    folder = os.path.dirname(path)
    os.chdir(folder)
    extra = [os.path.abspath(p) for p in a.get("pythonPath", [])]
    for p in reversed([folder] + extra):
        if p in sys.path:
            sys.path.remove(p)
        sys.path.insert(0, p)
    sys.argv = [path] + list(a.get("argv", []))
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot load %s as a Python module" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    create = getattr(module, "createScene", None)
    if create is None:
        raise AttributeError("%s defines no createScene(rootNode) function" % path)
    root = Core.Node._wrap(a["root"])
    create(root)
    return None
