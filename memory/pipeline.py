"""Drains the inbox into memory: per channel, in timestamp order, exactly once.

An event is marked done only after its commit; a crash before that replays it, and the
writer's deterministic node ids make the replay a no-op where the commit had landed.
A batch that keeps failing is split so one poison message cannot block its channel; after
``max_attempts`` it is dead-lettered (visible in ``egmem stats``, retried by ``egmem retry``).
Endpoint errors are sorted by meaning: a request the endpoint refuses (``RequestRejected``,
naming its messages when the writer narrowed it down) counts as that batch's failed attempt;
an endpoint that is unavailable or misconfigured leaves everything queued for a later drain.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from memory.errors import EndpointError, RequestRejected
from memory.faults import FaultPoints
from memory.models import Delete, Edit, Message, MessageKey
from memory.store.inbox import Inbox, Pending
from memory.store.ports import Store
from memory.writer import Writer

logger = logging.getLogger(__name__)


@dataclass
class DrainReport:
    committed: int = 0
    edits: int = 0
    # Edits of messages not in memory (yet): kept, and applied when the message arrives.
    unknown_edits: int = 0
    deletes: int = 0
    # Messages not committed because they were deleted or forgotten before their commit.
    refused: int = 0
    failed: int = 0
    dead: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    deferred: bool = False


class Pipeline:
    def __init__(self, *, inbox: Inbox, writer: Writer, store: Store,
                 batch_size: int = 1024, faults: FaultPoints | None = None) -> None:
        self.inbox = inbox
        self.writer = writer
        self.store = store
        self.batch_size = batch_size
        self.faults = faults or FaultPoints()

    def drain(self, *, on_progress: Callable[[int], None] | None = None) -> DrainReport:
        report = DrainReport()
        for channel in self.inbox.channels_with_work():
            try:
                self._drain_channel(channel, report, on_progress)
            except EndpointError as exc:
                # The model endpoint is down: leave everything queued for a later drain.
                logger.warning("writer endpoint unavailable; %s stays queued: %s", channel, exc)
                report.deferred = True
                break
        if report.deletes or report.edits:
            # Replaced and removed text must not linger in old versions or dead segments.
            self.purge()
        elif report.refused:
            self.inbox.checkpoint()  # the refused messages' queued text left the WAL
        return report

    def purge(self) -> None:
        """Make forgotten text unrecoverable: drop old table versions, dead index segments
        and the inbox WAL."""
        self.store.purge()
        self.inbox.checkpoint()

    def _drain_channel(
        self, channel: tuple[str, str, str], report: DrainReport,
        on_progress: Callable[[int], None] | None,
    ) -> None:
        while True:
            batch = self.inbox.pending(channel, limit=self.batch_size)
            if not batch:
                return
            run: list[Pending] = []
            for item in batch:
                if item.kind == "message":
                    run.append(item)
                    continue
                self._commit_messages(run, report)
                run = []
                self._apply_change(item, report)
            self._commit_messages(run, report)
            # A long drain leaves a fragment per commit; keep lookups off hundreds of them.
            self.store.compact_if_fragmented()
            if on_progress is not None:
                on_progress(len(batch))

    def _commit_messages(self, run: list[Pending], report: DrainReport) -> None:
        if not run:
            return
        msgs = [p.event for p in run if isinstance(p.event, Message)]
        # Edits that arrived before their message apply now, before it is analysed.
        parked = self.inbox.parked_edits(m.key for m in msgs)
        msgs = [m.model_copy(update={"text": parked[m.key][1].text, "edited": True})
                if m.key in parked else m for m in msgs]
        try:
            result = self.writer.write(msgs)
        except RequestRejected as exc:
            named = {run_item.seq for run_item in run
                     if isinstance(run_item.event, Message) and run_item.event.id in
                     exc.message_ids}
            if named and len(run) > 1:
                # The refused message's attempt counts; the rest of the batch goes on.
                dead = self.inbox.mark_failed(sorted(named), f"{type(exc).__name__}: {exc}")
                report.failed += len(named)
                report.dead += len(dead)
                self._commit_messages([p for p in run if p.seq not in named], report)
                return
            self._failed(run, exc, report)
            return
        except EndpointError:
            raise
        except Exception as exc:  # noqa: BLE001 - any writer failure must not lose messages
            logger.exception("commit of %d messages failed", len(run))
            self._failed(run, exc, report)
            return
        self.faults.reach("committed")
        self.inbox.mark_done([*(p.seq for p in run), *(seq for seq, _ in parked.values())])
        report.committed += result.committed
        report.refused += result.refused
        for verdict, n in result.verdicts.items():
            report.verdicts[verdict] = report.verdicts.get(verdict, 0) + n

    def _failed(self, run: list[Pending], exc: Exception, report: DrainReport) -> None:
        """Split a failing batch until the failure is one message's, then count its attempt."""
        if len(run) > 1:
            mid = len(run) // 2
            self._commit_messages(run[:mid], report)
            self._commit_messages(run[mid:], report)
            return
        dead = self.inbox.mark_failed([run[0].seq], f"{type(exc).__name__}: {exc}")
        report.failed += 1
        report.dead += len(dead)

    def _apply_change(self, item: Pending, report: DrainReport) -> None:
        ev = item.event
        try:
            if isinstance(ev, Edit):
                key = MessageKey(platform=ev.platform, space=ev.space, channel=ev.channel,
                                 message_id=ev.id)
                if self.inbox.buried([key]):
                    self.inbox.scrub(platform=ev.platform, space=ev.space, channel=ev.channel,
                                     message_id=ev.id)
                    report.refused += 1
                    return
                if not self.writer.edit(platform=ev.platform, space=ev.space, channel=ev.channel,
                                        message_id=ev.id, text=ev.text):
                    logger.info("edit of unknown message %s/%s kept until it arrives",
                                ev.channel, ev.id)
                    self.inbox.park(item.seq)
                    report.unknown_edits += 1
                    return
                report.edits += 1
            elif isinstance(ev, Delete):
                self.forget_message(platform=ev.platform, space=ev.space, channel=ev.channel,
                                    message_id=ev.id, purge=False)
                report.deletes += 1
        except Exception as exc:  # noqa: BLE001
            if isinstance(exc, EndpointError) and not isinstance(exc, RequestRejected):
                raise
            logger.exception("applying %s %s failed", item.kind, item.seq)
            dead = self.inbox.mark_failed([item.seq], f"{type(exc).__name__}: {exc}")
            report.failed += 1
            report.dead += len(dead)
            return
        self.inbox.mark_done([item.seq])

    def forget_message(self, *, platform: str, space: str, channel: str, message_id: str,
                       purge: bool = True) -> bool:
        node = self.store.find_message(channel=channel, message_id=message_id,
                                       platform=platform, space=space)
        # Buried first (and its queued text dropped): nothing can bring it back, through
        # this inbox (checked at submit) or any other (checked at commit).
        key = MessageKey(platform=platform, space=space, channel=channel,
                         message_id=message_id)
        self.inbox.bury([key])
        self.store.bury([key])
        found = False
        if node is not None:
            found = self.writer.forget([node.node_id]) > 0
        if purge:
            self.purge()
        return found
