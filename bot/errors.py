"""Exceptions raised by the bot package (the composition root and its front ends).

Tree::

    memory.errors.EgmemError
    └── BotError               root of everything the bot package raises on purpose

A digest turned on by someone else is :class:`memory.errors.DigestOwned` (raised where the
digest subscriptions are kept, ``memory.store.workspaces``; re-exported here).

Settings and input problems are :class:`memory.errors.ConfigError` and
:class:`memory.errors.InputError`; a data directory another process writes is
:class:`memory.store.lock.DataDirBusy`.
"""

from __future__ import annotations

from memory.errors import DigestOwned, EgmemError

__all__ = ["BotError", "DigestOwned"]


class BotError(EgmemError):
    """Root of all bot errors."""
