"""Values between Python and the engine, with SofaPython3's conversions.

Keyword arguments of addObject become SOFA attribute strings as SofaPython3 makes them: lists
(nested too) joined by spaces, numpy arrays through tolist(), a Data as its value's text, strings
as they are, anything else through repr (booleans 'True', floats in their shortest round-trip
form, which the engine parses back to the same double). Data values cross as raw float64.
"""

import array
import struct

try:
    import numpy as _np
except ImportError:  # numpy is optional: values are then plain lists
    _np = None


def has_numpy():
    return _np is not None


def sofa_string(v, link_of=None):
    """The attribute text SofaPython3 makes of a keyword argument's value."""
    if isinstance(v, (list, tuple)):
        return " ".join(sofa_string(e, link_of) for e in v)
    if isinstance(v, str):
        return v
    if link_of is not None:
        s = link_of(v)
        if s is not None:
            return s
    if _np is not None:
        if isinstance(v, _np.ndarray):
            return sofa_string(v.tolist(), link_of)
        if isinstance(v, _np.generic):
            return sofa_string(v.item(), link_of)
    return repr(v)


def _flat_numbers(v, out):
    """Appends the numbers of a (nested) sequence; False when something is not a number."""
    for e in v:
        if isinstance(e, (list, tuple)):
            if not _flat_numbers(e, out):
                return False
        elif isinstance(e, bool):
            out.append(1.0 if e else 0.0)
        elif isinstance(e, (int, float)):
            out.append(float(e))
        elif _np is not None and isinstance(e, (_np.generic, _np.ndarray)):
            out.extend(float(x) for x in _np.asarray(e, dtype=float).ravel())
        else:
            return False
    return True


def wire_input(v):
    """(header value, blobs) for a value written into a Data."""
    if isinstance(v, str):
        return {"text": v}, []
    if isinstance(v, bool) or (_np is not None and isinstance(v, _np.bool_)):
        return {"bool": bool(v)}, []
    if isinstance(v, (int, float)) or (_np is not None and isinstance(v, _np.number)):
        return {"num": _num(float(v) if not isinstance(v, int) else v)}, []
    if _np is not None and isinstance(v, _np.ndarray):
        if v.dtype.kind in "biuf":
            a = _np.ascontiguousarray(v, dtype="<f8")
            return {"array": {"$b": 0, "shape": list(a.shape)}}, [a.tobytes()]
        return {"text": sofa_string(v)}, []
    if isinstance(v, (list, tuple)):
        if all(isinstance(e, str) for e in v) and v:
            return {"strings": list(v)}, []
        nums = []
        if _flat_numbers(v, nums):
            return {"array": {"$b": 0, "shape": [len(nums)]}}, [array.array("d", nums).tobytes()]
        return {"text": sofa_string(v)}, []
    return {"text": sofa_string(v)}, []


def _num(x):
    if isinstance(x, float):
        if x != x:
            return {"$f": "nan"}
        if x in (float("inf"), float("-inf")):
            return {"$f": "inf" if x > 0 else "-inf"}
    return x


def _number(v):
    if isinstance(v, dict) and "$f" in v:
        return {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}[v["$f"]]
    return v


_DTYPES = {"f8": ("<f8", "d"), "u4": ("<u4", "I"), "i4": ("<i4", "i")}


def from_wire(v, blobs, type_name=""):
    """The Python value of a Data: numpy arrays (read-only) for vectors, float/int/bool/str for scalars."""
    if isinstance(v, dict):
        if "$b" in v:
            blob = blobs[v["$b"]]
            shape = tuple(v["shape"])
            np_dtype, code = _DTYPES[v["dtype"]]
            if _np is not None:
                a = _np.frombuffer(blob, dtype=np_dtype).reshape(shape)
                return a  # frombuffer over bytes: read-only, as SofaPython3's value
            flat = array.array(code)
            flat.frombytes(blob)
            if struct.pack("=I", 1) != struct.pack("<I", 1):
                flat.byteswap()
            lst = flat.tolist()
            if len(shape) == 2:
                k = shape[1]
                return [lst[i:i + k] for i in range(0, len(lst), k)]
            return lst
        if "$f" in v:
            return _number(v)
    if isinstance(v, list):
        return [from_wire(e, blobs) for e in v]
    if type_name in ("double", "float") and isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    return v


def writeable_copy(value):
    """A writeable array of a value (for `with data.writeable() as a:`)."""
    if _np is not None and isinstance(value, _np.ndarray):
        return _np.array(value, copy=True)
    if isinstance(value, list):
        return [list(e) if isinstance(e, list) else e for e in value]
    return value


# ---- binary values (the per-step frames: _engine.py, wire-binary.ts on the engine's side) ----------

