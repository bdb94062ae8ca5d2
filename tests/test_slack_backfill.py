"""Backfill, reconcile and membership sync against the fake Slack Web API (real WebClient,
real HTTP, real SQLite Inbox as the cursor store). Rate-limit waits go to a recorder."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from adapters.slack.backfill import backfill_slack, cursor_name, reconcile_recent
from adapters.slack.membership import fetch_channel, sync_channels
from memory.models import Edit, Message
from memory.store.inbox import Inbox
from tests.support.fake_slack import FakeSlack
from tests.support.list_service import ListService

TEAM = "T0TEST"
ALICE, BOB = "U0ALICE01", "U0BOB0001"
GENERAL, RANDOM, PRIV, DM = "C0GENERAL1", "C0RANDOM01", "C0PRIVATE1", "D0DM000001"


class SleepRecorder:
    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack(team_id=TEAM, page_cap=2) as fake:
        fake.add_user(ALICE, "Alice")
        fake.add_user(BOB, "Bob")
        fake.add_channel(GENERAL, "general", members=[ALICE, BOB])
        for i in range(5):
            fake.add_message(GENERAL, user=ALICE if i % 2 else BOB, text=f"general message {i}",
                             ts=f"171200000{i}.000100")
        for j in range(3):  # a thread under message 1: 3 replies, paged 2 at a time
            fake.add_message(GENERAL, user=BOB, text=f"reply {j}", ts=f"171200001{j}.000100",
                             thread_ts="1712000001.000100")
        fake.add_message(GENERAL, user=ALICE, text="", ts="1712000020.000100",
                         subtype="channel_join")
        yield fake


@pytest.fixture
def client(slack: FakeSlack) -> WebClient:
    return WebClient(token=slack.token, base_url=slack.base_url)


@pytest.fixture
def inbox(tmp_path: Path) -> Iterator[Inbox]:
    box = Inbox(tmp_path / "inbox.sqlite3")
    yield box
    box.close()


def ids(service: ListService) -> list[str]:
    return sorted(e.id for e in service.events)


ALL_GENERAL = sorted([f"171200000{i}.000100" for i in range(5)]
                     + [f"171200001{j}.000100" for j in range(3)])


def test_backfill_pages_history_and_threads_with_cursors(
    slack: FakeSlack, client: WebClient, inbox: Inbox
) -> None:
    service = ListService()
    report = backfill_slack(client, service, inbox_cursor_store=inbox, channel=GENERAL,
                            sleep=SleepRecorder())
    assert ids(service) == ALL_GENERAL
    assert all(isinstance(e, Message) for e in service.events)
    history = slack.calls_to("conversations.history")
    assert len(history) == 3  # 5 top-level messages + 1 join, 2 per page
    assert "cursor" not in history[0].params
    # each later page asks with a new cursor (the one the previous page returned)
    assert history[1].params["cursor"] and history[2].params["cursor"]
    assert history[1].params["cursor"] != history[2].params["cursor"]
    replies = slack.calls_to("conversations.replies")
    assert len(replies) == 2 and replies[1].params["cursor"]
    reply = next(e for e in service.events if e.id == "1712000010.000100")
    assert isinstance(reply, Message)
    assert reply.thread_id == "1712000001.000100" and reply.user_name == "Bob"
    assert reply.channel_name == "general"
    assert reply.permalink and reply.permalink.startswith("https://acme.slack.com/archives/")
    assert report.channels == 1 and report.events == 8 and report.new == 8
    assert json.loads(inbox.get_cursor(cursor_name(TEAM, GENERAL)) or "{}")["done"] is True


def test_backfill_waits_out_429_with_retry_after(
    slack: FakeSlack, client: WebClient, inbox: Inbox
) -> None:
    slack.rate_limit("conversations.history", retry_after=7)
    slack.rate_limit("conversations.replies", retry_after=3, times=2)
    sleep = SleepRecorder()
    service = ListService()
    report = backfill_slack(client, service, inbox_cursor_store=inbox, channel=GENERAL, sleep=sleep)
    assert sleep.calls == [7.0, 3.0, 3.0]
    assert report.rate_limit_waits == 3 and report.rate_limit_seconds == 13.0
    assert ids(service) == ALL_GENERAL


def test_backfill_resumes_from_the_stored_cursor(
    slack: FakeSlack, client: WebClient, inbox: Inbox
) -> None:
    service = ListService()
    # page 1 succeeds, page 2 fails hard: the run stops with the page-2 cursor stored
    original = slack._api_conversations_history
    pages = {"n": 0}

    def flaky(p: dict[str, object]) -> dict[str, object]:
        pages["n"] += 1
        if pages["n"] == 2:
            return {"ok": False, "error": "internal_error"}
        return original(p)

    slack._api_conversations_history = flaky  # type: ignore[method-assign]
    with pytest.raises(SlackApiError):
        backfill_slack(client, service, inbox_cursor_store=inbox, channel=GENERAL,
                       sleep=SleepRecorder())
    stored = json.loads(inbox.get_cursor(cursor_name(TEAM, GENERAL)) or "{}")
    assert stored["done"] is False and stored["cursor"]
    first_run = ids(service)
    assert first_run and first_run != ALL_GENERAL

    calls_before = len(slack.calls_to("conversations.history"))
    report = backfill_slack(client, service, inbox_cursor_store=inbox, channel=GENERAL,
                            sleep=SleepRecorder())
    resumed = slack.calls_to("conversations.history")[calls_before]
    assert resumed.params["cursor"] == stored["cursor"]
    assert report.resumed == [GENERAL]
    assert ids(service) == ALL_GENERAL  # nothing lost, nothing twice

    again = backfill_slack(client, service, inbox_cursor_store=inbox, channel=GENERAL,
                           sleep=SleepRecorder())
    assert again.done_before == [GENERAL] and again.events == 0


def test_backfill_since_limits_history(slack: FakeSlack, client: WebClient, inbox: Inbox) -> None:
    service = ListService()
    since = datetime.fromtimestamp(1712000003, UTC)
    backfill_slack(client, service, inbox_cursor_store=inbox, channel=GENERAL, since=since,
                   sleep=SleepRecorder())
    assert slack.calls_to("conversations.history")[0].params["oldest"] == "1712000003.000000"
    assert ids(service) == ["1712000003.000100", "1712000004.000100"]
    # a different window does not reuse the finished window's state
    backfill_slack(client, service, inbox_cursor_store=inbox, channel=GENERAL, since="1712000000",
                   sleep=SleepRecorder())
    assert ids(service) == ALL_GENERAL


def test_backfill_all_conversations_records_visibility_and_skips_unreadable(
    slack: FakeSlack, client: WebClient, inbox: Inbox
) -> None:
    slack.add_channel(PRIV, "leads", kind="group", members=[ALICE])
    slack.add_message(PRIV, user=ALICE, text="promo list", ts="1712000100.000100")
    slack.add_channel(DM, kind="im", members=[BOB], im_user=BOB)
    slack.add_message(DM, user=BOB, text="hi bot", ts="1712000200.000100")
    slack.add_channel(RANDOM, "random", bot_member=False)
    service = ListService()
    report = backfill_slack(client, service, inbox_cursor_store=inbox, sleep=SleepRecorder())
    # the bot's own DM holds questions to egmem: never read as team knowledge
    assert set(service.channels) == {GENERAL, PRIV}
    assert service.channels[PRIV].is_private and set(service.channels[PRIV].members) == {
        ALICE, slack.bot_user_id}
    assert not service.channels[GENERAL].is_private
    assert "1712000100.000100" in set(ids(service))
    assert "1712000200.000100" not in set(ids(service))
    # visibility goes in before any of that channel's messages
    assert service.log.index(("upsert", PRIV)) < service.log.index(("submit", "1712000100.000100"))
    assert report.channels == 2

    skipped = backfill_slack(client, service, inbox_cursor_store=inbox, channel=RANDOM,
                             sleep=SleepRecorder())
    assert skipped.skipped == [RANDOM] and skipped.events == 0


def test_reconcile_recent_resubmits_window_with_edits(
    slack: FakeSlack, client: WebClient
) -> None:
    slack.add_message(GENERAL, user=ALICE, text="standup at 4 pm (edited)",
                      ts="1712003000.000100", edited_ts="1712003100.000000")
    service = ListService()
    now = datetime.fromtimestamp(1712003604, UTC)
    report = reconcile_recent(client, service, hours=1, now=now, sleep=SleepRecorder())
    assert slack.calls_to("conversations.history")[0].params["oldest"] == "1712000004.000000"
    assert ids(service) == ["1712000004.000100", "1712003000.000100", "1712003000.000100"]
    edits = [e for e in service.events if isinstance(e, Edit)]
    assert [e.id for e in edits] == ["1712003000.000100"]
    assert edits[0].text == "standup at 4 pm (edited)"
    assert edits[0].ts == datetime.fromtimestamp(1712003100, UTC)
    assert report.channels == 1
    # idempotent: a second pass adds nothing new
    again = reconcile_recent(client, service, hours=1, now=now, sleep=SleepRecorder())
    assert again.new == 0 and again.events == report.events


def test_membership_pages_members(slack: FakeSlack, client: WebClient) -> None:
    many = [f"U{i:08d}" for i in range(5)]
    slack.add_channel(PRIV, "leads", kind="group", members=many)
    channel = fetch_channel(client, PRIV, team_id=TEAM, sleep=SleepRecorder())
    assert channel is not None and channel.is_private
    assert list(channel.members) == [*many, slack.bot_user_id]
    assert len(slack.calls_to("conversations.members")) == 3  # page_cap=2 → 6 members
    public = fetch_channel(client, GENERAL, team_id=TEAM, sleep=SleepRecorder())
    assert public is not None and not public.is_private and public.members == ()
    assert fetch_channel(client, "C0MISSING1", team_id=TEAM, sleep=SleepRecorder()) is None


def test_sync_channels_upserts_every_bot_conversation(slack: FakeSlack, client: WebClient) -> None:
    slack.add_channel(PRIV, "leads", kind="group", members=[ALICE])
    slack.add_channel(RANDOM, "random", bot_member=False)
    service = ListService()
    synced = sync_channels(client, service, team_id=TEAM, sleep=SleepRecorder())
    assert {c.id for c in synced} == {GENERAL, PRIV} == set(service.channels)
