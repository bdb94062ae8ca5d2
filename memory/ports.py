"""What the front ends (CLI, web, Slack, Discord) need from memory, as small Protocols.

Front ends depend on these ports and their value types, never on concrete memory classes;
the composition root (``bot/app.py``) builds the implementation. :class:`IngestPort` takes
what the platforms say (events, channels, forgets) and kicks the writer; :class:`RecallPort`
answers (ask, history, why); :class:`ChatService` adds what a chat front end needs day to
day (pending work, safe sharing, decision status, feedback, digests, uninstalls).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from memory.access import SpaceAccess
from memory.models import (
    Answer,
    ChainEntry,
    Channel,
    Delete,
    Edit,
    EvidenceNode,
    Message,
    State,
)


class IngestPort(Protocol):
    """What the platforms say: events, channels, forgets."""

    def submit(self, events: Iterable[Message | Edit | Delete]) -> int:
        """Durably queue events (before the platform is acknowledged); returns how many were
        new. Duplicates (retries, redeliveries) are no-ops."""
        ...

    def process(self) -> int:
        """Commit queued events now, in the calling thread; returns how many were committed."""
        ...

    def kick(self) -> None:
        """Commit queued events soon (:meth:`memory.worker.WriterWorker.kick`): coalesced,
        one run at a time, after the questions being answered."""
        ...

    def answering(self) -> AbstractContextManager[None]:
        """Held while a question is answered: no commit run starts meanwhile."""
        ...

    def before_write(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` before every commit run (what must be recorded before a queued
        message is written, such as a channel's visibility)."""
        ...

    def upsert_channels(self, channels: Iterable[Channel]) -> None:
        """Record channel visibility and membership (used to scope recall)."""
        ...

    def forget_message(
        self, *, platform: str, space: str, channel: str, message_id: str
    ) -> bool:
        """Remove a message from every table and index (platform delete or /recall forget)."""
        ...


class RecallPort(Protocol):
    """Questions, asked from where the asker may read."""

    def ask(
        self, question: str, *, platform: str, space: str, user: str, channel: str | None,
        widen: bool = False,
    ) -> Answer:
        """Answer from what ``user`` may read: the asking channel plus the space's public
        channels, and with ``widen`` also the private channels ``user`` belongs to (a
        question from no channel, like a Discord DM, reads only with ``widen``)."""
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


class MemoryService(IngestPort, RecallPort, Protocol):
    """Both ports: what a front end that feeds memory and answers from it takes."""


# --- day-to-day features of the chat front ends ----------------------------------------
# Small Protocols next to the two ports; ``ChatService`` is what the Slack and Discord
# adapters take.


@dataclass(frozen=True)
class ShareCheck:
    """Whether an answer may be posted into a channel: the scope it was composed from and
    everything it shows (citations, every decision and chain entry, links) must be readable
    by everyone in it. ``withheld`` names the channels of what it shows that some members
    cannot read; ``missing`` counts shown items no longer in memory (deleted or forgotten
    since) or not as shown; ``private_scope`` says it was composed from conversations not
    everyone there may read (an answer's wording may come from anything it read);
    ``unverified`` says who reads the channel (guests) is not known yet.
    ``answer`` is what may be posted: exactly the checked parts of the answer."""

    ok: bool
    withheld: tuple[str, ...] = ()
    missing: int = 0
    private_scope: bool = False
    unverified: bool = False
    answer: Answer | None = None


@dataclass(frozen=True)
class MessageStatus:
    """What a message means for the team's decisions ("Is this still current?").

    ``role`` is ``set`` when the message established or revised the decision ``state``,
    ``mentions`` when it talks about one it did not set, ``none`` when egmem relates it to
    no decision, and ``unknown`` when egmem has no record of it the asker may read.
    ``current`` says whether the value the message set (``set``) or the value in force
    when it was written (``mentions``) is still the decision's current value; ``since``
    lists the chain entries after the message, oldest first (who changed it, when)."""

    role: Literal["set", "mentions", "none", "unknown"]
    state: State | None = None
    current: bool = True
    since: tuple[ChainEntry, ...] = ()
    value: str = ""


