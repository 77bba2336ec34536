"""Sofa.Core: the scene graph as SofaPython3 shows it, each object a handle to the sofa-ts engine's.

Nodes, components and Data live in the engine; what is here holds their handles and asks the
engine for everything, so a scene built here is the engine's scene (there is no second one).
"""

import contextlib

from . import _engine as _eng
from . import _values
from ._engine import caller_location, caller_record, engine

__all__ = ["Base", "Object", "BaseObject", "Node", "Data", "Link", "Controller", "RawPrefab", "Prefab"]


def _proxy(found):
    """The Python object for a reference the engine gave (one object per handle)."""
    if found is None:
        return None
    k = found.get("k")
    eng = engine()
    if k == "object":
        p = eng.proxies.get(found["id"]) if hasattr(eng, "proxies") else None
        if p is None:
            p = Object._wrap(found["id"], found.get("cls", ""))
        return p
    if k == "node":
        p = eng.proxies.get(found["id"]) if hasattr(eng, "proxies") else None
        if p is None:
            p = Node._wrap(found["id"])
        return p
    if k == "data":
        return Data(found["owner"], found["name"], found.get("type", ""), found.get("tuple", 1))
    if k == "link":
        return _proxy(found.get("target"))
    return None


def _proxies():
    eng = engine()
    if not hasattr(eng, "proxies"):
        eng.proxies = {}
    return eng.proxies


def _link_of(v):
    """A node, object or Data given as a keyword value: its link path (SofaPython3 links them)."""
    if isinstance(v, (Node, Object)):
        return v.getLinkPath()
    if isinstance(v, Data):
        return v.getValueString()
    return None


class Data(object):
    """A Data of a component or node (SofaPython3's Sofa.Core.Data)."""

    __slots__ = ("_owner", "_name", "_type", "_tuple", "_key", "_wkey")

    def __init__(self, owner, name, type_name="", tuple_size=1):
        self._owner = owner
        self._name = name
        self._type = type_name
        self._tuple = tuple_size
        self._key = (owner, name)
        # owner and name as the binary frames say them
        self._wkey = _values.wire_owner_name(owner, name)

    def _ref(self):
        return {"owner": self._owner, "name": self._name}

    @property
    def value(self):
        eng = _eng._engine or engine()
        if eng.handler_depth:
            # inside a handler: the values the engine sent with the event (those read last time)
            key = self._key
            eng.reads.append(key)
            pre = eng.prefetch.get(key)
            if pre is not None:
                return _values.read_value(pre[0], pre[1], self._type)
        return eng.get(self._wkey, self._type)

    @value.setter
    def value(self, v):
        eng = _eng._engine or engine()
        if eng.handler_depth:
            # inside a handler: sent with the next request or the handler's answer (no round trip),
            # located at this line should the engine refuse it
            w = _values.write_from(v._wkey) if type(v) is Data else _values.write_value(v)
            eng.writes.append(self._wkey + w + caller_record())
            # a write may change what other Data show (links, engines): read them again
            eng.prefetch.clear()
            return
        if isinstance(v, Data):
            a = dict(self._ref(), **{"from": v._ref()})
            blobs = []
        else:
            w, blobs = _values.wire_input(v)
            a = dict(self._ref(), value=w)
        eng.call("dataSet", a, blobs)

    def getValue(self):
        return self.value

    def setValue(self, v):
        self.value = v

    def array(self):
        """The value as an array (read-only, as SofaPython3's)."""
        return self.value

    @contextlib.contextmanager
    def writeable(self):
        """`with d.writeable() as a:` a writeable copy of the value, written back on exit."""
        a = _values.writeable_copy(self.value)
        yield a
        self.value = a

    def writeableArray(self):
        return self.writeable()

    def __len__(self):
        return len(self.value)

    def __getitem__(self, i):
        return self.value[i]

    def getValueString(self):
        v, _ = engine().call("dataText", self._ref())
        return v

    def read(self, text):
        self.value = str(text)

    def getName(self):
        return self._name

    @property
    def name(self):
        return self._name

    def typeName(self):
        return self._type

    def getValueTypeString(self):
        return self._type

    def _info(self):
        v, _ = engine().call("dataInfo", self._ref())
        return v

    def getHelp(self):
        return self._info()["help"]

    def getGroup(self):
        return self._info()["group"]

    def isSet(self):
        return self._info()["isSet"]

    def hasParent(self):
        return self._info()["parent"] != ""

    def getParentPath(self):
        return self._info()["parent"]

    def setParent(self, parent):
        """Follows another Data (a Data object, or its link path '@/node/obj.data')."""
        if isinstance(parent, Data):
            engine().call("dataSetParent", dict(self._ref(), **{"from": parent._ref()}))
        else:
            engine().call("dataSetParent", dict(self._ref(), path=str(parent)))

    def getOwner(self):
        return _proxies().get(self._owner) or _owner_proxy(self._owner)

    def getLinkPath(self):
        owner = self.getOwner()
        return owner.getLinkPath() + "." + self._name

    @property
    def linkpath(self):
        return self.getLinkPath()

    def __str__(self):
        return str(self.value)

    def __repr__(self):
        return repr(self.value)

    def __eq__(self, other):
        if isinstance(other, Data):
            return self._owner == other._owner and self._name == other._name
        return self.value == other

    def __hash__(self):
        return hash((self._owner, self._name))


