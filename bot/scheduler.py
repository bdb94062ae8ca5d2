"""Scheduled jobs inside ``egmem serve``: drain, reconcile, retention, index maintenance,
and the chat front ends' weekly digests and uninstall deletions."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler

from adapters.scheduling import add_chat_jobs
from adapters.scheduling import guarded as _guarded
from bot.settings import Settings
from memory.ports import Upkeep

logger = logging.getLogger(__name__)

__all__ = ["add_chat_jobs", "build_scheduler", "enforce_retention"]


def enforce_retention(eg: Upkeep, settings: Settings, *, now: datetime | None = None) -> int:
    """Apply the global retention and every per-space/per-channel rule (each one forgets
    what is older than its own window)."""
    now = now or datetime.now(UTC)
    forgotten = 0
    if settings.retention_days:
        forgotten += eg.enforce_retention(settings.retention_days, now=now)
    for space, channel, days in settings.retention_rules:
        forgotten += eg.enforce_retention(days, now=now, space=space, channel=channel)
    return forgotten


def build_scheduler(
    eg: Upkeep,
    settings: Settings,
    *,
    reconcile: Callable[[], object] | None = None,
    drain_every_s: float = 2.0,
    reconcile_every_min: float = 15.0,
) -> BackgroundScheduler:
    """Jobs: drain the inbox (events acknowledged but not committed), reconcile recent
    platform history (missed events, late thread replies), enforce retention daily, and
    compact tables / build the vector index hourly."""
    sched = BackgroundScheduler(timezone=UTC)
    sched.add_job(_guarded("drain", eg.drain), "interval", seconds=drain_every_s,
                  id="drain", max_instances=1, coalesce=True)
    if reconcile is not None:
        sched.add_job(_guarded("reconcile", reconcile), "interval", minutes=reconcile_every_min,
                      id="reconcile", max_instances=1, coalesce=True)
    if settings.retention_days or settings.retention_rules:
        sched.add_job(_guarded("retention", lambda: enforce_retention(eg, settings)),
                      "interval", hours=24, id="retention", max_instances=1, coalesce=True,
                      next_run_time=datetime.now(UTC))
    if eg.shared:
        # Other workers write to the shared tables: pull their nodes into the local index.
        sched.add_job(_guarded("lexical-sync", eg.sync_lexical),
                      "interval", seconds=60, id="lexical-sync", max_instances=1, coalesce=True)
    sched.add_job(_guarded("maintenance", eg.maintain), "interval", hours=1, id="maintenance",
                  max_instances=1, coalesce=True)
    return sched
