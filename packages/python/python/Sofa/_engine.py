"""The channel to the sofa-ts engine, and the loop that serves the engine's calls.

Two ways in. Under `sofa-ts run scene.py` the engine started this interpreter and gave it two named
pipes (SOFATS_CHANNEL); in a Python program that does `import Sofa`, the first request starts the
engine (`node .../dist/server.js`) with two pipes of its own. Either way every request is answered
before the caller goes on: a Data read from a controller inside a step is served by the engine
while the step waits, and the engine's calls into Python (createScene, a controller's handler) are
served here while Python waits for an answer of its own.

A frame is `u32 n | u32 h | header (h bytes of UTF-8 JSON) | blobs`, little-endian, n counting all
that follows it; the header's "b" lists the byte sizes of the blobs (raw float64 arrays). The
per-step traffic (a controller's event and its answer, a Data read from a handler) goes in binary
frames instead, marked by the top bit of the second word (their fields: wire-binary.ts).
"""

import atexit
import json
import os
import struct
import subprocess
import sys
import traceback
from time import perf_counter as _clock

from . import _values

_HERE = os.path.dirname(os.path.abspath(__file__))


class EngineError(RuntimeError):
    """The engine cannot be reached (it exited, or could not start)."""


_U32 = struct.Struct("<I")
_HEAD = struct.Struct("<II")
_REV = struct.Struct("<dd")
_F64 = struct.Struct("<d")
_BINARY = 0x80000000
_EVENT, _EVENT_RET, _GET, _VALUE = 1, 2, 3, 4

# How long a read polls the pipe before it blocks (s) when python3 waits for the answer to its own
# request (a Data read after a write, from a handler: the engine answers within µs): a python3
# blocked in read and woken by the kernel costs tens of µs on an idle machine, a polling one a few.
# Only there: a read that waits for the engine's next call (the next step's event) blocks, as
# polling through a step slows it on a busy machine (measured: a 1 ms poll made the finger bench's
# event 1.6x slower under load, and a 50 µs poll after each answer 1.8x: the engine, woken on
# python3's core, waits for the poll to end).
AWAIT_POLL = 200e-6
_yield = getattr(os, "sched_yield", lambda: None)

# The channel of the in-process interpreter (_inprocess.py), when the engine embeds this one.
IN_PROCESS = None


class _Channel:
    def __init__(self, rfd, wfd):
        self.rfd = rfd
        self.wfd = wfd
        # bytes received past the last frame
        self.pending = b""
        # a non-blocking descriptor of the same pipe, polled before a read blocks (None: not opened,
        # -1: none on this system), and how long the next receive polls (s)
        self.poll_fd = None
        self.poll_for = 0.0

    def send(self, header, blobs=()):
        if blobs:
            header = dict(header)
            header["b"] = [len(b) for b in blobs]
        h = json.dumps(header, allow_nan=False, separators=(",", ":")).encode("utf-8")
        n = 4 + len(h) + sum(len(b) for b in blobs)
        parts = [_HEAD.pack(n, len(h)), h]
        parts.extend(blobs)
        self.send_raw(b"".join(parts))

    def send_binary(self, kind, body):
        """A binary frame: its kind, then its fields (bytes)."""
        self.send_raw(_HEAD.pack(4 + len(body), _BINARY | kind) + body)

    def send_raw(self, data):
        try:
            k = os.write(self.wfd, data)
            if k < len(data):
                view = memoryview(data)[k:]
                while view:
                    k = os.write(self.wfd, view)
                    view = view[k:]
        except (BrokenPipeError, OSError) as e:
            raise EngineError("the sofa-ts engine closed the channel (%s)" % e) from None

    def _read(self, n):
        if self.poll_for > 0:
            b = self._poll(n, self.poll_for)
            self.poll_for = 0.0
            if b is not None:
                return b
        try:
            b = os.read(self.rfd, n)
        except OSError as e:
            raise EngineError("reading from the sofa-ts engine failed: %s" % e) from None
        if not b:
            raise EngineError("the sofa-ts engine closed the channel")
        return b

    def _poll(self, n, seconds):
        """Polls the pipe for up to `seconds` (yielding the core to any other runnable thread
        between tries); None when nothing came, and the read blocks. Linux opens the pipe a
        second time, non-blocking, from /proc/self/fd; elsewhere reads block at once."""
        fd = self.poll_fd
        if fd is None:
            try:
                fd = os.open("/proc/self/fd/%d" % self.rfd, os.O_RDONLY | os.O_NONBLOCK)
            except OSError:
                fd = -1
            self.poll_fd = fd
        if fd < 0:
            return None
        until = _clock() + seconds
        while True:
            try:
                b = os.read(fd, n)
            except BlockingIOError:
                if _clock() > until:
                    return None
                _yield()
                continue
            except OSError:
                return None
            return b if b else None

    def receive(self):
        """The next frame: (0, header, blobs) for a JSON frame, (kind, data, 8) for a binary one
        (its fields from data[8]; data starts at the frame, so that arrays in it are aligned).
        What the pipe holds is read at once: a frame comes in one system call."""
        data = self.pending or self._read(1 << 16)
        while len(data) < 8:
            data += self._read(1 << 16)
        (n, h) = _HEAD.unpack_from(data, 0)
        if len(data) < 4 + n:
            chunks = [data]
            got = len(data)
            while got < 4 + n:
                b = self._read(4 + n - got)
                chunks.append(b)
                got += len(b)
            data = b"".join(chunks)
        if len(data) > 4 + n:
            self.pending = data[4 + n:]
            data = data[:4 + n]
        else:
            self.pending = b""
        if h & _BINARY:
            return h & 0xFF, data, 8
        header = json.loads(data[8:8 + h])
        blobs = []
        o = 8 + h
        for k in header.get("b", ()):
            blobs.append(data[o:o + k])
            o += k
        return 0, header, blobs

    def close(self):
        if self.poll_fd is not None and self.poll_fd >= 0:
            os.close(self.poll_fd)
        self.poll_fd = -1
        for fd in {self.rfd, self.wfd}:
            try:
                os.close(fd)
            except OSError:
                pass


