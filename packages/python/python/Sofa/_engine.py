"""The channel to the sofa-ts engine, and the loop that serves the engine's calls.

Two ways in. Under `sofa-ts run scene.py` the engine started this interpreter and gave it two named
pipes (SOFATS_CHANNEL); in a Python program that does `import Sofa`, the first request starts the
engine (`node .../dist/server.js`) with two pipes of its own. Either way every request is answered
before the caller goes on: a Data read from a controller inside a step is served by the engine
while the step waits, and the engine's calls into Python (createScene, a controller's handler) are
served here while Python waits for an answer of its own.

A frame is `u32 n | u32 h | header (h bytes of UTF-8 JSON) | blobs`, little-endian, n counting all
that follows it; the header's "b" lists the byte sizes of the blobs (raw float64 arrays).
"""

import atexit
import json
import os
import struct
import subprocess
import sys
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))


class EngineError(RuntimeError):
    """The engine cannot be reached (it exited, or could not start)."""


class _Channel:
    def __init__(self, rfd, wfd):
        self.rfd = rfd
        self.wfd = wfd

    def send(self, header, blobs=()):
        if blobs:
            header = dict(header)
            header["b"] = [len(b) for b in blobs]
        h = json.dumps(header, allow_nan=False, separators=(",", ":")).encode("utf-8")
        n = 4 + len(h) + sum(len(b) for b in blobs)
        parts = [struct.pack("<II", n, len(h)), h]
        parts.extend(blobs)
        data = b"".join(parts)
        view = memoryview(data)
        try:
            while view:
                k = os.write(self.wfd, view)
                view = view[k:]
        except (BrokenPipeError, OSError) as e:
            raise EngineError("the sofa-ts engine closed the channel (%s)" % e) from None

    def _read(self, n):
        chunks = []
        while n > 0:
            try:
                b = os.read(self.rfd, n)
            except OSError as e:
                raise EngineError("reading from the sofa-ts engine failed: %s" % e) from None
            if not b:
                raise EngineError("the sofa-ts engine closed the channel")
            chunks.append(b)
            n -= len(b)
        return b"".join(chunks)

    def receive(self):
        (n,) = struct.unpack("<I", self._read(4))
        body = self._read(n)
        (h,) = struct.unpack_from("<I", body, 0)
        header = json.loads(body[4:4 + h].decode("utf-8"))
        blobs = []
        o = 4 + h
        for k in header.get("b", ()):
            blobs.append(body[o:o + k])
            o += k
        return header, blobs

    def close(self):
        for fd in {self.rfd, self.wfd}:
            try:
                os.close(fd)
            except OSError:
                pass


