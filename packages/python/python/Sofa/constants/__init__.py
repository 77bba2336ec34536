"""Sofa.constants: the keys a controller's onKeypressedEvent receives (`event['key']`)."""

from . import Key  # noqa: F401
from . import KeyCode  # noqa: F401

__all__ = ["Key", "KeyCode"]
