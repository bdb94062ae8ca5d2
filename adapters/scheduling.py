"""The chat front ends' scheduled jobs (weekly digests, uninstall deletions), added to the
apscheduler scheduler ``egmem serve`` runs."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC

from apscheduler.schedulers.base import BaseScheduler
from apscheduler.triggers.cron import CronTrigger

logger = logging.getLogger(__name__)


def guarded(name: str, job: Callable[[], object]) -> Callable[[], None]:
    """``job`` with its failures logged: one failed run must not stop the schedule."""

    def run() -> None:
        try:
            job()
        except Exception:  # noqa: BLE001 - one failed run must not stop the schedule
            logger.exception("scheduled job %s failed", name)

    return run


def add_chat_jobs(
    sched: BaseScheduler,
    *,
    digest: Callable[[], object] | None = None,
    uninstalls: Callable[[], object] | None = None,
) -> None:
    """The chat front ends' jobs: the weekly digest (Mondays 09:00 UTC) and the hourly
    deletion of workspaces whose uninstall grace period is over."""
    if digest is not None:
        sched.add_job(guarded("digest", digest), CronTrigger(day_of_week="mon", hour=9,
                                                             timezone=UTC),
                      id="digest", max_instances=1, coalesce=True, replace_existing=True)
    if uninstalls is not None:
        sched.add_job(guarded("uninstalls", uninstalls), "interval", hours=1,
                      id="uninstalls", max_instances=1, coalesce=True, replace_existing=True)
