"""Exceptions raised by the adapters (the platforms' side of egmem).

Tree::

    memory.errors.EgmemError
    └── AdapterError           root of everything the adapters raise on purpose
        ├── PayloadError       a platform payload or import record is malformed; also a
        │                      ``ValueError``. ``field`` names the offending field when one
        │                      does. Normalizers turn it into an ``InputError`` naming the
        │                      file and line, or skip the event with a log line.
        └── AccessUnknown      the platform could not say what the asker may read; nothing
                               is read for them (also a ``UserFacingError``)

Errors meant for people stay in :mod:`memory.errors` (``UserFacingError`` and below).
"""

from __future__ import annotations

from memory.errors import EgmemError, UserFacingError


class AdapterError(EgmemError):
    """Root of all adapter errors."""


class PayloadError(AdapterError, ValueError):
    """A payload or record is malformed; ``field`` is the field at fault, if one is."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class AccessUnknown(AdapterError, UserFacingError):
    """The platform could not say what the asker may read: nothing is read for them."""