def _owner_proxy(handle):
    p = _proxies().get(handle)
    if p is None:
        raise ValueError("the owner of this Data is not known to Python")
    return p


class Base(object):
    """What nodes and components share: Data by attribute, names, link paths."""

    _id = None

    def _attr(self, name):  # pragma: no cover - overridden
        raise AttributeError(name)

    _MISSING = object()

    def _lookup(self, name):
        """What `self.name` designates in the engine (a component, a child node, a Data, a link's
        target), or _MISSING; kept for the graph's revision (the engine says when it changes): in
        `_cache`, and what was found also in the instance's dict, where the next `self.name` finds
        it without a call (only names the class does not define come here: nothing is shadowed)."""
        d = self.__dict__
        cache = d.get("_cache")
        if cache is not None and name in cache:
            return cache[name]
        found = self._attr(name)
        if found is None or found.get("k") == "none":
            p = Base._MISSING
        else:
            p = _proxy(found)
        if cache is not None and (found is None or found.get("k") != "link"):
            cache[name] = p
            if p is not Base._MISSING and name not in d:
                d[name] = p
        return p

    def _forget(self):
        """The graph changed: what the attribute cache held is asked again."""
        d = self.__dict__
        cache = d.get("_cache")
        if cache:
            for name, p in cache.items():
                if d.get(name) is p:
                    del d[name]
            cache.clear()

    def __getattr__(self, name):
        if name.startswith("__") or self._id is None:
            raise AttributeError(name)
        p = self._lookup(name)
        if p is Base._MISSING:
            raise AttributeError("%s has no attribute '%s'" % (self._describe(), name))
        return p

    def __setattr__(self, name, value):
        d = self.__dict__
        p = d.get(name)
        # a Data of the scene found before (the common case first): written
        if type(p) is Data and name[0] != "_" and d["_cache"].get(name) is p:
            p.value = value
            return
        cache = d.get("_cache")
        if name[0] == "_" or self._id is None:
            object.__setattr__(self, name, value)
            return
        if cache is not None and name in cache:
            # an attribute of the Python object over a scene name: it stays (as the code set it)
            del cache[name]
            object.__setattr__(self, name, value)
            return
        if name in d or any(name in c.__dict__ for c in type(self).__mro__):
            object.__setattr__(self, name, value)
            return
        p = self._lookup(name)
        if isinstance(p, Data):
            p.value = value
            return
        if cache is not None:
            cache.pop(name, None)
        if d.get(name) is p:
            del d[name]
        object.__setattr__(self, name, value)

    def findData(self, name):
        found = self._attr(name)
        if found is None or found.get("k") != "data":
            return None
        return _proxy(found)

    def getData(self, name):
        return self.findData(name)

    def addData(self, name, value=None, default=None, help="", group="", type=""):
        """SofaPython3's addData: a Data declared now on this node or component."""
        if value is None:
            value = default
        if isinstance(value, Data):
            # SofaPython3: another Data as the value is the new one's parent (its type taken)
            value = value.getLinkPath()
        if not type:
            type = _values_type_of(value)
        w, blobs = (None, [])
        if value is not None:
            w, blobs = _values.wire_input(value)
        a = dict(caller_location(), owner=self._id, name=name, type=type, help=help, group=group)
        if w is not None:
            a["value"] = w
        found, _ = engine().call("addData", a, blobs)
        cache = self.__dict__.get("_cache")
        if cache is not None and name in cache:
            if self.__dict__.get(name) is cache[name]:
                del self.__dict__[name]
            del cache[name]
        return _proxy(found)

    def getName(self):
        return self.findData("name").value

    def setName(self, name):
        self.findData("name").value = name

    def getLinkPath(self):
        v, _ = engine().call("linkPathOf", {"id": self._id})
        return v

    @property
    def linkpath(self):
        return self.getLinkPath()

    def getPathName(self):
        return self.getLinkPath()[1:]

    def _describe(self):
        return "%s" % type(self).__name__