class Engine:
    """The connection: requests to the engine, and the engine's calls served while waiting."""

    def __init__(self):
        self.process = None
        self.embedded = IN_PROCESS is not None or "SOFATS_CHANNEL" in os.environ
        self.rev = None
        # Python objects the engine calls back (controllers), by handle
        self.pyobjects = {}
        self._next_py = 1
        # callbacks for the engine's calls into Python, by name
        self.handlers = {}
        if IN_PROCESS is not None:
            self.channel = IN_PROCESS
        elif self.embedded:
            to_engine, to_python = os.environ["SOFATS_CHANNEL"].split("\n")
            wfd = os.open(to_engine, os.O_WRONLY)
            rfd = os.open(to_python, os.O_RDONLY)
            self.channel = _Channel(rfd, wfd)
        else:
            self.channel = self._start()
        # attribute caches of proxies are valid for one graph revision
        self.caches = []
        # inside a controller's handler: the Data values the engine sent with the event (key ->
        # (frame, offset)), the Data read (the engine prefetches them next time), the writes not yet
        # sent (binary records); per (controller, handler), the reads reported to the engine
        self.handler_depth = 0
        self.prefetch = {}
        self.reads = []
        self.writes = []
        self.readsets = {}

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

    def _seen(self, rev):
        if rev != self.rev:
            self.rev = rev
            for p in self.caches:
                p._forget()

    def write_later(self, record):
        """A Data write from a handler (its binary record): it goes with the next message to the engine."""
        self.writes.append(record)
        # a write may change what other Data show (links, engines): read them again
        self.prefetch.clear()

    def _writes_section(self):
        """The pending writes, as a frame carries them (and forgotten here)."""
        w = self.writes
        if not w:
            return b"\0\0\0\0"
        self.writes = []
        return _U32.pack(len(w)) + b"".join(w)

    def _take_writes(self, header, blobs):
        """Puts the pending writes in front of a JSON message (its first blob, `wb`; applied by the engine first)."""
        if not self.writes:
            return header, list(blobs)
        header = dict(header)
        header["wb"] = True
        if blobs:
            _shift_blobs(header.get("a") or {}, 1)
        return header, [self._writes_section()] + list(blobs)

    def call(self, op, a=None, blobs=()):
        """A request to the engine; the engine's own calls are served until it answers."""
        if self.channel is None:
            raise EngineError("the sofa-ts engine was closed")
        self.prefetch.clear()
        header, blobs = self._take_writes({"t": "call", "op": op, "a": a or {}}, blobs)
        self.channel.send(header, blobs)
        self.channel.poll_for = AWAIT_POLL
        return self._await("ret")

    def get(self, wkey, type_name):
        """A Data's value (`wkey`: its owner and name in binary), the pending writes applied first."""
        if self.channel is None:
            raise EngineError("the sofa-ts engine was closed")
        self.channel.send_binary(_GET, self._writes_section() + wkey)
        self.channel.poll_for = AWAIT_POLL
        data = self._await(_VALUE)
        return _values.read_value(data, 24, type_name)

    def _await(self, answer):
        """Serves the engine's calls until it answers: a JSON `ret` (header's value, blobs) or the
        binary frame of kind `answer` (its data)."""
        while True:
            kind, header, inblobs = self.channel.receive()
            if kind:
                self._seen(_REV.unpack_from(header, 8))
                if kind == answer:
                    return header
                if kind == _EVENT:
                    self._serve_event(header)
                    continue
                raise EngineError("unexpected binary frame %d from the engine" % kind)
            self._seen(tuple(header.get("rev") or ()))
            t = header.get("t")
            if t == "ret" and answer == "ret":
                return header.get("a"), inblobs
            if t == "err":
                raise _engine_exception(header.get("a") or {})
            if t == "call":
                self._serve(header, inblobs)
            else:
                raise EngineError("unexpected answer %r from the engine" % t)

    def serve_forever(self):
        """Under `sofa-ts run`: answer the engine's calls until it closes the channel."""
        while True:
            try:
                kind, header, blobs = self.channel.receive()
            except EngineError:
                return
            if kind == _EVENT:
                self._seen(_REV.unpack_from(header, 8))
                self._serve_event(header)
                continue
            if kind:
                continue
            self._seen(tuple(header.get("rev") or ()))
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
            self._failed(e)

    def _failed(self, e):
        self.writes = []
        self.channel.send({"t": "err", "a": python_error_report(e)})
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise e

    def _serve_event(self, data):
        """A controller's handler called with an event (binary EVENT frame, answered by EVENT_RET).
        The engine sends, with the event, the values of the Data the handler read last time; the
        handler's reads are answered from them (no round trip) until something is written or asked
        of the engine, and its writes go back with the answer, with the Data it read when that
        changed (the engine sends those next time)."""
        t0 = _clock()
        try:
            out = _handle_event(self, data)
        except EngineError:
            raise
        except BaseException as e:  # noqa: B902 - every Python failure goes back to the engine, located
            self._failed(e)
            return
        out = self._writes_section() + out
        self.channel.send_binary(_EVENT_RET, out + _F64.pack(_clock() - t0))


