"""The Python side of the in-process interpreter (native/sofats_python.c): CPython embedded in the
engine's process, on the engine's thread, speaking the same frames as the two-process mode.

The engine calls `exchange(frames)`; Python serves them and returns its answer frames. A request of
Python's own (a Data read inside a handler) is `_sofats_native.to_engine(frames)`: the engine serves
it while the handler waits, and returns its answer. So a controller's event is two function calls.

createScene runs on a thread of its own (the builder): the engine's answer to one of its requests
may wait for something asynchronous (an npm plugin's code loading), and the engine can only wait for
it with Python's call returned. While the builder runs, `exchange` relays frames between the engine
and the builder through two queues, as the pipes of the two-process mode do; the engine's `direct`
request ends the builder, and from then on the engine's thread serves everything itself.
"""

import atexit
import gc
import os
import queue
import sys
import threading

import _sofats_native as _native

from . import _engine

_channel = None
_HEAD = _engine._HEAD
_REV = _engine._REV
_EVENT_FRAME = _engine._BINARY | _engine._EVENT


class InProcessChannel(_engine._Channel):
    """The channel of _engine.py with function calls for reads and a list for writes."""

    def __init__(self):
        super().__init__(-1, -1)
        self.poll_fd = -1
        self.out = []
        self.closed = False
        self.started = False
        # the builder thread (createScene), while it runs, and its two queues
        self.builder = None
        self.to_builder = queue.SimpleQueue()
        self.from_builder = queue.SimpleQueue()
        self.go_direct = False

    def send_raw(self, data):
        if self.closed:
            raise _engine.EngineError("the sofa-ts engine closed the channel")
        self.out.append(bytes(data))

    def take_out(self):
        data = b"".join(self.out)
        self.out = []
        return data

    def _read(self, n):
        data = self.take_out()
        if self.builder is not None and threading.current_thread() is self.builder:
            self.from_builder.put(data)
            got = self.to_builder.get()
        elif self.closed:
            got = None
        else:
            try:
                got = _native.to_engine(data)
            except RuntimeError as e:
                raise _engine.EngineError(str(e)) from None
        if not got:
            raise _engine.EngineError("the sofa-ts engine closed the channel")
        return got

    def close(self):
        self.closed = True


def _serve_pending(eng, ch, until_direct=False):
    """Serves the engine's frames: those received (direct), or all of them until `direct` (builder)."""
    while ch.pending or until_direct and not ch.go_direct:
        kind, header, blobs = ch.receive()
        if kind == _engine._EVENT:
            eng._seen(_engine._REV.unpack_from(header, 8))
            eng._serve_event(header)
        elif kind:
            raise _engine.EngineError("unexpected binary frame %d from the engine" % kind)
        else:
            eng._seen(tuple(header.get("rev") or ()))
            if header.get("t") != "call":
                raise _engine.EngineError("unexpected frame %r from the engine" % header.get("t"))
            eng._serve(header, blobs)


def _build(ch):
    """The builder thread: greets the engine, then serves it (createScene) until `direct`."""
    try:
        eng = _engine.engine()
        eng.handlers["direct"] = lambda a, blobs: _direct(ch)
        _serve_pending(eng, ch, until_direct=True)
    except (SystemExit, KeyboardInterrupt, _engine.EngineError):
        # the script ended the interpreter (its error report is already in the answer), or the engine went
        ch.closed = True
    except BaseException:  # noqa: B902 - a failure of this package itself: said, and the channel ends
        import traceback

        traceback.print_exc()
        ch.closed = True
    finally:
        ch.builder = None
        ch.from_builder.put(ch.take_out())


def _direct(ch):
    ch.go_direct = True
    return None


