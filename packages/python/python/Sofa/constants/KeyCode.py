"""Key codes (ord of Sofa.constants.Key values)."""

from . import Key as _Key

for _n in dir(_Key):
    if not _n.startswith("_"):
        globals()[_n] = ord(getattr(_Key, _n))
