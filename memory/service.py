"""Egmem: the running memory service every front end (CLI, Slack, Discord, web) talks to."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from memory.access import scope_for
from memory.browse import Browser
from memory.daily_use import DailyUse, rank_history
from memory.models import (
    Answer,
    Channel,
    Delete,
    Edit,
    EvidenceNode,
    Message,
    MessageKey,
    Scope,
    State,
)
from memory.pipeline import DrainReport, Pipeline
from memory.ports import MAX_STATES_LISTED, ChannelSummary, SpaceKey, StateSummary
from memory.reader.tools import ReaderTools, valid_text
from memory.store.inbox import Inbox, SubmitReport
from memory.store.lock import DataLock
from memory.store.ports import Store
from memory.worker import WriterWorker
from memory.writer import Writer

logger = logging.getLogger(__name__)


class Reader(Protocol):
    def answer(
        self, question: str, *, scope: Scope, reference: datetime | None = None,
        asker: str | None = None,
    ) -> Answer: ...


@dataclass
class Egmem(DailyUse):
    """Implements :class:`memory.ports.OperatorService` (and so every port of
    :mod:`memory.ports`); built only by ``bot.app.build``."""

    store: Store
    inbox: Inbox
    writer: Writer
    pipeline: Pipeline
    # The one writer of this process: commits run through it, one at a time.
    worker: WriterWorker
    reader: Reader
    tools: ReaderTools
    browser: Browser
    usage: Callable[[], dict[str, Any]] | None = None
    # The data directory's writer lock; None for a read-only service.
    lock: DataLock | None = None

    def __post_init__(self) -> None:
        # One write at a time (the writer's per-channel order depends on it): the writer
        # worker's lock, held by every commit run.
        self._drain_lock = self.worker.lock
        # Forgets other processes queued are applied before every commit run.
        self.worker.before_write(self._apply_requests)

    # ---- writes -------------------------------------------------------------------------
    def submit(self, events: Iterable[Message | Edit | Delete]) -> int:
        return self.submit_report(events).new

    def submit_report(self, events: Iterable[Message | Edit | Delete]) -> SubmitReport:
        """Queue events durably and say what became of them: new, duplicate (and whether
        a duplicate's text differs from what is stored), refused (deleted or forgotten),
        rejected (with the reason, logged once here)."""
        report = self.inbox.submit_report(self._resolve(ev) for ev in events)
        for ev, reason in report.rejected:
            logger.warning("rejected %s %s/%s: %s", type(ev).__name__.lower(), ev.channel,
                           ev.id, reason)
        if report.duplicates:
            report.conflicts = self._conflicts(report.duplicates)
            for m in report.conflicts:
                logger.warning("message %s/%s was already received with other text; the "
                               "first is kept (an edit changes it)", m.channel, m.id)
        return report

    def amend(self, queued: Message | Edit | Delete,
              corrected: Message | Edit | Delete | None) -> bool:
        return self.inbox.amend(queued, corrected)

    def _conflicts(self, duplicates: list[Message]) -> list[Message]:
        """Those of ``duplicates`` whose text is not the text already received for their
        key (queued, or committed and never edited since)."""
        nodes = {n.node_id: n for n in self.store.get_nodes(m.key.node_id()
                                                            for m in duplicates)}
        out: list[Message] = []
        for m in duplicates:
            node = nodes.get(m.key.node_id())
            if node is not None:
                differs = not node.edited and node.text != m.text
            else:
                queued = self.inbox.queued_text(m.key)
                differs = queued is not None and queued != m.text
            if differs:
                out.append(m)
        return out

    def _resolve(self, ev: Message | Edit | Delete) -> Message | Edit | Delete:
        """Edits/deletes from files may name only channel and id: find the rest."""
        if isinstance(ev, Message) or (ev.platform and ev.space):
            return ev
        node = self.store.find_message(channel=ev.channel, message_id=ev.id,
                                       platform=ev.platform, space=ev.space)
        if node is not None:
            return ev.model_copy(update={"platform": node.platform, "space": node.space})
        found = self.inbox.locate(channel=ev.channel, message_id=ev.id)
        if found is not None:
            return ev.model_copy(update={"platform": found[0], "space": found[1]})
        return ev

    def process(self) -> int:
        return self.drain().committed

    def drain(self, on_progress: Callable[[int], None] | None = None) -> DrainReport:
        return self.worker.drain(on_progress=on_progress)

    def kick(self) -> None:
        self.worker.kick()

    def answering(self) -> AbstractContextManager[None]:
        return self.worker.answering()

    def before_write(self, hook: Callable[[], None]) -> None:
        self.worker.before_write(hook)

    def apply_requests(self) -> None:
        """Apply the forgets other processes queued while this one (or another writer)
        held the data directory; :meth:`drain` does so first."""
        with self._drain_lock:
            self._apply_requests()

    def _apply_requests(self) -> None:
        """Forgets queued by other processes while this one held the data directory."""
        for req in self.inbox.pending_requests():
            a = req.arg
            try:
                if req.kind == "forget_user" and a.get("user"):
                    n = self._forget_user(str(a["user"]), platform=a.get("platform"),
                                          space=a.get("space"))
                    result = f"forgot {n} messages"
                elif req.kind == "forget_message":
                    found = self.pipeline.forget_message(
                        platform=a.get("platform") or "", space=a.get("space") or "",
                        channel=a.get("channel") or "", message_id=a.get("message_id") or "")
                    result = "forgotten" if found else "not stored"
                else:
                    result = f"unknown request {req.kind!r} ignored"
            except Exception:  # noqa: BLE001 - stays queued; the next drain tries again
                logger.exception("queued request %d (%s) failed", req.seq, req.kind)
                continue
            logger.info("queued request %d (%s): %s", req.seq, req.kind, result)
            self.inbox.finish_request(req.seq, result)

    def queue_forget_user(self, user: str, *, platform: str | None = None,
                          space: str | None = None) -> int:
        """For a process that may not write: bury ``user``'s messages and scrub their
        queued text now, and queue the forget for the process that writes. Returns how many
        stored messages it will forget."""
        self.inbox.forget_user(user, platform=platform, space=space)
        rows = self._user_rows(user, platform=platform, space=space)
        self.inbox.bury([k for _, k in rows])
        self.inbox.request("forget_user", user=user, platform=platform, space=space)
        return len(rows)

    def queue_forget_message(self, *, platform: str, space: str, channel: str,
                             message_id: str) -> None:
        """:meth:`queue_forget_user` for one message."""
        self.inbox.bury([MessageKey(platform=platform, space=space, channel=channel,
                                    message_id=message_id)])
        self.inbox.request("forget_message", platform=platform, space=space, channel=channel,
                           message_id=message_id)

    def _user_rows(self, user: str, *, platform: str | None, space: str | None
                   ) -> list[tuple[str, MessageKey]]:
        return self.store.message_keys(Scope(platform=platform, space=space), speaker_id=user)

    def upsert_channels(self, channels: Iterable[Channel]) -> None:
        self.store.put_channels(list(channels))

    def forget_message(self, *, platform: str, space: str, channel: str, message_id: str) -> bool:
        with self._drain_lock:
            return self.pipeline.forget_message(platform=platform, space=space, channel=channel,
                                                message_id=message_id)

    def forget_user(self, user: str, *, platform: str | None = None,
                    space: str | None = None) -> int:
        """Forget everything a person said (offboarding), including messages still queued,
        parked or dead-lettered; every one of them is buried, so no retry, import or
        backfill brings it back."""
        with self._drain_lock:
            count = self._forget_user(user, platform=platform, space=space)
        self.feedback_log.forget_user(user)  # the questions they asked or rated
        return count

    def _forget_user(self, user: str, *, platform: str | None, space: str | None) -> int:
        # The inbox first: a later drain or `egmem retry` must not commit what is being
        # forgotten.
        queued = self.inbox.forget_user(user, platform=platform, space=space)
        self.store.bury(queued)
        rows = self._user_rows(user, platform=platform, space=space)
        self.inbox.bury([k for _, k in rows])
        count = self.writer.forget([nid for nid, _ in rows])
        self.pipeline.purge()
        return count

    def enforce_retention(self, days: int, *, now: datetime,
                          space: str | None = None, channel: str | None = None) -> int:
        """Forget every message older than ``days`` (optionally in one space/channel)."""
        from datetime import timedelta

        from memory.store import Window

        cutoff = now - timedelta(days=days)
        scope = Scope(space=space, channels=(channel,) if channel else None)
        with self._drain_lock:
            rows = self.store.message_keys(scope, Window(ts_to=cutoff))
            self.inbox.bury([k for _, k in rows])
            count = self.writer.forget([nid for nid, _ in rows])
            if count:
                self.pipeline.purge()
        logger.info("retention: forgot %d messages older than %d days", count, days)
        return count

    def maintain(self) -> None:
        """Index maintenance: fill search cards of rows from older versions, compact small
        fragments, build the ANN index once it pays."""
        with self._drain_lock:
            self.store.maintain()

    # ---- reads --------------------------------------------------------------------------
    def scope(self, *, platform: str, space: str, user: str | None, channel: str | None,
              widen: bool = False) -> Scope:
        return scope_for(self.store, platform=platform, space=space, user=user, channel=channel,
                         widen=widen)

    def ask(self, question: str, *, platform: str, space: str, user: str | None,
            channel: str | None, widen: bool = False,
            reference: datetime | None = None) -> Answer:
        scope = self.scope(platform=platform, space=space, user=user, channel=channel, widen=widen)
        logger.info("question in %s/%s (%d chars)", space or "*", channel or "*", len(question))
        # A lone surrogate (from a JSON escape) would crash the model client or a tokenizer.
        return self.reader.answer(valid_text(question), scope=scope, reference=reference,
                                  asker=user)

    def history(self, topic: str, *, platform: str, space: str, user: str | None,
                channel: str | None, widen: bool = False, k: int = 5) -> list[State]:
        scope = self.scope(platform=platform, space=space, user=user, channel=channel, widen=widen)
        return rank_history(self.tools.session(scope).read_current_state(topic, k=k), topic)

    def why(self, ident: str, *, platform: str, space: str, user: str | None,
            channel: str | None, widen: bool = True) -> list[EvidenceNode]:
        """The audit behind ``ident`` (a node id, a state id or a message id): the evidence
        nodes, each with its proposal and verification, that ``user`` may read — the scope
        of :meth:`ask` (with ``widen``: also the user's private conversations), enforced in
        the store query. A node outside the scope is indistinguishable from a missing one."""
        scope = self.scope(platform=platform, space=space, user=user, channel=channel, widen=widen)
        ident = ident.strip()
        nodes = self.store.get_nodes([ident], scope)
        if not nodes:
            members = [n.node_id for n in self.store.state_nodes([ident])]
            nodes = self.store.get_nodes(members, scope)
        if not nodes:
            nodes = self.store.get_nodes(self.store.message_node_ids(ident, scope), scope)
        return nodes

    # ---- the operator's view -------------------------------------------------------------
    def list_channels(self) -> dict[SpaceKey, list[ChannelSummary]]:
        return self.browser.list_channels()

    def channel_info(self, *, space: str, channel: str) -> ChannelSummary | None:
        return self.browser.channel_info(space=space, channel=channel)

    def channel_states(self, *, space: str, channel: str, q: str = "",
                       limit: int = MAX_STATES_LISTED) -> tuple[list[StateSummary], int]:
        return self.browser.channel_states(space=space, channel=channel, q=q, limit=limit)

    def load_state(self, state_id: str) -> State | None:
        return self.browser.load_state(state_id)

    def evidence_channels(self) -> list[tuple[str, str, str]]:
        return self.store.distinct_channels(Scope())

    def channel_records(self) -> list[Channel]:
        return self.store.channels()

    # ---- operations -----------------------------------------------------------------------
    def queued(self, *, status: Literal["pending", "dead"]) -> int:
        return self.inbox.count(status=status)

    def retry_dead(self, seqs: Sequence[int] | None = None) -> int:
        return self.inbox.retry_dead(seqs)

    def reindex(self) -> int:
        return self.store.reindex()

    @property
    def shared(self) -> bool:
        return self.store.shared

    def sync_lexical(self) -> int:
        return self.store.reconcile_lexical(full=True)

    def writer_stats(self) -> dict[str, Any] | None:
        stats = getattr(self.writer.proposer, "stats", None)
        if stats is None or not hasattr(stats, "snapshot"):
            return None
        snapshot: dict[str, Any] = stats.snapshot()
        return snapshot

    def stats(self) -> dict[str, Any]:
        nodes = self.store.node_stats()
        inbox = self.inbox.counts()
        out: dict[str, Any] = {
            "messages": self.inbox.count(kind="message"),
            "evidence_nodes": nodes.nodes,
            "states": self.store.states.count(),
            "chains_with_revisions": nodes.chains_with_revisions,
            "deleted_messages": self.inbox.count(kind="delete", status="done"),
            "edited_messages": nodes.edited,
            "verdicts": nodes.verdicts,
            "inbox": {"pending": inbox.get("pending", 0), "done": inbox.get("done", 0),
                      "dead": inbox.get("dead", 0), "parked_edits": inbox.get("parked", 0)},
            "requests_pending": len(self.inbox.pending_requests()),
            "dead_letters": [d.__dict__ for d in self.inbox.dead_letters()],
        }
        if self.usage is not None:
            out["llm"] = self.usage()
        writer_stats = self.writer_stats()
        if writer_stats is not None:
            out["writer"] = writer_stats
        return out

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    def close(self) -> None:
        try:
            self.close_daily_use()
            self.store.close()
            self.inbox.close()
        finally:
            if self.lock is not None:
                self.lock.release()
