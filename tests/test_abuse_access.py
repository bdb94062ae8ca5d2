"""Who reads less than the public channels, through the fake Slack Web API and the real
memory: Slack guests (``is_restricted``/``is_ultra_restricted``) read only the channels they
are members of, people of another organization (Slack Connect) only the shared channel they
ask from, and an answer posted where such people read along shows only what they may read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_slack_app import ALICE, BOT, GENERAL, TEAM, envelope, message
from tests.test_slack_daily import Daily, daily, real_service

FINANCE, CLIENT, SHARED = "C0FINANCE1", "C0CLIENT01", "C0SHARED01"
GUEST, EXTERNAL = "U0GUEST001", "U0EXTERN01"
FACT = "The Q3 acquisition budget for Initech is 4.2 million dollars"
QUESTION = "what is the acquisition budget for Initech?"


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Daily]:
    service = real_service(tmp_path)
    try:
        with daily(service) as harness:
            slack = harness.slack
            slack.add_user(GUEST, "Gus Guest", single_channel=True)
            slack.add_user(EXTERNAL, "Erik External", team_id="T0PARTNER")
            slack.add_channel(FINANCE, "finance", members=[ALICE])
            slack.add_channel(CLIENT, "client-acme", members=[ALICE, GUEST])
            slack.add_channel(SHARED, "acme-x-partner", members=[ALICE, EXTERNAL],
                              ext_shared=True)
            harness.event(envelope(message(FACT, ts="1712000001.000100", channel=FINANCE),
                                   event_id="E1"))
            harness.event(envelope(message("Kickoff with Acme is on Tuesday",
                                           ts="1712000002.000100", channel=CLIENT),
                                   event_id="E2"))
            harness.event(envelope(message("hello partner", ts="1712000003.000100",
                                           channel=SHARED), event_id="E3"))
            harness.drain()
            yield harness
    finally:
        service.close()


def _mention(h: Daily, *, user: str, channel: str, text: str, ts: str,
             **extra: Any) -> str:
    h.event(envelope({"type": "app_mention", "user": user, "text": f"<@{BOT}> {text}",
                      "ts": ts, "channel": channel, "team": TEAM, **extra}, event_id=ts))
    h.drain()
    [update] = [c for c in h.slack.calls_to("chat.update") if c.params["channel"] == channel]
    return json.dumps(update.params, ensure_ascii=False)


def test_a_guest_reads_only_the_channels_they_are_in(h: Daily) -> None:
    h.command(QUESTION, user=GUEST, channel=CLIENT, response="guest")
    h.command("when is the kickoff with Acme?", user=GUEST, channel=CLIENT, response="own")
    h.command(QUESTION, user=ALICE, channel=CLIENT, response="member")
    replies = {r.name: json.dumps(r.body, ensure_ascii=False)
               for r in h.slack.wait_for_responses(count=3)}
    assert "4.2 million" not in replies["guest"]
    assert "Tuesday" in replies["own"]  # the channel the guest is in still answers
    assert "4.2 million" in replies["member"]  # a member may read #finance
    assert GUEST in h.service.space_access(platform="slack", space=TEAM).guests


def test_a_guest_promoted_to_member_reads_the_public_channels(h: Daily) -> None:
    h.command(QUESTION, user=GUEST, channel=CLIENT, response="before")
    h.slack.wait_for_responses()
    h.slack.users[GUEST].update(is_restricted=False, is_ultra_restricted=False)
    h.event(envelope({"type": "user_change", "user": h.slack.users[GUEST]}, event_id="U1"))
    h.drain()
    h.command(QUESTION, user=GUEST, channel=CLIENT, response="after")
    replies = {r.name: json.dumps(r.body) for r in h.slack.wait_for_responses(count=2)}
    assert "4.2 million" not in replies["before"] and "4.2 million" in replies["after"]


def test_a_person_of_another_organization_reads_only_the_shared_channel(h: Daily) -> None:
    posted = _mention(h, user=EXTERNAL, channel=SHARED, text="acquisition budget Initech?",
                      ts="1712000010.000100", user_team="T0PARTNER", source_team="T0PARTNER")
    assert "4.2 million" not in posted
    access = h.service.space_access(platform="slack", space=TEAM)
    assert EXTERNAL in access.external and SHARED in access.shared


def test_an_answer_in_a_shared_channel_shows_only_that_channel(h: Daily) -> None:
    # Alice may read #finance, but everyone in the shared channel reads her answer.
    posted = _mention(h, user=ALICE, channel=SHARED, text="acquisition budget Initech?",
                      ts="1712000011.000100")
    assert "4.2 million" not in posted
    posted = _mention(h, user=ALICE, channel=GENERAL, text="acquisition budget Initech?",
                      ts="1712000012.000100")
    assert "4.2 million" in posted  # no outsider reads #general


def test_an_answer_where_a_guest_reads_along_shows_only_what_the_guest_may_read(
        h: Daily) -> None:
    h.bot.initial_sync()  # serve reads the directory at start: the guest of #client-acme
    posted = _mention(h, user=ALICE, channel=CLIENT, text="acquisition budget Initech?",
                      ts="1712000013.000100")
    assert "4.2 million" not in posted


def test_sharing_into_a_channel_with_a_guest_is_refused(h: Daily) -> None:
    h.bot.initial_sync()
    h.command(QUESTION, user=ALICE, channel=CLIENT, response="ask")
    [seen] = h.slack.wait_for_responses()
    text = json.dumps(seen.body["blocks"], ensure_ascii=False)
    assert "4.2 million" in text  # Alice may read it herself ...
    assert "egmem_share" not in text and "Not shareable here" in text  # ... not post it


def test_sharing_waits_until_the_directory_was_read(h: Daily) -> None:
    h.command(QUESTION, user=ALICE, channel=GENERAL, response="early")
    h.slack.wait_for_responses()
    h.bot.initial_sync()
    h.command(QUESTION, user=ALICE, channel=GENERAL, response="later")
    replies = {r.name: json.dumps(r.body["blocks"])
               for r in h.slack.wait_for_responses(count=2)}
    assert "egmem_share" not in replies["early"] and "Not shareable yet" in replies["early"]
    assert "egmem_share" in replies["later"]


def test_an_asker_slack_cannot_look_up_is_not_answered(h: Daily) -> None:
    h.slack.fail("users.info", "internal_error", times=3)
    h.command(QUESTION, user=GUEST, channel=CLIENT, response="who")
    [reply] = h.slack.wait_for_responses()
    assert "couldn't check which conversations you can read" in reply.body["text"]
    assert "4.2 million" not in json.dumps(reply.body)


def test_a_private_decision_stays_out_of_status_home_and_digests(tmp_path: Path) -> None:
    from datetime import timedelta

    from tests.test_slack_app import BOB, DM, SECRET_CH
    from tests.test_slack_daily import NOW

    service = real_service(tmp_path)
    base = int((NOW - timedelta(days=2)).timestamp())
    try:
        with daily(service) as d:
            d.event(envelope(message("Layoff review is Monday 9 am", ts=f"{base}.000100",
                                     channel=SECRET_CH, channel_type="group"), event_id="E1"))
            d.event(envelope(message("Layoff review moves to Friday 10 am instead",
                                     ts=f"{base + 3600}.000100", channel=SECRET_CH,
                                     channel_type="group"), event_id="E2"))
            d.event(envelope(message("Design review is Thursday 3 pm",
                                     ts=f"{base + 10}.000100"), event_id="E3"))
            d.event(envelope(message("Design review moves to 4 pm instead",
                                     ts=f"{base + 60}.000100"), event_id="E4"))
            d.event(envelope(message("Is the layoff review still Monday 9 am?",
                                     ts=f"{base + 7200}.000100", user=BOB), event_id="E5"))
            d.drain()
            # Bob on the public message that mentions the private decision; Alice (a member)
            # on the private one; Bob claiming the private channel (Slack would not send it)
            d.shortcut(channel=GENERAL, ts=f"{base + 7200}.000100", user=BOB, response="bob")
            d.shortcut(channel=SECRET_CH, ts=f"{base}.000100", user=ALICE, response="alice")
            d.shortcut(channel=SECRET_CH, ts=f"{base}.000100", user=BOB, response="forged")
            d.event(envelope({"type": "app_home_opened", "user": BOB, "channel": DM,
                              "tab": "home", "event_ts": "1"}, event_id="E6"))
            d.command("digest on", user=BOB, response="digest")
            d.drain()
            d.bot.post_digests(now=NOW)
            replies = {r.name: json.dumps(r.body, ensure_ascii=False)
                       for r in d.slack.wait_for_responses(count=4)}
            home = json.dumps(d.slack.calls_to("views.publish")[0].params, ensure_ascii=False)
            digests = json.dumps([c.params for c in d.slack.calls_to("chat.postMessage")],
                                 ensure_ascii=False)
        for name, text in (("bob", replies["bob"]), ("forged", replies["forged"]),
                           ("home", home), ("digest", digests)):
            assert "Friday 10 am" not in text, name
            assert "ayoff" not in text or name == "bob", name  # Bob's own message says it
        assert "Friday 10 am" in replies["alice"]
        assert "Design review" in digests and "4 pm" in digests  # a digest was posted
    finally:
        service.close()
