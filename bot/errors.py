"""Exceptions raised by the bot package (the composition root and its front ends).

Tree::

    memory.errors.EgmemError
    └── BotError               root of everything the bot package raises on purpose
        └── DigestOwned        someone else turned a channel's digest on; ``owner`` is who
                               (also a ``UserFacingError``: it says who may turn it off)

Settings and input problems are :class:`memory.errors.ConfigError` and
:class:`memory.errors.InputError`; a data directory another process writes is
:class:`memory.store.lock.DataDirBusy`.
"""

from __future__ import annotations

from memory.errors import EgmemError, UserFacingError


class BotError(EgmemError):
    """Root of all bot errors."""


class DigestOwned(BotError, UserFacingError):
    """Someone else turned this channel's digest on (and only they or a manager may turn it
    off)."""

    def __init__(self, owner: str) -> None:
        super().__init__(f"<@{owner}> turned this channel's weekly digest on: only they or "
                         "someone who manages the workspace can turn it off.")
        self.owner = owner
