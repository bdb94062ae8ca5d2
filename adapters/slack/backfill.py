"""Backfill Slack history into memory, and reconcile the recent past.

:func:`backfill_slack` pages ``conversations.history`` (and ``conversations.replies`` for
each thread) of one or all conversations the bot is in, submitting every page through
``service.submit`` (idempotent: re-running never duplicates). After each page it stores
the next history cursor, so an interrupted backfill resumes where it stopped; a finished
channel is marked done. Slack's rate limits (HTTP 429 + ``Retry-After``; as little as one
history call a minute for non-Marketplace apps) are waited out, never treated as errors.

History is read under the same rule as live events: questions addressed to egmem (a
message mentioning the bot) are never submitted as team knowledge, and the bot's own DMs
(every one of them a question) are not read at all.

:func:`reconcile_recent` is the scheduler's safety net: it re-reads the last few hours of
every conversation (events lost while the bot was down, edits made meanwhile) and refreshes
channel membership. It is idempotent and keeps no cursor.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient
from tqdm import tqdm

from adapters.jsonl import parse_ts
from adapters.slack.directory import ChannelInfo, SlackDirectory
from adapters.slack.events import is_question
from adapters.slack.membership import SKIPPABLE_ERRORS, fetch_channel, list_bot_conversations
from adapters.slack.normalize import PLATFORM, normalize_message_event
from adapters.slack.webapi import RateLimitWaits, Sleep, error_code, paginate
from memory.errors import ConfigError, InputError
from memory.models import Delete, Edit, Message
from memory.ports import Cursors, MemoryService

logger = logging.getLogger(__name__)

DEFAULT_PAGE_SIZE = 200  # Slack's recommended maximum for history/replies


@dataclass
class SyncReport:
    """What a backfill or reconcile run did."""

    channels: int = 0
    done_before: list[str] = field(default_factory=list)  # already complete, not re-read
    resumed: list[str] = field(default_factory=list)  # continued from a stored cursor
    skipped: list[str] = field(default_factory=list)  # not readable (not_in_channel, …)
    pages: int = 0
    events: int = 0  # normalized events submitted
    new: int = 0  # of which the service had not seen before
    rate_limit_waits: int = 0
    rate_limit_seconds: float = 0.0


@dataclass
class _Run:
    client: WebClient
    service: MemoryService
    directory: SlackDirectory
    team_id: str
    bot_user_id: str
    permalink_base: str | None
    sleep: Sleep
    page_size: int
    waits: RateLimitWaits
    report: SyncReport
    on_events: Callable[[int], None] = lambda n: None


def cursor_name(team_id: str, channel: str) -> str:
    return f"slack:backfill:{team_id}:{channel}"


def backfill_slack(
    client: WebClient,
    service: MemoryService,
    *,
    inbox_cursor_store: Cursors,
    channel: str | None = None,
    since: datetime | str | None = None,
    progress: bool = True,
    sleep: Sleep = time.sleep,
    page_size: int = DEFAULT_PAGE_SIZE,
    directory: SlackDirectory | None = None,
) -> SyncReport:
    """Backfill one conversation (``channel``) or every conversation the bot is in,
    optionally only messages at or after ``since`` (a datetime, ISO 8601 or epoch string).

    Resumable: the history cursor is stored under :func:`cursor_name` after each page;
    a later run with the same ``since`` continues there, and skips channels already done.
    Unreadable channels are skipped and listed in the report. With ``progress`` and a
    terminal on stderr, shows a per-channel progress bar with an ETA.
    """
    run = _start(client, service, sleep=sleep, page_size=page_size, directory=directory)
    oldest = _oldest(since)
    targets = _targets(run, [channel] if channel else None)
    bar = _bar(len(targets), enabled=progress, desc="Slack backfill")
    run.on_events = lambda n: bar.set_postfix(messages=run.report.events, refresh=False)
    try:
        for cid, info in targets:
            _backfill_channel(run, inbox_cursor_store, cid, info, oldest=oldest)
            bar.update(1)
    finally:
        bar.close()
        _finish(run)
    return run.report


def reconcile_recent(
    client: WebClient,
    service: MemoryService,
    *,
    hours: float = 24.0,
    channels: Sequence[str] | None = None,
    now: datetime | None = None,
    sleep: Sleep = time.sleep,
    page_size: int = DEFAULT_PAGE_SIZE,
    directory: SlackDirectory | None = None,
) -> SyncReport:
    """Re-read the last ``hours`` of each conversation (default: all the bot is in) and
    submit what is there: missed messages, and the current text of edited ones as
    :class:`Edit`. Also refreshes each channel's visibility and members.

    Known gap: a thread whose parent is older than the window is not revisited (Slack's
    history lists parents, not replies); deletions made while the bot was down are not
    detected here.
    """
    run = _start(client, service, sleep=sleep, page_size=page_size, directory=directory)
    moment = now or datetime.now(UTC)
    oldest = _slack_ts(moment - timedelta(hours=hours))
    for cid, info in _targets(run, list(channels) if channels is not None else None):
        if not _upsert_channel(run, cid, info):
            continue
        run.report.channels += 1
        try:
            for page, _ in paginate(run.client.conversations_history, key="messages",
                                    sleep=run.sleep, waits=run.waits, channel=cid,
                                    oldest=oldest, limit=run.page_size):
                _submit_page(run, cid, page, with_edits=True)
        except SlackApiError as exc:
            if error_code(exc) not in SKIPPABLE_ERRORS:
                raise
            run.report.skipped.append(cid)
    _finish(run)
    return run.report


# --- internals ---------------------------------------------------------------------------


def _start(client: WebClient, service: MemoryService, *, sleep: Sleep, page_size: int,
           directory: SlackDirectory | None) -> _Run:
    directory = directory or SlackDirectory(client=client)
    ws = directory.workspace()
    if ws is None or not ws.team_id:
        raise ConfigError("Slack auth.test failed: check SLACK_BOT_TOKEN (and "
                          "EGMEM_SLACK_API_URL if set)")
    return _Run(client=client, service=service, directory=directory, team_id=ws.team_id,
                bot_user_id=ws.bot_user_id, permalink_base=directory.permalink_base(),
                sleep=sleep,
                page_size=max(1, min(page_size, 1000)), waits=RateLimitWaits(),
                report=SyncReport())


def _finish(run: _Run) -> None:
    run.report.rate_limit_waits = run.waits.count
    run.report.rate_limit_seconds = run.waits.seconds
    r = run.report
    logger.info("Slack sync: %d channel(s), %d page(s), %d event(s) (%d new), %d rate-limit "
                "wait(s)", r.channels, r.pages, r.events, r.new, r.rate_limit_waits)


def _oldest(since: datetime | str | None) -> str | None:
    if since is None:
        return None
    try:
        moment = since if isinstance(since, datetime) else parse_ts(since)
    except ValueError as exc:
        raise InputError(f"--since: {exc}") from exc
    return _slack_ts(moment)


def _slack_ts(moment: datetime) -> str:
    return f"{moment.timestamp():.6f}"


def _targets(run: _Run, channels: list[str] | None) -> list[tuple[str, ChannelInfo | None]]:
    if channels is not None:
        return [(cid, None) for cid in channels]
    infos = list_bot_conversations(run.client, sleep=run.sleep, waits=run.waits)
    # The bot's own DMs hold questions to egmem, never team knowledge.
    return [(info.id, info) for info in infos if not info.is_im]


def _bar(total: int, *, enabled: bool, desc: str) -> tqdm[Any]:
    show = enabled and sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit="channel", disable=not show, file=sys.stderr,
                dynamic_ncols=True)


def _upsert_channel(run: _Run, cid: str, info: ChannelInfo | None) -> bool:
    """Record visibility first, so nothing from a private channel is ever stored as public.
    False if the channel is not readable."""
    info = info or run.directory.channel(cid)  # cached: also serves channel names
    if info is not None and info.is_im:
        run.report.skipped.append(cid)  # a DM with egmem: questions, not team knowledge
        return False
    record = fetch_channel(run.client, cid, team_id=run.team_id, info=info, sleep=run.sleep,
                           waits=run.waits)
    if record is None:
        run.report.skipped.append(cid)
        return False
    run.service.upsert_channels([record])
    return True


def _backfill_channel(run: _Run, store: Cursors, cid: str, info: ChannelInfo | None, *,
                      oldest: str | None) -> None:
    key = cursor_name(run.team_id, cid)
    state = _load_state(store.get_cursor(key))
    cursor: str | None = None
    if state is not None and state.get("oldest") == oldest:
        if state.get("done"):
            run.report.done_before.append(cid)
            return
        stored = state.get("cursor")
        cursor = stored if isinstance(stored, str) and stored else None
        if cursor:
            run.report.resumed.append(cid)
    if not _upsert_channel(run, cid, info):
        return
    run.report.channels += 1
    kwargs: dict[str, Any] = {"channel": cid, "limit": run.page_size}
    if oldest is not None:
        kwargs["oldest"] = oldest
    try:
        for page, nxt in paginate(run.client.conversations_history, key="messages",
                                  cursor=cursor, sleep=run.sleep, waits=run.waits, **kwargs):
            _submit_page(run, cid, page, with_edits=False)
            # Stored only after the page (and its threads) is durable in the service.
            store.set_cursor(key, json.dumps({"oldest": oldest, "cursor": nxt,
                                              "done": nxt is None}))
    except SlackApiError as exc:
        if error_code(exc) not in SKIPPABLE_ERRORS:
            raise
        logger.warning("skipping Slack channel %s: %s", cid, error_code(exc))
        run.report.skipped.append(cid)


def _load_state(raw: str | None) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _submit_page(run: _Run, cid: str, page: Iterable[Any], *, with_edits: bool) -> None:
    events: list[Message | Edit | Delete] = []
    for raw in page:
        if not isinstance(raw, Mapping):
            continue
        events.extend(_normalize(run, cid, raw, with_edits=with_edits))
        if _is_thread_parent(raw):
            events.extend(_thread(run, cid, str(raw["ts"]), with_edits=with_edits))
    run.report.pages += 1
    if events:
        run.report.new += run.service.submit(events)
        run.report.events += len(events)
        run.on_events(len(events))


def _is_thread_parent(msg: Mapping[str, Any]) -> bool:
    ts = msg.get("ts")
    count = msg.get("reply_count")
    return isinstance(ts, str) and msg.get("thread_ts") == ts and isinstance(count, int) \
        and count > 0


def _thread(run: _Run, cid: str, thread_ts: str, *,
            with_edits: bool) -> list[Message | Edit | Delete]:
    out: list[Message | Edit | Delete] = []
    for page, _ in paginate(run.client.conversations_replies, key="messages", sleep=run.sleep,
                            waits=run.waits, channel=cid, ts=thread_ts, limit=run.page_size):
        for raw in page:
            # Every replies page starts with the parent, which history already gave us.
            if isinstance(raw, Mapping) and raw.get("ts") != thread_ts:
                out.extend(_normalize(run, cid, raw, with_edits=with_edits))
    return out


def _normalize(run: _Run, cid: str, raw: Mapping[str, Any], *,
               with_edits: bool) -> list[Message | Edit | Delete]:
    event = {**raw, "channel": cid}
    if is_question(event, run.bot_user_id):
        # Addressed to egmem: answered when asked, never team knowledge. One edited into a
        # question may have been remembered before the edit: forget it.
        ts = raw.get("ts")
        if isinstance(raw.get("edited"), Mapping) and isinstance(ts, str):
            return [Delete(platform=PLATFORM, space=run.team_id, channel=cid, id=ts)]
        return []
    item = normalize_message_event(event, team_id=run.team_id, users=run.directory.names(),
                                   channel_name=run.directory.channel_name(cid),
                                   permalink_base=run.permalink_base)
    if not isinstance(item, Message):
        return []
    out: list[Message | Edit | Delete] = [item]
    edited = raw.get("edited")
    if with_edits and isinstance(edited, Mapping):
        edited_ts = edited.get("ts")
        try:
            when = parse_ts(edited_ts) if isinstance(edited_ts, str) else item.ts
        except ValueError:
            when = item.ts
        out.append(Edit(platform=PLATFORM, space=item.space, channel=cid, id=item.id,
                        text=item.text, ts=when))
    return out