def _read_str(data, off):
    (n,) = _U32.unpack_from(data, off)
    return data[off + 4:off + 4 + n].decode("utf-8"), off + 4 + n


def _handle_event(eng, data):
    (obj_id,) = _U32.unpack_from(data, 24)
    method, off = _read_str(data, 28)
    etype, off = _read_str(data, off)
    event = {"type": etype, "isHandled": data[off] != 0}
    extra = data[off + 1]
    off += 2
    if extra == 1:
        event["dt"] = _F64.unpack_from(data, off)[0]
        off += 8
    elif extra == 2:
        event["key"], off = _read_str(data, off)
    (m,) = _U32.unpack_from(data, off)
    off += 4
    known = eng.readsets.get((obj_id, method), ())
    sent = []
    prefetch = {}
    for _ in range(m):
        (slot, n) = _HEAD.unpack_from(data, off)
        key = known[slot]
        sent.append(key)
        prefetch[key] = (data, off + 8)
        off += 8 + n
    obj = eng.pyobjects[obj_id]
    outer = (eng.prefetch, eng.reads)
    eng.prefetch = prefetch
    eng.reads = reads = []
    eng.handler_depth += 1
    try:
        result = getattr(obj, method)(event)
    finally:
        eng.handler_depth -= 1
        eng.prefetch, eng.reads = outer
    handled = b"\1" if result is not None and bool(result) else b"\0"
    if len(reads) == len(sent) and reads == sent:
        return handled + b"\0"
    unique = list(dict.fromkeys(reads))[:64]
    if unique == sent:
        return handled + b"\0"
    eng.readsets[(obj_id, method)] = unique
    parts = [handled, b"\1", _U32.pack(len(unique))]
    for (owner, name) in unique:
        parts.append(_U32.pack(owner))
        parts.append(_values.wire_str(name))
    return b"".join(parts)


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


def flush_all_files():
    """Flushes every open file object of the interpreter, then its stdout and stderr: a file in a
    reference cycle (a controller that holds it and is held by the scene) is closed by the
    collector, or the interpreter's end, after the descriptor under it, and its buffer lost."""
    import gc
    import io

    for f in [o for o in gc.get_objects() if isinstance(o, io.IOBase)] + [sys.stdout, sys.stderr]:
        try:
            if not f.closed:
                f.flush()
        except Exception:
            pass


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
_encoded = {}
_NOWHERE = b"\0\0\0\0\0\0\0\0"


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


def encoded_file(name):
    """A code object's file as a handler's write record carries it (b"" for this package's own
    files, which a record skips), made once per file name."""
    enc = _encoded.get(name)
    if enc is None:
        fn = os.path.abspath(name)
        enc = _encoded[name] = b"" if fn.startswith(_ROOT) else _values.wire_str(fn)
    return enc


def caller_record():
    """caller_location in binary (file, line), as a handler's write carries it; called by the Data
    setter (whose frame is skipped). The in-process interpreter's setter does the same in C
    (native/sofats_python.c, caller_record)."""
    f = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_filename
        enc = _encoded.get(name)
        if enc is None:
            enc = encoded_file(name)
        if enc:
            return enc + _U32.pack(f.f_lineno)
        f = f.f_back
    return _NOWHERE
