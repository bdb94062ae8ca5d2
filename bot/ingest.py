"""File ingest: any supported file → inbox → memory, with per-line errors that stop nothing."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from adapters.exports import iter_events
from bot.runtime import Egmem
from memory.models import Channel, Delete, Edit, Message

logger = logging.getLogger(__name__)

_CHUNK = 1000


def ingest_path(eg: Egmem, path: Path, *, progress: bool = False,
                slack_url: str | None = None) -> dict[str, Any]:
    """Queue every record durably, then commit. Bad records are reported with their line and
    skipped; everything before and after them is kept. Re-ingesting adds nothing. Records
    not imported on purpose (bots, system notices) are counted in ``skipped`` with their
    reasons, so ``records == channels + new + duplicates + skipped + errors``.
    ``slack_url`` (``https://acme.slack.com``) builds Slack permalinks when the export
    does not reveal its workspace's URL."""
    report: dict[str, Any] = {"records": 0, "new": 0, "duplicates": 0, "errors": 0, "channels": 0,
              "skipped": 0, "skip_reasons": {},
              "committed": 0, "edits": 0, "deletes": 0, "queued": 0, "error_lines": [],
              "conflicts": 0, "refused": 0, "unknown_edits": 0}
    pending: list[Message | Edit | Delete] = []

    def problem(line: str) -> None:
        if len(report["error_lines"]) < 100:
            report["error_lines"].append(line)
        print(f"egmem: {line}", file=sys.stderr)

    def flush() -> None:
        if pending:
            sub = eg.submit_report(pending)
            report["new"] += sub.new
            report["duplicates"] += len(sub.duplicates)
            report["refused"] += sub.refused
            for ev, reason in sub.rejected:
                report["errors"] += 1
                problem(f"{path}: {type(ev).__name__.lower()} {ev.channel}/{ev.id}: {reason}")
            for m in sub.conflicts:
                report["conflicts"] += 1
                problem(f"{path}: message {m.channel}/{m.id} was already received with other "
                        "text; the first is kept (an `edit` record changes it)")
            pending.clear()

    for item in iter_events(path, slack_permalink_base=slack_url):
        report["records"] += 1
        if item.error is not None:
            report["errors"] += 1
            problem(str(item.error))
            continue
        if item.skipped is not None:
            # Every record lands in exactly one count: new, duplicate, skipped or error.
            report["skipped"] += 1
            reasons = report["skip_reasons"]
            reasons[item.skipped] = reasons.get(item.skipped, 0) + 1
            continue
        ev = item.event
        if isinstance(ev, Channel):
            eg.upsert_channels([ev])
            report["channels"] += 1
        elif ev is not None:
            pending.append(ev)
            if len(pending) >= _CHUNK:
                flush()
    flush()
    total = eg.inbox.count(status="pending")
    with tqdm(total=total, disable=not progress, unit="msg", desc="committing") as bar:
        drained = eg.drain(on_progress=bar.update)
    report["committed"] = drained.committed
    report["edits"] = drained.edits
    report["unknown_edits"] = drained.unknown_edits
    report["refused"] += drained.refused
    report["deletes"] = drained.deletes
    report["queued"] = eg.inbox.count(status="pending")
    report["dead"] = eg.inbox.count(status="dead")
    if drained.deferred:
        print("egmem: the writer endpoint is unreachable; messages stay queued and commit on "
              "the next run", file=sys.stderr)
    return report
