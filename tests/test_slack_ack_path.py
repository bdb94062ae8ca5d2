"""A Slack message's ack touches only the inbox: no Web API call, whatever the directory has
cached. The conversation's visibility, and the names the caches did not hold, are read from
the Web API after it and in place before the message is committed, by whichever runs
first: the listener after the ack, or the writer worker's pre-write hook."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.slack.app import web_client
from adapters.slack.directory import SlackDirectory
from adapters.slack.events import SlackEvents
from memory.models import Edit, Message
from memory.service import Egmem
from tests.support.fake_slack import FakeSlack
from tests.support.list_service import ListService

TEAM, BOT, ALICE = "T061EG9R6", "U0BOTUSER", "U024BE7LH"
SECRET = "C0PRIV0001"


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack(team_id=TEAM, bot_user_id=BOT) as fake:
        fake.add_user(ALICE, "Alice")
        fake.add_channel(SECRET, "secret-plans", kind="group", members=[ALICE])
        yield fake


def event(ts: str) -> dict[str, str]:
    return {"type": "message", "text": "budget is 40k", "user": ALICE, "ts": ts,
            "channel": SECRET, "channel_type": "group", "team": TEAM}


def test_the_ack_submits_only_and_the_commit_records_visibility_first(slack: FakeSlack
                                                                      ) -> None:
    service = ListService()
    events = SlackEvents(service=service, directory=SlackDirectory(
        client=web_client(bot_token=slack.token, api_url=slack.base_url)))
    service.before_write(events.sync_pending)
    events.ingest(TEAM, event("1712000001.000100"), bot_user_id=BOT)
    assert service.log == [("submit", "1712000001.000100")]
    assert slack.calls_to("conversations.members") == []
    service.process()  # no listener ran: the worker's hook records the visibility first
    assert service.log == [("submit", "1712000001.000100"), ("amend", "1712000001.000100"),
                           ("upsert", SECRET), ("commit", "1712000001.000100")]
    assert service.channels[SECRET].is_private
    assert set(service.channels[SECRET].members) == {ALICE, BOT}


def test_a_failed_sync_is_tried_again_before_the_next_commit(slack: FakeSlack) -> None:
    service = ListService()
    events = SlackEvents(service=service, directory=SlackDirectory(
        client=web_client(bot_token=slack.token, api_url=slack.base_url)))
    calls = []

    def broken() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("network down")

    events._queue(broken)
    events.sync_pending()  # logged; kept for the next run
    events.sync_pending()
    assert calls == [1, 1]


# --- names: from the caches on the ack path, completed before the commit -----------------

BOB = "U0G9QF9C6"
GENERAL = "C0CJ9FJ4A"
PERMALINK = f"https://acme.slack.com/archives/{GENERAL}/p1712000002000100"


def said(ts: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "text": text, "user": ALICE, "ts": ts, "channel": GENERAL,
            "channel_type": "channel", "team": TEAM, **extra}


def changed(ts: str, old: str, new: str, *, at: str) -> dict[str, Any]:
    return {"type": "message", "subtype": "message_changed", "channel": GENERAL,
            "channel_type": "channel", "ts": at, "team": TEAM,
            "message": {"type": "message", "user": ALICE, "text": new, "ts": ts,
                        "edited": {"user": ALICE, "ts": at}},
            "previous_message": {"type": "message", "user": ALICE, "text": old, "ts": ts}}


@pytest.fixture
def team() -> Iterator[FakeSlack]:
    with FakeSlack(team_id=TEAM, bot_user_id=BOT) as fake:
        fake.add_user(ALICE, "Alice")
        fake.add_user(BOB, "Bob")
        fake.add_channel(GENERAL, "general", members=[ALICE, BOB])
        yield fake


def directory(slack: FakeSlack) -> SlackDirectory:
    return SlackDirectory(client=web_client(bot_token=slack.token, api_url=slack.base_url))


def test_the_ack_makes_no_web_api_call_with_a_cold_directory(team: FakeSlack) -> None:
    service = ListService()
    events = SlackEvents(service=service, directory=directory(team))
    events.ingest(TEAM, said("1712000002.000100", "<@U0G9QF9C6> can you confirm?"),
                  bot_user_id=BOT)
    events.ingest(TEAM, changed("1712000002.000100", "<@U0G9QF9C6> can you confirm?",
                                "<@U0G9QF9C6> confirm by Friday?", at="1712000003.000100"),
                  bot_user_id=BOT)
    assert team.calls == []
    message, edit = service.events
    assert isinstance(message, Message) and isinstance(edit, Edit)
    assert (message.user_name, message.channel_name, message.permalink) == ("", None, None)
    assert edit.text == "@U0G9QF9C6 confirm by Friday?"


def test_a_warm_directory_needs_no_correction(team: FakeSlack) -> None:
    service = ListService()
    events = SlackEvents(service=service, directory=directory(team))
    events.ingest(TEAM, said("1712000002.000100", "<@U0G9QF9C6> can you confirm?"),
                  bot_user_id=BOT)
    service.before_write(events.sync_pending)
    service.process()
    calls = len(team.calls)
    events.ingest(TEAM, said("1712000004.000100", "<@U0G9QF9C6> and you?"), bot_user_id=BOT)
    assert team.calls[calls:] == []
    [_, second] = service.events
    assert isinstance(second, Message)
    assert (second.user_name, second.text, second.channel_name) == (
        "Alice", "@Bob and you?", "general")
    service.process()
    assert ("amend", second.id) not in service.log


def real_service(tmp_path: Path) -> Egmem:
    from bot.app import build
    from bot.settings import Settings

    return build(Settings(data=str(tmp_path / "data"), embedder="hashing"))


def test_the_committed_message_carries_the_names_and_a_retry_never_duplicates(
        team: FakeSlack, tmp_path: Path) -> None:
    service = real_service(tmp_path)
    try:
        events = SlackEvents(service=service, directory=directory(team))
        service.before_write(events.sync_pending)
        first = said("1712000002.000100", "<@U0G9QF9C6> the budget is 40k, can you confirm?")
        events.ingest(TEAM, first, bot_user_id=BOT)
        events.ingest(TEAM, first, bot_user_id=BOT)  # Slack's retry, before any commit
        assert team.calls == []
        service.process()
        node = service.store.find_message(channel=GENERAL, message_id="1712000002.000100")
        assert node is not None
        assert (node.speaker, node.channel_name, node.permalink) == ("Alice", "general",
                                                                     PERMALINK)
        assert node.text == "@Bob the budget is 40k, can you confirm?"
        # an edit mentioning someone, retried before and after its correction
        edit = changed("1712000002.000100", first["text"],
                       "<@U0G9QF9C6> the budget is 45k, can you confirm?",
                       at="1712000005.000100")
        events.directory.forget_user(BOB)  # not cached at the edit's ack
        events.ingest(TEAM, edit, bot_user_id=BOT)
        events.ingest(TEAM, edit, bot_user_id=BOT)
        events.sync_pending()  # the listener after the ack corrects it
        events.ingest(TEAM, edit, bot_user_id=BOT)  # a late retry, names cached now
        events.ingest(TEAM, first, bot_user_id=BOT)
        service.process()
        node = service.store.find_message(channel=GENERAL, message_id="1712000002.000100")
        assert node is not None and node.edited
        assert node.text == "@Bob the budget is 45k, can you confirm?"
        assert service.stats()["messages"] == 1
        assert service.inbox.count(kind="edit") == 1
        assert service.inbox.counts() == {"done": 2}
    finally:
        service.close()


def test_a_commit_during_the_ack_waits_for_the_correction(team: FakeSlack) -> None:
    service = ListService()
    events = SlackEvents(service=service, directory=directory(team))
    entered, release = threading.Event(), threading.Event()
    service.before_write(entered.set)
    service.before_write(events.sync_pending)
    submit = service.submit

    def slow_submit(items: Any) -> int:
        release.wait()  # a slow disk: the ack's submit has not returned yet
        return submit(items)

    service.submit = slow_submit  # type: ignore[method-assign]
    ack = threading.Thread(target=events.ingest, daemon=True, args=(
        TEAM, said("1712000002.000100", "<@U0G9QF9C6> can you confirm?")),
        kwargs={"bot_user_id": BOT})
    commit = threading.Thread(target=service.process, daemon=True)
    try:
        ack.start()
        while not events._corrections:  # the ack path has queued its correction
            ack.join(0.01)
        commit.start()
        entered.wait()
        commit.join(1.0)
        assert commit.is_alive()  # the commit's hook waits for the submit it corrects
    finally:
        release.set()
        ack.join()
        commit.join()
    done = service.committed[("slack", TEAM, GENERAL, "1712000002.000100")]
    assert (done.user_name, done.text) == ("Alice", "@Bob can you confirm?")


def test_a_failed_visibility_sync_does_not_hold_back_the_names(team: FakeSlack) -> None:
    service = ListService()
    events = SlackEvents(service=service, directory=directory(team))
    service.before_write(events.sync_pending)

    def unreachable(*args: Any, **kwargs: Any) -> None:
        raise OSError("network down")

    events.ensure_channel = unreachable  # type: ignore[method-assign]
    events.ingest(TEAM, said("1712000002.000100", "<@U0G9QF9C6> can you confirm?"),
                  bot_user_id=BOT)
    service.process()
    done = service.committed[("slack", TEAM, GENERAL, "1712000002.000100")]
    assert (done.user_name, done.text, done.permalink) == (
        "Alice", "@Bob can you confirm?", PERMALINK)
    assert GENERAL not in service.channels  # unrecorded: private to nobody until it works
