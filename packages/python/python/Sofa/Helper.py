"""Sofa.Helper: SOFA's messages (msg_info, msg_warning, msg_error, msg_deprecated), located at the
calling line of the script and reported by sofa-ts with the scene's other messages."""

from ._engine import caller_location, engine


def _emit(level, args):
    if len(args) == 1:
        emitter, text = None, args[0]
    elif len(args) >= 2:
        emitter, text = args[0], " ".join(str(a) for a in args[1:])
    else:
        raise TypeError("msg_%s(emitter, message) or msg_%s(message)" % (level, level))
    if emitter is not None and not isinstance(emitter, str):
        try:
            emitter = "%s '%s'" % (type(emitter).__name__, emitter.getName())
        except Exception:
            emitter = type(emitter).__name__
    a = dict(caller_location(), level=level, text=str(text))
    if emitter:
        a["emitter"] = emitter
    engine().call("msg", a)


def msg_info(*args):
    _emit("info", args)


def msg_warning(*args):
    _emit("warning", args)


def msg_error(*args):
    _emit("error", args)


def msg_deprecated(*args):
    _emit("deprecated", args)


def msg_fatal(*args):
    _emit("error", args)