def _values_type_of(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (list, tuple)) and v and all(isinstance(e, (list, tuple)) and len(e) == 3 for e in v):
        return "vector<Vec3d>"
    if isinstance(v, (list, tuple)) and len(v) == 3 and all(isinstance(e, (int, float)) for e in v):
        return "Vec3d"
    if isinstance(v, (list, tuple)):
        return "vector<double>"
    return "string"


class Object(Base):
    """A component of the scene (SofaPython3's Sofa.Core.Object / BaseObject)."""

    @classmethod
    def _wrap(cls, handle, class_name=""):
        o = object.__new__(cls)
        object.__setattr__(o, "_id", handle)
        object.__setattr__(o, "_cls", class_name)
        object.__setattr__(o, "_cache", {})
        eng = engine()
        eng.caches.append(o)
        _proxies()[handle] = o
        return o

    def _attr(self, name):
        v, _ = engine().call("objAttr", {"obj": self._id, "name": name})
        return v

    def _info(self):
        v, _ = engine().call("objInfo", {"obj": self._id})
        return v

    def getClassName(self):
        return self._info()["cls"]

    def getTemplateName(self):
        return self._info()["template"]

    def getContext(self):
        n = self._info()["node"]
        return None if n is None else _proxy({"k": "node", "id": n})

    def init(self):
        engine().call("objInit", {"obj": self._id})

    def reinit(self):
        engine().call("objMethod", {"obj": self._id, "method": "reinit"})

    def bwdInit(self):
        engine().call("objMethod", {"obj": self._id, "method": "bwdInit"})

    def getDataFields(self):
        return [self.findData(n) for n in self._info()["data"]]

    def _describe(self):
        return "%s '%s'" % (self.__dict__.get("_cls") or type(self).__name__, self.getName())

    def __repr__(self):
        return "<Sofa.Core.Object %s>" % self._describe()


BaseObject = Object


class Link(object):
    """Placeholder type for isinstance checks: links are read as the object they point to."""


class _Children(object):
    """node.children / node.objects: a list-like view, indexable by position or name."""

    def __init__(self, node, key):
        self._node = node
        self._key = key

    def _items(self):
        info, _ = engine().call("nodeInfo", {"node": self._node._id})
        return [_proxy(r) for r in info[self._key]]

    def __iter__(self):
        return iter(self._items())

    def __len__(self):
        return len(self._items())

    def __getitem__(self, i):
        items = self._items()
        if isinstance(i, str):
            for it in items:
                if it.getName() == i:
                    return it
            raise KeyError(i)
        return items[i]

    def __contains__(self, x):
        return any(x is it for it in self._items())

    def __repr__(self):
        return repr(self._items())


