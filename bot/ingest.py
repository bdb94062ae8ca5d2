"""File ingest: any supported file → inbox → memory, with per-line errors that stop nothing."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from adapters.exports import iter_events
from adapters.jsonl import JsonlItem
from memory.models import Channel, Delete, Edit, Message
from memory.ports import Importing

logger = logging.getLogger(__name__)

_CHUNK = 1000


def ingest_path(eg: Importing, path: Path, *, progress: bool = False,
                slack_url: str | None = None) -> dict[str, Any]:
    """Queue every record durably, then commit. Bad records are reported with their line and
    skipped; everything before and after them is kept. Re-ingesting adds nothing. Records
    not imported on purpose (bots, system notices) are counted in ``skipped`` with their
    reasons, so ``records == channels + new + duplicates + skipped + errors``.
    ``slack_url`` (``https://acme.slack.com``) builds Slack permalinks when the export
    does not reveal its workspace's URL."""
    queue = _Queue(eg, path)
    for item in iter_events(path, slack_permalink_base=slack_url):
        queue.add(item)
    queue.flush()
    _commit(eg, queue.report, progress=progress)
    return queue.report


class _Queue:
    """Records of one file on their way into the inbox, ``_CHUNK`` at a time, counted."""

    def __init__(self, eg: Importing, path: Path) -> None:
        self.eg = eg
        self.path = path
        self.report: dict[str, Any] = {
            "records": 0, "new": 0, "duplicates": 0, "errors": 0, "channels": 0,
            "skipped": 0, "skip_reasons": {},
            "committed": 0, "edits": 0, "deletes": 0, "queued": 0, "error_lines": [],
            "conflicts": 0, "refused": 0, "unknown_edits": 0}
        self.pending: list[Message | Edit | Delete] = []
        # channel names from the import's channel records: a message without one is shown
        # and read as said in #name, not in a bare id
        self.names: dict[tuple[str, str, str], str] = {}

    def problem(self, line: str) -> None:
        if len(self.report["error_lines"]) < 100:
            self.report["error_lines"].append(line)
        print(f"egmem: {line}", file=sys.stderr)

    def add(self, item: JsonlItem) -> None:
        report = self.report
        report["records"] += 1
        if item.error is not None:
            report["errors"] += 1
            self.problem(str(item.error))
            return
        if item.skipped is not None:
            # Every record lands in exactly one count: new, duplicate, skipped or error.
            report["skipped"] += 1
            reasons = report["skip_reasons"]
            reasons[item.skipped] = reasons.get(item.skipped, 0) + 1
            return
        ev = item.event
        if isinstance(ev, Channel):
            self.eg.upsert_channels([ev])
            report["channels"] += 1
            if ev.name:
                self.names[(ev.platform, ev.space, ev.id)] = ev.name
        elif ev is not None:
            if isinstance(ev, Message) and not ev.channel_name:
                name = self.names.get((ev.platform, ev.space, ev.channel))
                ev = ev.model_copy(update={"channel_name": name}) if name else ev
            self.pending.append(ev)
            if len(self.pending) >= _CHUNK:
                self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        report, path = self.report, self.path
        sub = self.eg.submit_report(self.pending)
        report["new"] += sub.new
        report["duplicates"] += len(sub.duplicates)
        report["refused"] += sub.refused
        for ev, reason in sub.rejected:
            report["errors"] += 1
            self.problem(f"{path}: {type(ev).__name__.lower()} {ev.channel}/{ev.id}: {reason}")
        for m in sub.conflicts:
            report["conflicts"] += 1
            self.problem(f"{path}: message {m.channel}/{m.id} was already received with other "
                         "text; the first is kept (an `edit` record changes it)")
        self.pending.clear()


def _commit(eg: Importing, report: dict[str, Any], *, progress: bool) -> None:
    """Drain what was queued and count it into ``report``."""
    total = eg.queued(status="pending")
    with tqdm(total=total, disable=not progress, unit="msg", desc="committing") as bar:
        drained = eg.drain(on_progress=bar.update)
    report["committed"] = drained.committed
    report["edits"] = drained.edits
    report["unknown_edits"] = drained.unknown_edits
    report["refused"] += drained.refused
    report["deletes"] = drained.deletes
    report["queued"] = eg.queued(status="pending")
    report["dead"] = eg.queued(status="dead")
    if drained.deferred:
        print("egmem: the writer endpoint is unreachable; messages stay queued and commit on "
              "the next run", file=sys.stderr)
