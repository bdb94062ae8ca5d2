"""What the front ends (CLI, web, Slack, Discord) need from memory, as small Protocols.

Front ends depend on these ports and their value types, never on concrete memory classes;
the composition root (``bot/app.py``) builds the implementation. :class:`IngestPort` takes
what the platforms say (events, channels, forgets) and kicks the writer; :class:`RecallPort`
answers (ask, history, why); :class:`ChatService` adds what a chat front end needs day to
day (pending work, safe sharing, decision status, feedback, digests, uninstalls).
:class:`OperatorRecall`, :class:`Browse`, :class:`Importing`, :class:`Upkeep` and
:class:`Administration` are the operator's: the web view, the ``egmem`` commands and the
jobs of ``egmem serve``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol

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

if TYPE_CHECKING:  # reports of the write path, read by the operator's commands
    from memory.pipeline import DrainReport
    from memory.store.inbox import SubmitReport


class IngestPort(Protocol):
    """What the platforms say: events, channels, forgets."""

    def submit(self, events: Iterable[Message | Edit | Delete]) -> int:
        """Durably queue events (before the platform is acknowledged); returns how many were
        new. Duplicates (retries, redeliveries) are no-ops."""
        ...

    def amend(self, queued: Message | Edit | Delete,
              corrected: Message | Edit | Delete | None) -> bool:
        """Replace a submitted event that is still waiting to be committed with
        ``corrected`` — the same platform event normalized again once what could not be
        looked up before the acknowledgement is known (names, the channel it belongs to) —
        or withdraw it (``None``). Does nothing once it is committed or gone; never
        duplicates it. Returns whether the queued entry was changed or withdrawn."""
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

    def as_json(self) -> dict[str, Any]:
        """The record as ``egmem feedback --json`` exports it."""
        return {**self.model_dump(mode="json"), "node_ids": list(self.node_ids),
                "message_ids": list(self.message_ids)}


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


# --- the operator's: the web view, the egmem commands, the jobs of egmem serve -----------


class OperatorRecall(Protocol):
    """:class:`RecallPort` as the local operator asks: ``user=None`` reads the whole space
    (everything, without a space), ``channel`` when given only that channel."""

    def ask(self, question: str, *, platform: str, space: str, user: str | None,
            channel: str | None, widen: bool = False,
            reference: datetime | None = None) -> Answer:
        """``reference``: the moment "today" and "next week" count from (default: now)."""
        ...

    def history(self, topic: str, *, platform: str, space: str, user: str | None,
                channel: str | None, widen: bool = False) -> list[State]: ...

    def why(self, ident: str, *, platform: str, space: str, user: str | None,
            channel: str | None, widen: bool = True) -> list[EvidenceNode]: ...


SpaceKey = tuple[str, str]
"""(platform, space)"""

MAX_STATES_LISTED = 300


@dataclass(frozen=True)
class ChannelSummary:
    platform: str
    space: str
    channel: str
    name: str
    is_private: bool
    states: int
    revised: int
    """States whose value changed at least once."""

    @property
    def label(self) -> str:
        return f"#{self.name}" if self.name else self.channel


@dataclass(frozen=True)
class StateSummary:
    state_id: str
    topic: str
    value: str
    revision_count: int
    updated_at: datetime


class Browse(Protocol):
    """The operator's view of every channel of every space (private ones included):
    nothing here narrows to what a particular member may read."""

    def list_channels(self) -> dict[SpaceKey, list[ChannelSummary]]:
        """Every channel with messages or a visibility record, grouped by space, sorted by
        name."""
        ...

    def channel_info(self, *, space: str, channel: str) -> ChannelSummary | None:
        """The channel's summary, or None when the memory knows nothing of it."""
        ...

    def channel_states(self, *, space: str, channel: str, q: str = "",
                       limit: int = MAX_STATES_LISTED) -> tuple[list[StateSummary], int]:
        """The channel's states, most recently changed first, and how many matched in all
        (``q``: those whose topic, description or current value contains every word)."""
        ...

    def load_state(self, state_id: str) -> State | None:
        """One state with its chain, oldest first, as the reader sees it; None when there
        is no such state."""
        ...


class WebView(OperatorRecall, Browse, Protocol):
    """What the web view reads."""


class Directory(Protocol):
    """Which conversations the memory knows of."""

    def evidence_channels(self) -> list[tuple[str, str, str]]:
        """(platform, space, channel) of every channel holding evidence, sorted."""
        ...

    def channel_records(self) -> list[Channel]:
        """What the platforms said of their channels (names, privacy, members)."""
        ...


class Importing(Protocol):
    """What an import of a file does: queue events, commit them, count what is left."""

    def upsert_channels(self, channels: Iterable[Channel]) -> None: ...

    def submit_report(self, events: Iterable[Message | Edit | Delete]) -> SubmitReport:
        """Queue events durably and say what became of each (new, duplicate, refused,
        rejected)."""
        ...

    def drain(self, on_progress: Callable[[int], None] | None = None) -> DrainReport:
        """Commit what is queued now, in the calling thread."""
        ...

    def queued(self, *, status: Literal["pending", "dead"]) -> int:
        """How many events wait in the inbox (``dead``: failed for good until retried)."""
        ...

    def writer_stats(self) -> dict[str, Any] | None:
        """What the LLM writer did so far (None for the offline writer)."""
        ...


class Upkeep(Protocol):
    """The scheduled jobs of ``egmem serve``."""

    @property
    def shared(self) -> bool:
        """Whether the tables live on object storage other processes write too."""
        ...

    def drain(self, on_progress: Callable[[int], None] | None = None) -> DrainReport: ...

    def enforce_retention(self, days: int, *, now: datetime, space: str | None = None,
                          channel: str | None = None) -> int:
        """Forget every message older than ``days`` (optionally in one space/channel)."""
        ...

    def sync_lexical(self) -> int:
        """Pull the nodes other processes wrote into the local lexical index."""
        ...

    def maintain(self) -> None:
        """Index maintenance: cards, compaction, the vector index."""
        ...


class Administration(Protocol):
    """The operator's commands on the memory as a whole."""

    def apply_requests(self) -> None:
        """Apply the forgets other processes queued while this one could not write."""
        ...

    def forget_user(self, user: str, *, platform: str | None = None,
                    space: str | None = None) -> int:
        """Forget everything a person said; returns messages forgotten."""
        ...

    def forget_message(self, *, platform: str, space: str, channel: str,
                       message_id: str) -> bool: ...

    def queue_forget_user(self, user: str, *, platform: str | None = None,
                          space: str | None = None) -> int:
        """For a process that may not write: bury and scrub now, queue the forget for the
        process that writes; returns how many stored messages it will forget."""
        ...

    def queue_forget_message(self, *, platform: str, space: str, channel: str,
                             message_id: str) -> None: ...

    def retry_dead(self, seqs: Sequence[int] | None = None) -> int:
        """Requeue dead letters (all, or those ``seqs``); returns how many."""
        ...

    def reindex(self) -> int:
        """Rebuild the lexical index; returns the number of documents."""
        ...

    def stats(self) -> dict[str, Any]: ...

    def feedback_entries(self, *, node_id: str | None = None) -> list[FeedbackEntry]: ...

    def close(self) -> None: ...


class OperatorService(WebView, ChatService, Directory, Importing, Upkeep, Administration,
                      Protocol):
    """Everything the ``egmem`` commands use, and hand on to the front ends they run."""