class Node(Base):
    """A node of the scene graph (SofaPython3's Sofa.Core.Node)."""

    def __init__(self, name="unnamed", **kwargs):
        found, _ = engine().call("newNode", dict(caller_location(), name=str(name)))
        object.__setattr__(self, "_id", found)
        object.__setattr__(self, "_cache", {})
        engine().caches.append(self)
        _proxies()[found] = self
        for k, v in kwargs.items():
            setattr(self, k, v)

    @classmethod
    def _wrap(cls, handle):
        n = object.__new__(cls)
        object.__setattr__(n, "_id", handle)
        object.__setattr__(n, "_cache", {})
        engine().caches.append(n)
        _proxies()[handle] = n
        return n

    def _attr(self, name):
        v, _ = engine().call("nodeAttr", {"node": self._id, "name": name})
        return v

    def _info(self):
        v, _ = engine().call("nodeInfo", {"node": self._id})
        return v

    def _describe(self):
        return "Node '%s'" % self._info()["name"]

    def __repr__(self):
        return "<Sofa.Core.Node %s>" % self._info()["path"]

    # ---- building -----------------------------------------------------------------------------

    def addObject(self, type_or_object, **kwargs):
        """addObject('Type', name=..., **data) creates a component; addObject(obj) adds one made in Python."""
        if isinstance(type_or_object, Object):
            found, _ = engine().call("attachObject", {"node": self._id, "obj": type_or_object._id})
            self._forget()
            return type_or_object
        if not isinstance(type_or_object, str):
            raise TypeError("addObject expects a component type name or a Sofa.Core.Object, got %r" % (type_or_object,))
        if "name" in kwargs and str(kwargs["name"]) in _PROTECTED:
            raise ValueError("Cannot call addObject with name %s: Protected keyword" % kwargs["name"])
        attrs = {k: _values.sofa_string(v, _link_of) for k, v in kwargs.items()}
        a = dict(caller_location(), node=self._id, type=type_or_object, attrs=attrs)
        found, _ = engine().call("addObject", a)
        self._forget()
        return _proxy(found)

    def createObject(self, type_name, **kwargs):
        return self.addObject(type_name, **kwargs)

    def addChild(self, name_or_node, **kwargs):
        """addChild('name', **data) creates a child node; addChild(node) attaches a detached one."""
        attrs = {k: _values.sofa_string(v, _link_of) for k, v in kwargs.items()}
        if isinstance(name_or_node, Node):
            found, _ = engine().call("addChild", dict(caller_location(), node=self._id, child=name_or_node._id, attrs=attrs))
            self._forget()
            return name_or_node
        found, _ = engine().call("addChild", dict(caller_location(), node=self._id, name=str(name_or_node), attrs=attrs))
        self._forget()
        return _proxy({"k": "node", "id": found})

    def createChild(self, name, **kwargs):
        return self.addChild(name, **kwargs)

    def removeObject(self, obj):
        engine().call("removeObject", {"node": self._id, "obj": obj._id})
        self._forget()

    def removeChild(self, child):
        if isinstance(child, str):
            child = self.getChild(child)
            if child is None:
                return
        engine().call("removeChild", {"node": self._id, "child": child._id})
        self._forget()

    # ---- finding ------------------------------------------------------------------------------

    def getObject(self, name):
        for r in self._info()["objects"]:
            if r["name"] == name:
                return _proxy(r)
        return None

    def hasObject(self, name):
        return self.getObject(name) is not None

    def getChild(self, name):
        for r in self._info()["children"]:
            if r["name"] == name:
                return _proxy(r)
        return None

    def getRoot(self):
        n = self
        while True:
            p = n._info()["parent"]
            if p is None:
                return n
            n = _proxy({"k": "node", "id": p})

    def getParent(self):
        p = self._info()["parent"]
        return None if p is None else _proxy({"k": "node", "id": p})

    def getFirstParent(self):
        """The first parent (the one giving the context and the path), None for the root."""
        return self.getParent()

    def getParents(self):
        """Every parent, in the order they adopted this node (SOFA's DAG: a node may have several)."""
        return [_proxy({"k": "node", "id": p}) for p in self._info()["parents"]]

    def getNbParents(self):
        return len(self._info()["parents"])

    def hasParent(self, node):
        return any(p == node._id for p in self._info()["parents"])

    @property
    def parents(self):
        return self.getParents()

    def getMechanicalState(self):
        v, _ = engine().call("getMechanicalState", {"node": self._id})
        return _proxy(v)

    @property
    def objects(self):
        return _Children(self, "objects")

    @property
    def children(self):
        return _Children(self, "children")

    def __getitem__(self, path):
        v, _ = engine().call("getItem", {"node": self._id, "path": str(path)})
        if v.get("k") == "none":
            raise KeyError(path)
        return _proxy(v)

    def getPathName(self):
        return self._info()["path"]

    def getLinkPath(self):
        return "@" + self._info()["path"]

    # ---- running ------------------------------------------------------------------------------

    def init(self):
        engine().call("nodeInit", {"node": self._id})

    def isInitialized(self):
        return False