class Engine:
    """The connection: requests to the engine, and the engine's calls served while waiting."""

    def __init__(self):
        self.process = None
        self.embedded = "SOFATS_CHANNEL" in os.environ
        self.rev = None
        # Python objects the engine calls back (controllers), by handle
        self.pyobjects = {}
        self._next_py = 1
        # callbacks for the engine's calls into Python, by name
        self.handlers = {}
        if self.embedded:
            to_engine, to_python = os.environ["SOFATS_CHANNEL"].split("\n")
            wfd = os.open(to_engine, os.O_WRONLY)
            rfd = os.open(to_python, os.O_RDONLY)
            self.channel = _Channel(rfd, wfd)
        else:
            self.channel = self._start()
        # attribute caches of proxies are valid for one graph revision
        self.caches = []
        # inside a controller's handler: the Data values the engine sent with the event, the Data
        # read (the engine prefetches them next time), writes not yet sent
        self.handler_depth = 0
        self.prefetch = {}
        self.reads = []
        self.writes = []
        self.write_blobs = []

    def _start(self):
        node = os.environ.get("SOFATS_NODE", "node")
        server = os.environ.get("SOFATS_SERVER") or os.path.normpath(os.path.join(_HERE, "..", "..", "dist", "server.js"))
        if not os.path.isfile(server):
            raise EngineError("the sofa-ts engine is not built: %s is missing (run `npm ci` in the sofa-ts checkout)" % server)
        r_py, w_engine = os.pipe()     # engine -> python
        r_engine, w_py = os.pipe()     # python -> engine
        env = dict(os.environ)
        env["SOFATS_SERVER_FDS"] = "%d,%d" % (r_engine, w_engine)
        try:
            # its own session: Ctrl-C in this program is Python's KeyboardInterrupt, not the engine's end
            self.process = subprocess.Popen([node, server], pass_fds=(r_engine, w_engine), env=env,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as e:
            for fd in (r_py, w_engine, r_engine, w_py):
                os.close(fd)
            raise EngineError("cannot start the sofa-ts engine with %r: %s (set SOFATS_NODE to a Node.js 20 executable)" % (node, e)) from None
        os.close(r_engine)
        os.close(w_engine)
        atexit.register(self.close)
        return _Channel(r_py, w_py)

    def close(self):
        if self.channel is None:
            return
        try:
            if not self.embedded:
                self.channel.send({"t": "call", "op": "bye", "a": {}})
                self.channel.receive()
        except Exception:
            pass
        self.channel.close()
        self.channel = None
        if self.process is not None:
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def register(self, obj):
        k = self._next_py
        self._next_py += 1
        self.pyobjects[k] = obj
        return k

    def _seen(self, header):
        rev = header.get("rev")
        if rev != self.rev:
            self.rev = rev
            for c in self.caches:
                c.clear()

    def write_later(self, a, blobs):
        """A Data write from a handler: it goes with the next message to the engine."""
        _shift_blobs(a, len(self.write_blobs))
        self.write_blobs.extend(blobs)
        self.writes.append(a)
        # a write may change what other Data show (links, engines): read them again
        self.prefetch.clear()

    def _take_writes(self, header, blobs):
        """Puts the pending writes in front of a message (`w`, applied by the engine first)."""
        if not self.writes:
            return header, list(blobs)
        header = dict(header)
        header["w"] = self.writes
        out = self.write_blobs + list(blobs)
        if blobs:
            _shift_blobs(header.get("a") or {}, len(self.write_blobs))
        self.writes = []
        self.write_blobs = []
        return header, out

    def call(self, op, a=None, blobs=()):
        """A request to the engine; the engine's own calls are served until it answers."""
        if self.channel is None:
            raise EngineError("the sofa-ts engine was closed")
        if op != "dataGet":
            self.prefetch.clear()
        header, blobs = self._take_writes({"t": "call", "op": op, "a": a or {}}, blobs)
        self.channel.send(header, blobs)
        while True:
            header, inblobs = self.channel.receive()
            self._seen(header)
            t = header.get("t")
            if t == "ret":
                return header.get("a"), inblobs
            if t == "err":
                raise _engine_exception(header.get("a") or {})
            self._serve(header, inblobs)

    def serve_forever(self):
        """Under `sofa-ts run`: answer the engine's calls until it closes the channel."""
        while True:
            try:
                header, blobs = self.channel.receive()
            except EngineError:
                return
            self._seen(header)
            if header.get("t") == "call":
                self._serve(header, blobs)

    def _serve(self, header, blobs):
        op = header.get("op")
        fn = self.handlers.get(op)
        try:
            if fn is None:
                raise RuntimeError("the engine asked for %r, which this Sofa package does not know" % op)
            result = fn(header.get("a") or {}, blobs)
            h, b = self._take_writes({"t": "ret", "a": _json_safe(result)}, ())
            self.channel.send(h, b)
        except EngineError:
            raise
        except BaseException as e:  # noqa: B902 - every Python failure goes back to the engine, located
            self.writes = []
            self.write_blobs = []
            self.channel.send({"t": "err", "a": python_error_report(e)})
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise


def _shift_blobs(v, k):
    """Renumbers the blob references of a message part by k (blobs of several parts are appended)."""
    if k == 0:
        return
    if isinstance(v, dict):
        if "$b" in v:
            v["$b"] += k
        for x in v.values():
            if isinstance(x, (dict, list)):
                _shift_blobs(x, k)
    elif isinstance(v, list):
        for x in v:
            _shift_blobs(x, k)


def python_error_report(e):
    """The exception for the engine: type, message, the traceback of the scene's own frames (those
    of this package and of importlib left out), and where it was raised in the scene's code."""
    ours = os.path.dirname(_HERE) + os.sep
    frames = [fr for fr in traceback.extract_tb(e.__traceback__)
              if not os.path.abspath(fr.filename).startswith(ours) and not fr.filename.startswith("<frozen")]
    text = "".join(traceback.format_list(frames)) + "".join(traceback.format_exception_only(type(e), e))
    if frames:
        text = "Traceback (most recent call last):\n" + text
    file, line = "", 0
    if isinstance(e, SyntaxError) and e.filename:
        file, line = os.path.abspath(e.filename), e.lineno or 1
    elif frames:
        file, line = os.path.abspath(frames[-1].filename), frames[-1].lineno
    return {"type": type(e).__name__, "message": str(e), "traceback": text, "file": file, "line": line}


_KINDS = {"TypeError": TypeError, "AttributeError": AttributeError, "ValueError": ValueError}


def _engine_exception(a):
    return _KINDS.get(a.get("kind"), ValueError)(a.get("message", "the engine refused the request"))


def _json_safe(v):
    if isinstance(v, float) and v != v:
        return {"$f": "nan"}
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return {"$f": "inf" if v > 0 else "-inf"}
    return v


_engine = None


def engine():
    """The connection, opened at the first request."""
    global _engine
    if _engine is None:
        _engine = Engine()
        from . import _handlers  # noqa: F401 - registers the engine's calls into Python
        _handlers.install(_engine)
        try:
            import numpy  # noqa: F401
            has_numpy = True
        except ImportError:
            has_numpy = False
        _engine.call("hello", {"numpy": has_numpy, "python": sys.version.split()[0]})
    return _engine


_ROOT = os.path.dirname(_HERE) + os.sep
_absolute = {}


def caller_location():
    """The file and line of the scene code that called into this package (paths made absolute
    once per file: a handler's writes each carry their line)."""
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        fn = _absolute.get(name)
        if fn is None:
            fn = _absolute[name] = os.path.abspath(name)
        if not fn.startswith(_ROOT):
            return {"file": fn, "line": f.f_lineno}
        f = f.f_back
    return {}