class FeedbackEntry(BaseModel):
    """A 👍/👎 on an answer: enough to turn a miss into an evaluation case."""

    model_config = ConfigDict(frozen=True)

    platform: str
    space: str
    channel: str
    asker: str
    rater: str
    vote: Literal["up", "down"]
    question: str
    node_ids: tuple[str, ...] = ()
    message_ids: tuple[str, ...] = ()
    abstained: bool = False
    at: datetime


class CatchUp(Protocol):
    def pending_in(self, *, platform: str, space: str, channel: str, limit: int = 100) -> int:
        """How many acknowledged events of ``channel`` are not committed yet (at most
        ``limit``): an answer says so rather than waiting for them."""
        ...


class Sharing(Protocol):
    def share_check(self, answer: Answer, *, platform: str, space: str, channel: str,
                    user: str, widen: bool) -> ShareCheck:
        """Whether ``answer``, composed for ``user`` asking in ``channel`` (with ``widen`` as
        asked), may be posted into ``channel`` for everyone there to read."""
        ...


class Decisions(Protocol):
    def message_status(self, *, platform: str, space: str, channel: str, message_id: str,
                       user: str) -> MessageStatus:
        """The decision a message set or mentions, and whether it changed since, as far as
        ``user`` may read."""
        ...

    def recent_changes(self, *, platform: str, space: str, user: str | None,
                       channel: str | None, since: datetime, widen: bool = True,
                       limit: int = 10) -> list[State]:
        """Decisions revised at or after ``since`` that ``user`` may read (``channel``
        alone when ``widen`` is false), most recently changed first, with their chains."""
        ...


class Feedback(Protocol):
    def record_feedback(self, entry: FeedbackEntry) -> None: ...


class Workspaces(Protocol):
    """Per-workspace settings and lifecycle: digests and uninstalls."""

    def set_digest(self, *, platform: str, space: str, channel: str, enabled: bool,
                   by: str, manager: bool = False) -> bool:
        """Turn a channel's weekly digest on or off; returns whether it changed. Anyone may
        turn it on; only whoever turned it on, or a ``manager`` of the workspace, may turn
        it off (otherwise a :class:`memory.errors.UserFacingError` says who may)."""
        ...

    def digest_channels(self, *, platform: str) -> list[tuple[str, str]]:
        """(space, channel) of every channel with the digest on."""
        ...

    def mark_uninstalled(self, *, platform: str, space: str, at: datetime) -> None:
        """Schedule the workspace's memory for deletion after the grace period (a later
        uninstall restarts it)."""
        ...

    def due_uninstalls(self, *, now: datetime) -> list[tuple[str, str, datetime]]:
        """(platform, space, uninstalled at) of the uninstalls whose grace period is over."""
        ...

    def pending_uninstalls(self, *, platform: str) -> list[tuple[str, datetime]]:
        """(space, uninstalled at) of every uninstall of ``platform`` not yet cancelled or
        carried out (a reinstall is looked for before the grace period is over)."""
        ...

    def cancel_uninstall(self, *, platform: str, space: str) -> bool:
        """The app came back: keep the memory. Returns whether a deletion was pending."""
        ...

    def forget_space(self, *, platform: str, space: str) -> int:
        """Delete everything remembered from one workspace/guild; returns messages
        forgotten."""
        ...


class Readers(Protocol):
    """Who reads less than the public channels (guests, other organizations), as the
    platform says: kept by the adapters, applied to every question and share."""

    def space_access(self, *, platform: str, space: str) -> SpaceAccess: ...
    def set_space_access(self, access: SpaceAccess) -> None: ...


class Cursors(Protocol):
    """Where a backfill keeps its resumable cursors."""

    def get_cursor(self, name: str) -> str | None: ...
    def set_cursor(self, name: str, value: str) -> None: ...


class ChatService(MemoryService, CatchUp, Sharing, Decisions, Feedback, Workspaces, Readers,
                  Cursors, Protocol):
    """Everything the Slack and Discord front ends use."""