_PROTECTED = {"children", "objects", "parents", "data", "links"}


class Controller(Object):
    """A component written in Python: `on<EventName>(self, event)` handlers, `init`, `reset`.

    SofaPython3's rules: keyword arguments that name a Data of the component (name, listening,
    printLog, ...) set it, the others are left for the subclass to use (`self.node = kw['node']`);
    a handler returning True marks the event handled."""

    def __init__(self, *args, **kwargs):
        eng = engine()
        cls = type(self)
        # the engine calls only what the class defines: an event nobody handles costs no round trip
        methods = [m for m in dir(cls) if m.startswith("on") and callable(getattr(cls, m, None))]
        methods += [m for m in ("init", "reset", "reinit") if getattr(cls, m) is not getattr(Controller, m)]
        py = eng.register(self)
        attrs = {}
        for k, v in kwargs.items():
            if k in ("name", "listening", "printLog", "tags"):
                attrs[k] = _values.sofa_string(v, _link_of)
        a = dict(caller_location(), py=py, cls=cls.__name__, methods=methods, attrs=attrs)
        if "name" in kwargs:
            a["name"] = str(kwargs["name"])
        found, _ = eng.call("newController", a)
        object.__setattr__(self, "_id", found)
        object.__setattr__(self, "_cls", cls.__name__)
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_py", py)
        eng.caches.append(self)
        _proxies()[found] = self

    def init(self):
        pass

    def reinit(self):
        pass

    def reset(self):
        pass


class RawPrefab(Node):
    """A node built by Python code (SofaPython3's RawPrefab): its parameters are Data of the node."""

    def __init__(self, *args, **kwargs):
        name = kwargs.get("name", args[0] if args else type(self).__name__)
        Node.__init__(self, str(name))

    def addPrefabParameter(self, name, help="", type="", default=None):
        return self.addData(name=name, value=default, default=default, help=help, group="Prefab's parameters", type=type)

    def init(self):
        pass


class Prefab(RawPrefab):
    """A reusable piece of scene (SofaPython3's Sofa.Prefab): `prefabParameters` and `prefabData`
    (lists of dicts name/type/help/default) become Data of the node, then `init()` builds it."""

    def __init__(self, *args, **kwargs):
        RawPrefab.__init__(self, *args, **kwargs)
        self.addData("prefabname", value=type(self).__name__, type="string", group="Infos", help="Name of the prefab")
        parent = kwargs.get("parent")
        if isinstance(parent, Node):
            parent.addChild(self)
        for p in getattr(self, "prefabParameters", []) + getattr(self, "properties", []):
            self.addPrefabParameter(name=p["name"], type=p["type"], help=p.get("help", ""),
                                    default=kwargs.get(p["name"], p.get("default", None)))
        for p in getattr(self, "prefabData", []):
            self.addData(name=p["name"], type=p["type"], help=p.get("help", ""),
                         value=kwargs.get(p["name"], p.get("default", None)), default=p.get("default"),
                         group=p.get("group", "Property"))
        self.init()