_U32 = struct.Struct("<I")
_F64 = struct.Struct("<d")
_BIG_ENDIAN = struct.pack("=I", 1) != struct.pack("<I", 1)
# value tags (engine -> Python)
_V_FLOAT, _V_INT, _V_BOOL, _V_ARRAY, _V_JSON = range(5)
_ARRAY_DTYPES = (("<f8", "d", 8), ("<u4", "I", 4), ("<i4", "i", 4))
# write tags (Python -> engine)
_W_NUM, _W_BOOL, _W_ARRAY, _W_TEXT, _W_STRINGS, _W_FROM = (bytes((k,)) for k in range(6))
_REAL_TYPES = ("double", "float")
_SHAPES = (None, struct.Struct("<I"), struct.Struct("<2I"))
# u8 tag, u32 count, count float64: by count
_FLOAT_LISTS = {}


def wire_str(s):
    """A string as the binary frames carry it: u32 byte length, UTF-8."""
    b = s.encode("utf-8")
    return _U32.pack(len(b)) + b


def read_value(data, off, type_name=""):
    """The Python value of a Data sent in binary at data[off] (what from_wire gives for its JSON form)."""
    tag = data[off]
    if tag == _V_FLOAT:
        return _F64.unpack_from(data, off + 1)[0]
    if tag == _V_INT:
        v = int(_F64.unpack_from(data, off + 1)[0])
        return float(v) if type_name in _REAL_TYPES else v
    if tag == _V_BOOL:
        return data[off + 1] != 0
    if tag == _V_ARRAY:
        np_dtype, code, size = _ARRAY_DTYPES[data[off + 1]]
        ndim = data[off + 2]
        shape = _SHAPES[ndim].unpack_from(data, off + 3)
        p = off + 3 + 4 * ndim
        p += -p % 8
        count = shape[0] if ndim == 1 else shape[0] * shape[1]
        if _np is not None:
            # a view of the received frame (bytes): read-only, as SofaPython3's value
            a = _np.frombuffer(data, dtype=np_dtype, count=count, offset=p)
            return a if ndim == 1 else a.reshape(shape)
        flat = array.array(code)
        flat.frombytes(data[p:p + count * size])
        if _BIG_ENDIAN:
            flat.byteswap()
        lst = flat.tolist()
        if ndim == 2:
            k = shape[1]
            return [lst[i:i + k] for i in range(0, len(lst), k)]
        return lst
    (n,) = _U32.unpack_from(data, off + 1)
    import json
    return from_wire(json.loads(data[off + 5:off + 5 + n]), [], type_name)


def _f64_of(x):
    try:
        return _F64.pack(float(x))
    except OverflowError:  # an int beyond a double: what the engine made of its digits
        return _F64.pack(float("inf") if x > 0 else float("-inf"))


def write_value(v):
    """The binary form of a value written into a Data, by wire_input's rules (a tag, then its fields)."""
    t = type(v)
    if t is float:
        return _W_NUM + _F64.pack(v)
    if t is list and (type(v[0]) is float if len(v) == 1 else v and all(type(e) is float for e in v)):
        n = len(v)
        st = _FLOAT_LISTS.get(n)
        if st is None:
            st = _FLOAT_LISTS[n] = struct.Struct("<BI%dd" % n)
        return st.pack(2, n, *v)
    if _np is not None and t is _np.ndarray and v.dtype.kind == "f" and v.dtype.itemsize == 8 and v.dtype.byteorder in "=<" \
            and not _BIG_ENDIAN:
        return _W_ARRAY + _U32.pack(v.size) + v.tobytes()
    if isinstance(v, str):
        return _W_TEXT + wire_str(v)
    if isinstance(v, bool) or (_np is not None and isinstance(v, _np.bool_)):
        return _W_BOOL + (b"\x01" if v else b"\x00")
    if isinstance(v, (int, float)) or (_np is not None and isinstance(v, _np.number)):
        return _W_NUM + _f64_of(v)
    if _np is not None and isinstance(v, _np.ndarray):
        if v.dtype.kind in "biuf":
            a = _np.ascontiguousarray(v, dtype="<f8")
            return _W_ARRAY + _U32.pack(a.size) + a.tobytes()
        return _W_TEXT + wire_str(sofa_string(v))
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(e, str) for e in v):
            return _W_STRINGS + _U32.pack(len(v)) + b"".join(wire_str(e) for e in v)
        nums = []
        if _flat_numbers(v, nums):
            a = array.array("d", nums)
            if _BIG_ENDIAN:
                a.byteswap()
            return _W_ARRAY + _U32.pack(len(nums)) + a.tobytes()
        return _W_TEXT + wire_str(sofa_string(v))
    return _W_TEXT + wire_str(sofa_string(v))


def write_from(wkey):
    """A Data written from another Data (its owner and name, `wkey`): the engine copies its text."""
    return _W_FROM + wkey


def wire_owner_name(owner, name):
    """A Data's owner handle and name, as the binary frames designate it."""
    return _U32.pack(owner) + wire_str(name)
