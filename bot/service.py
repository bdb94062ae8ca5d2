"""What the platform adapters need from egmem, as one small Protocol.

Adapters depend on this, never on concrete memory classes; ``bot/app.py`` builds the real
implementation (:class:`bot.runtime.Egmem`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from memory.models import Answer, Channel, Delete, Edit, EvidenceNode, Message, State


class Asker(Protocol):
    """Who asks and from where: the basis of permission-aware recall."""

    platform: str
    space: str
    user: str
    channel: str


class MemoryService(Protocol):
    def submit(self, events: Iterable[Message | Edit | Delete]) -> int:
        """Durably queue events (before the platform is acknowledged); returns how many were
        new. Duplicates (retries, redeliveries) are no-ops."""
        ...

    def process(self) -> int:
        """Commit queued events; returns how many were committed."""
        ...

    def upsert_channels(self, channels: Iterable[Channel]) -> None:
        """Record channel visibility and membership (used to scope recall)."""
        ...

    def ask(
        self, question: str, *, platform: str, space: str, user: str, channel: str,
        widen: bool = False,
    ) -> Answer:
        """Answer from what ``user`` may read: the asking channel plus the space's public
        channels, and with ``widen`` also the private channels ``user`` belongs to."""
        ...

    def history(
        self, topic: str, *, platform: str, space: str, user: str, channel: str,
        widen: bool = False,
    ) -> list[State]:
        """Decision timelines (chains) matching ``topic`` within the same permission scope."""
        ...

    def why(
        self, ident: str, *, platform: str, space: str, user: str | None, channel: str | None,
        widen: bool = True,
    ) -> list[EvidenceNode]:
        """The audit of a node, state or message id: the nodes ``user`` may read, each with
        its proposal and verification."""
        ...

    def forget_message(
        self, *, platform: str, space: str, channel: str, message_id: str
    ) -> bool:
        """Remove a message from every table and index (platform delete or /recall forget)."""
        ...