def exchange(data):
    """The engine's frames in, Python's answers out (b'' once the interpreter's session ended)."""
    ch = _channel
    if ch is None:
        return b""
    if not ch.started:
        ch.started = True
        ch.builder = threading.Thread(target=_build, args=(ch,), name="sofa-ts createScene", daemon=True)
        ch.builder.start()
        return ch.from_builder.get()
    if ch.builder is not None:
        ch.to_builder.put(data)
        return ch.from_builder.get()
    if ch.closed:
        return b""
    if not ch.pending and len(data) > 24:
        # the step's common case first: one controller event, served without the general reader
        (n, h) = _HEAD.unpack_from(data, 0)
        if h == _EVENT_FRAME and n + 4 == len(data):
            eng = _engine._engine
            try:
                eng._seen(_REV.unpack_from(data, 8))
                eng._serve_event(data)
            except (SystemExit, KeyboardInterrupt):
                ch.closed = True
            return ch.take_out()
    ch.pending += data
    try:
        _serve_pending(_engine.engine(), ch)
    except (SystemExit, KeyboardInterrupt):
        ch.closed = True
    return ch.take_out()


def _tracking(change):
    """os.chdir and os.fchdir that tell the engine (it switches the process's folder to Python's
    own each time Python runs, and back: the engine keeps its own working directory)."""
    def changed(*args, **kwargs):
        change(*args, **kwargs)
        _native.python_cwd_changed()
    changed.__name__ = change.__name__
    changed.__doc__ = change.__doc__
    changed.__wrapped__ = change
    return changed


if not hasattr(os.chdir, "__wrapped__"):
    os.chdir = _tracking(os.chdir)
    os.fchdir = _tracking(os.fchdir)


def _accelerate():
    """Data.value inside a handler, in C (the getter's prefetched scalars, the setter's record of
    a float, a list of floats or a float64 array, and the script's line): what a controller does
    ten times a step. Everything else goes to the Python property, which the C code calls."""
    from . import Core, _values
    if getattr(Core.Data, "_python_value", None) is not None:
        return
    try:
        import numpy
        ndarray = numpy.ndarray
    except ImportError:
        ndarray = None
    python = Core.Data.value
    _native.accelerate(_engine, _values, python.fget, python.fset, ndarray)
    Core.Data._python_value = python
    Core.Data.value = property(_native.data_get, _native.data_set, None, python.__doc__)


def begin(paths):
    """A new session: a fresh channel and engine; the session's folders first on sys.path."""
    global _channel
    close()
    _accelerate()
    for p in reversed(paths):
        if p in sys.path:
            sys.path.remove(p)
        sys.path.insert(0, p)
    _channel = InProcessChannel()
    _channel.modules_before = set(sys.modules)
    _engine.IN_PROCESS = _channel
    return None


def close():
    """The session ends: its channel closed (a builder still waiting ends), the engine forgotten."""
    global _channel
    ch = _channel
    if ch is not None:
        ch.closed = True
        if ch.builder is not None:
            ch.to_builder.put(None)
    _channel = None
    _engine.IN_PROCESS = None
    _engine._engine = None
    if ch is not None:
        _forget_scene_modules(ch.modules_before)
    # what the session's objects wrote is flushed before they go: a file in a reference cycle
    # (a controller that holds it and is held by the scene) is closed by the collector after the
    # descriptor under it, and its buffer lost
    _engine.flush_all_files()
    gc.collect()
    _engine.flush_all_files()
    return None


def _forget_scene_modules(before):
    """The modules a session imported from the scene's folders (its script, its helpers, STLIB on
    --python-path) are forgotten, so that the next scene imports its own: two scenes' `utils.py`
    are two modules, as with a python3 per scene. Those of the Python installation (the standard
    library, site packages: numpy cannot be imported twice) and this package stay."""
    import site
    keep = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    keep += [p for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix} if p]
    try:
        keep += site.getsitepackages() + [site.getusersitepackages()]
    except Exception:
        pass
    keep = tuple(os.path.join(os.path.abspath(p), "") for p in keep)
    for name in [n for n in sys.modules if n not in before]:
        f = getattr(sys.modules[name], "__file__", None)
        if f and not os.path.abspath(f).startswith(keep):
            del sys.modules[name]


def shutdown():
    """The engine's process exits (CPython is not finalised: a thread a scene left running would be
    waited for): the scripts' atexit functions run, and every open file is flushed."""
    close()
    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: B902 - an atexit function's failure is printed by atexit itself
        pass
    _engine.flush_all_files()
    return None
