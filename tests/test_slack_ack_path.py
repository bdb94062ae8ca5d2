"""A Slack message's ack touches only the inbox; the conversation's visibility is read from
the Web API after it and recorded before the message is committed, by whichever runs
first: the listener after the ack, or the writer worker's pre-write hook."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adapters.slack.app import web_client
from adapters.slack.directory import SlackDirectory
from adapters.slack.events import SlackEvents
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
    assert service.log == [("submit", "1712000001.000100"), ("upsert", SECRET),
                           ("commit", "1712000001.000100")]
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
