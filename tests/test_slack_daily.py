"""Slack in daily use, through the fake Slack Web API and signed requests to the real bolt
app: DMs, mentions that are never remembered, pending notes, "Is this still current?",
the Home tab, weekly digests, feedback, lifecycle events and backfill inside the bot.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from adapters.slack.app import SlackBot, build_slack_bot
from adapters.slack.server import SlackHTTPServer
from memory.models import ChainEntry, Channel, Message, State, Verdict
from memory.ports import MessageStatus
from tests.support.fake_slack import FakeSlack
from tests.support.list_service import ListService
from tests.test_slack_app import (
    ALICE,
    BOB,
    BOT,
    CAROL,
    DM,
    GENERAL,
    SECRET,
    SECRET_CH,
    TEAM,
    Harness,
    envelope,
    message,
)

NOW = datetime(2024, 4, 15, 9, 0, tzinfo=UTC)  # a frozen Monday morning


@dataclass
class Daily(Harness):
    bot: SlackBot
    backfills: ThreadPoolExecutor

    def wait_backfills(self) -> None:
        self.backfills.submit(lambda: None).result(timeout=30)
        self.drain()

    def shortcut(self, *, channel: str, ts: str, user: str = ALICE,
                 response: str = "sc") -> tuple[int, str]:
        payload = {"type": "message_action", "callback_id": "egmem_still_current",
                   "team": {"id": TEAM, "domain": "acme"}, "user": {"id": user, "team_id": TEAM},
                   "channel": {"id": channel}, "message": {"type": "message", "ts": ts,
                                                           "user": BOB, "text": "…"},
                   "response_url": self.slack.response_url(response), "trigger_id": "1.2",
                   "message_ts": ts, "token": "x", "action_ts": "1.3"}
        return self.action(payload)


@contextmanager
def daily(service: Any, *, process_inline: bool = True,
          admins: tuple[str, ...] = ()) -> Iterator[Daily]:
    with FakeSlack(team_id=TEAM, bot_user_id=BOT) as slack:
        slack.add_user(ALICE, "Alice")
        slack.add_user(BOB, "Bob")
        slack.add_user(CAROL, "Carol", admin=True)
        slack.add_channel(GENERAL, "general", members=[ALICE, BOB, CAROL])
        slack.add_channel(SECRET_CH, "secret-plans", kind="group", members=[ALICE])
        slack.add_channel(DM, kind="im", members=[BOB], im_user=BOB)
        executor = ThreadPoolExecutor(max_workers=1)
        backfills = ThreadPoolExecutor(max_workers=1)
        bot = build_slack_bot(service=service, bot_token=slack.token,
                              signing_secret=SECRET,
                              api_url=slack.base_url, listener_executor=executor,
                              backfill_executor=backfills, process_inline=process_inline,
                              admins=admins, now=lambda: NOW)
        server = SlackHTTPServer(bot.app, port=0).start_background()
        try:
            yield Daily(slack=slack, service=service, server=server, executor=executor,
                        bot=bot, backfills=backfills)
        finally:
            server.stop()
            executor.shutdown(wait=True)
            backfills.shutdown(wait=True)


@pytest.fixture
def d() -> Iterator[Daily]:
    with daily(ListService()) as harness:
        yield harness


def real_service(tmp_path: Path) -> Any:
    from bot.app import build
    from bot.settings import Settings

    return build(Settings(data=str(tmp_path / "data"), embedder="hashing"))


# --- questions to the bot are never remembered ------------------------------------------


def test_a_dm_is_answered_from_the_askers_own_scope_and_not_remembered(d: Daily) -> None:
    d.event(envelope(message("launch codename is Falcon", ts="1712000001.000100",
                             channel=SECRET_CH, channel_type="group"), event_id="E1"))
    d.event(envelope(message("Falcon launch party is on Friday", ts="1712000002.000100"),
                     event_id="E2"))
    d.drain()
    d.event(envelope(message("what is the launch codename?", ts="1712000003.000100",
                             user=BOB, channel=DM, channel_type="im"), event_id="E3"))
    d.drain()
    assert "1712000003.000100" not in {e.id for e in d.service.events}  # not team memory
    [ask] = d.service.asks
    assert (ask["user"], ask["channel"], ask["widen"]) == (BOB, DM, True)
    [placeholder] = d.slack.calls_to("chat.postMessage")
    assert placeholder.params["channel"] == DM and "Searching" in placeholder.params["text"]
    [update] = d.slack.calls_to("chat.update")
    answer = json.dumps(update.params["blocks"])
    assert "party" in answer and "codename is Falcon" not in answer  # Bob can't read it
    # the DM is recorded private to its two members before anything is answered from it
    dm = d.service.channels[DM]
    assert dm.is_private and BOB in dm.members


def test_mentions_are_answered_but_never_stored_as_evidence(tmp_path: Path) -> None:
    service = real_service(tmp_path)
    try:
        with daily(service) as h:
            h.event(envelope(message("The deploy window is Thursday 14:00 UTC",
                                     ts="1712000001.000100"), event_id="E1"))
            question = f"<@{BOT}> when is the deploy window? <!channel>"
            # Slack sends both: the app_mention and the channel's message event
            h.event(envelope({"type": "app_mention", "user": BOB, "text": question,
                              "ts": "1712000002.000100", "channel": GENERAL, "team": TEAM},
                             event_id="E2"))
            h.event(envelope(message(question, ts="1712000002.000100", user=BOB),
                             event_id="E3"))
            h.event(envelope(message(f"<@{BOT}>", ts="1712000003.000100", user=BOB),
                             event_id="E4"))
            h.drain()
            assert "Thursday 14:00" in json.dumps(h.slack.calls_to("chat.update")[0].params)
        nodes = service.store.find_nodes(service.scope(platform="slack", space=TEAM,
                                                       user=None, channel=None))
        assert [n.message_id for n in nodes] == ["1712000001.000100"]
        assert service.stats()["messages"] == 1
        assert not any("when is the deploy window" in f.read_bytes().decode("latin-1")
                       for f in (tmp_path / "data").rglob("*") if f.is_file())
    finally:
        service.close()


def test_an_empty_mention_gets_an_ephemeral_hint(d: Daily) -> None:
    d.event(envelope({"type": "app_mention", "user": BOB, "text": f"<@{BOT}>",
                      "ts": "1712000002.000100", "channel": GENERAL, "team": TEAM}))
    d.drain()
    assert d.slack.calls_to("chat.postMessage") == []  # nothing public
    [hint] = d.slack.calls_to("chat.postEphemeral")
    assert hint.params["user"] == BOB and "@egmem when is" in hint.params["text"]
    assert d.service.asks == []


def test_a_failed_answer_replaces_the_placeholder_instead_of_reposting(d: Daily) -> None:
    def boom(*a: Any, **k: Any) -> Any:
        raise RuntimeError("index corrupt")

    d.service.ask = boom
    d.event(envelope({"type": "app_mention", "user": BOB, "text": f"<@{BOT}> anything?",
                      "ts": "1712000002.000100", "channel": GENERAL, "team": TEAM}))
    d.drain()
    assert len(d.slack.calls_to("chat.postMessage")) == 1  # the placeholder only
    [update] = d.slack.calls_to("chat.update")
    assert update.params["text"].startswith("Sorry") and "corrupt" not in json.dumps(
        update.params)


# --- answers do not wait for the inbox ---------------------------------------------------


def test_answer_says_when_the_channel_still_has_messages_being_read() -> None:
    with daily(ListService(), process_inline=False) as h:
        for i in range(3):
            h.event(envelope(message(f"deploy note {i}", ts=f"171200000{i}.000100"),
                             event_id=f"E{i}"))
        h.command("deploy note?")
        [resp] = h.slack.wait_for_responses()
        assert h.service.process_calls == 0  # the question did not drain the inbox
        text = json.dumps(resp.body["blocks"])
        assert "3 messages of this channel are still being read" in text


# --- Is this still current? ---------------------------------------------------------------


def test_still_current_on_a_superseded_and_on_a_current_message(tmp_path: Path) -> None:
    service = real_service(tmp_path)
    erin, carmen = "U0ERIN0001", "U0CARMEN01"
    try:
        with daily(service) as h:
            h.slack.add_user(erin, "Erin")
            h.slack.add_user(carmen, "Carmen")
            h.event(envelope(message("Atlas design review Thursday 3 pm: new onboarding flow "
                                     "+ bulk export screens.", ts="1712000001.000100",
                                     user=erin), event_id="E1"))
            # a decision in the thread (a question "can we do 4 pm?" would only propose)
            h.event(envelope(message("Moving it to 4 pm instead, I have a dentist appointment "
                                     "at 2", ts="1712000002.000100", user=carmen,
                                     thread_ts="1712000001.000100"), event_id="E2"))
            h.event(envelope(message("Heads up: review slips to Friday 10am. Grace wants to "
                                     "join.", ts="1712090000.000100"), event_id="E3"))
            h.drain()
            [state] = [s for s in service.history("design review", platform="slack",
                                                  space=TEAM, user=ALICE, channel=GENERAL)
                       if len(s.chain) == 3]
            h.shortcut(channel=GENERAL, ts="1712000001.000100", response="old")
            h.shortcut(channel=GENERAL, ts="1712090000.000100", response="new")
            h.shortcut(channel=GENERAL, ts="1712999999.000100", response="unknown")
            h.drain()
            replies = {r.name: r.body for r in h.slack.responses}
        old = json.dumps(replies["old"]["blocks"], ensure_ascii=False)
        assert replies["old"]["response_type"] == "ephemeral"
        assert "No longer current" in old and "*Thursday 3 pm*" in old
        assert "Changed 2 times since: now *Friday 10am*, by Alice on <!date^" in old
        assert "was *4 pm* (Carmen)" in old  # the chain follows
        new = json.dumps(replies["new"]["blocks"], ensure_ascii=False)
        assert "Still current" in new and "*Friday 10am*" in new
        assert state.topic.lower() in new.lower()
        assert "no record of this message" in replies["unknown"]["text"] + json.dumps(
            replies["unknown"]["blocks"])
    finally:
        service.close()


def test_still_current_reply_for_an_unrelated_message(d: Daily) -> None:
    d.service.statuses[(GENERAL, "1712000001.000100")] = MessageStatus(role="none")
    d.shortcut(channel=GENERAL, ts="1712000001.000100")
    [reply] = d.slack.wait_for_responses()
    assert "doesn't set or change any decision" in json.dumps(reply.body["blocks"])


# --- App Home and weekly digests ------------------------------------------------------------


def revised_state(channel: str, *, days_ago: float) -> State:
    t1, t2 = NOW - timedelta(days=days_ago + 2), NOW - timedelta(days=days_ago)
    return State(
        state_id=f"s_{channel}", platform="slack", space=TEAM, channel=channel,
        topic="standup time", value="4 pm", active_node_id="n2", revision_count=1,
        updated_at=t2,
        chain=[ChainEntry(node_id="n1", message_id="1", value="3 pm", speaker="Alice", ts=t1,
                          quote="standup at 3 pm", verdict=Verdict.ESTABLISH),
               ChainEntry(node_id="n2", message_id="2", value="4 pm", speaker="Bob", ts=t2,
                          quote="moving standup to 4 pm", verdict=Verdict.REVISE,
                          permalink="https://acme.slack.com/archives/C0/p1712000002000100")])


def test_home_tab_lists_recent_changes_the_viewer_can_read(d: Daily) -> None:
    d.service.upsert_channels([
        Channel(platform="slack", space=TEAM, id=GENERAL, name="general"),
        Channel(platform="slack", space=TEAM, id=SECRET_CH, is_private=True, members=(ALICE,))])
    d.service.states = [revised_state(GENERAL, days_ago=1), revised_state(SECRET_CH, days_ago=2)]
    d.event(envelope({"type": "app_home_opened", "user": BOB, "channel": DM, "tab": "home",
                      "event_ts": "1712000001.000100"}))
    d.drain()
    [publish] = d.slack.calls_to("views.publish")
    assert publish.params["user_id"] == BOB
    view = publish.params["view"]
    assert view["type"] == "home"
    text = json.dumps(view["blocks"], ensure_ascii=False)
    assert view["blocks"][0]["text"]["text"] == "Decisions that changed recently"
    assert f"*Standup time* in <#{GENERAL}>" in text
    assert "now *4 pm* (Bob, <!date^" in text and "was *3 pm* (Alice)" in text
    assert SECRET_CH not in text  # Bob cannot read it


def test_digest_is_posted_by_the_scheduler_with_a_frozen_clock(d: Daily) -> None:
    from apscheduler.schedulers.background import BackgroundScheduler

    from bot.scheduler import add_chat_jobs

    d.command("digest on", response="on")
    [on] = d.slack.wait_for_responses()
    assert "weekly digest is now on" in on.body["text"]
    d.service.states = [revised_state(GENERAL, days_ago=3), revised_state(GENERAL, days_ago=30)]
    sched = BackgroundScheduler(timezone=UTC)
    add_chat_jobs(sched, digest=lambda: d.bot.post_digests(now=NOW))
    job = sched.get_job("digest")
    # Mondays 09:00 UTC: from Sunday evening the next run is the frozen "now"
    assert job.trigger.get_next_fire_time(None, NOW - timedelta(hours=12)) == NOW
    job.func()  # what the scheduler runs at that time
    [post] = d.slack.calls_to("chat.postMessage")
    assert post.params["channel"] == GENERAL
    text = json.dumps(post.params["blocks"], ensure_ascii=False)
    assert "Weekly decision digest" in text and "now *4 pm* (Bob" in text
    assert text.count("Standup time") == 1  # the 30-day-old change is not this week's
    d.command("digest off", response="off")
    d.drain()
    job.func()
    assert len(d.slack.calls_to("chat.postMessage")) == 1


# --- feedback ------------------------------------------------------------------------------


def test_feedback_is_recorded_with_question_citations_and_asker(tmp_path: Path) -> None:
    from tests.test_slack_daily_support import press_feedback

    service = real_service(tmp_path)
    try:
        with daily(service) as h:
            h.event(envelope(message("The deploy window is Thursday 14:00 UTC",
                                     ts="1712000001.000100"), event_id="E1"))
            h.drain()
            h.command("when is the deploy window?", user=BOB)
            [seen] = h.slack.wait_for_responses()
            press_feedback(h, seen.body["blocks"], down=True, user=BOB)
            [entry] = service.feedback_entries()
        assert (entry.vote, entry.asker, entry.rater) == ("down", BOB, BOB)
        assert entry.question == "when is the deploy window?"
        node = service.store.find_message(channel=GENERAL, message_id="1712000001.000100")
        assert node is not None and node.node_id in entry.node_ids
        assert "1712000001.000100" in entry.message_ids
        assert service.feedback_entries(node_id=node.node_id) == [entry]
    finally:
        service.close()


# --- lifecycle ------------------------------------------------------------------------------


def test_uninstall_deletes_the_workspace_from_every_file_after_the_grace(tmp_path: Path) -> None:
    from memory.store.workspaces import UNINSTALL_GRACE

    service = real_service(tmp_path)
    texts = ["The deploy window is Thursday 14:00 UTC", "launch codename is Falcon",
             "Update: the deploy window moves to Friday 10:00 UTC"]
    other = Message(platform="slack", space="T0OTHER", channel="C9", id="1", user="U9",
                    user_name="Olga", ts=NOW, text="Other workspace: budget is 12k")
    try:
        service.submit([other])
        service.process()
        with daily(service) as h:
            h.event(envelope(message(texts[0], ts="1712000001.000100"), event_id="E1"))
            h.event(envelope(message(texts[1], ts="1712000002.000100", channel=SECRET_CH,
                                     channel_type="group"), event_id="E2"))
            h.drain()
            h.bot.process_inline = False  # one message still queued when the app goes
            h.event(envelope(message(texts[2], ts="1712000003.000100", user=BOB),
                             event_id="E3"))
            h.command("when is the deploy window?", user=BOB)
            [seen] = h.slack.wait_for_responses()
            from tests.test_slack_daily_support import press_feedback

            press_feedback(h, seen.body["blocks"], down=False, user=BOB)
            h.event(envelope({"type": "app_uninstalled"}, event_id="E4"))
            h.slack.fail("auth.test", "invalid_auth", times=2)
            assert h.bot.purge_uninstalled(now=NOW + UNINSTALL_GRACE / 2) == 0  # grace
            assert h.bot.purge_uninstalled(now=NOW + UNINSTALL_GRACE) == 1
        data = tmp_path / "data"
        blobs = [f.read_bytes() for f in data.rglob("*") if f.is_file()]
        for text in [*texts, "secret-plans", "Alice", "when is the deploy window"]:
            assert not any(text.encode() in b for b in blobs), text
        assert service.ask("budget", platform="slack", space="T0OTHER", user=None,
                           channel=None).citations  # another workspace is untouched
        assert service.feedback_entries() == []
        assert service.stats()["evidence_nodes"] == 1
    finally:
        service.close()


def test_reinstall_within_the_grace_keeps_the_memory(d: Daily) -> None:
    d.event(envelope({"type": "tokens_revoked", "tokens": {"oauth": [ALICE], "bot": []}}))
    assert d.service.uninstalls == {}  # only a user token went
    d.event(envelope({"type": "tokens_revoked", "tokens": {"bot": [BOT]}}, event_id="E2"))
    assert ("slack", TEAM) in d.service.uninstalls
    assert d.bot.purge_uninstalled(now=NOW + timedelta(days=30)) == 0  # the token works again
    assert d.service.uninstalls == {} and d.service.forgotten_spaces == []


def test_rename_and_name_change_are_picked_up(d: Daily) -> None:
    d.event(envelope(message("x", ts="1712000001.000100"), event_id="E1"))
    d.drain()
    assert d.service.channels[GENERAL].name == "general"
    d.slack.channels[GENERAL].name = "announcements"
    d.event(envelope({"type": "channel_rename", "channel": {
        "id": GENERAL, "name": "announcements", "created": 1360782804}}, event_id="E2"))
    d.drain()
    assert d.service.channels[GENERAL].name == "announcements"
    d.slack.users[ALICE]["profile"]["display_name"] = "Alice Liddell"
    d.event(envelope({"type": "user_change", "user": d.slack.users[ALICE]}, event_id="E3"))
    d.drain()
    d.event(envelope(message("y", ts="1712000002.000100"), event_id="E4"))
    latest = d.service.events[-1]
    assert isinstance(latest, Message)
    assert latest.user_name == "Alice Liddell" and latest.channel_name == "announcements"


def test_a_channel_converted_to_private_is_private_at_once(d: Daily) -> None:
    d.event(envelope(message("public plan", ts="1712000001.000100"), event_id="E1"))
    d.drain()
    assert d.service.channels[GENERAL].is_private is False
    # converted: Slack's cached info may still say public; the event's type says private
    d.slack.channels[GENERAL].kind = "group"
    d.slack.channels[GENERAL].members.remove(BOB)
    d.event(envelope(message("now a secret", ts="1712000002.000100",
                             channel_type="group"), event_id="E2"))
    d.drain()
    rec = d.service.channels[GENERAL]
    assert rec.is_private and BOB not in rec.members
    assert d.service.log.index(("upsert", GENERAL), 2) < d.service.log.index(
        ("commit", "1712000002.000100"))
    bob_sees = d.service.ask("secret", platform="slack", space=TEAM, user=BOB,
                             channel="C0OTHER", widen=True)
    assert bob_sees.abstained


def test_a_channel_the_bot_left_is_not_left_public(d: Daily) -> None:
    d.event(envelope(message("public plan", ts="1712000001.000100"), event_id="E1"))
    d.drain()
    assert d.service.channels[GENERAL].is_private is False
    # the bot is removed, then the channel goes private: Slack hides it from the bot
    d.slack.channels[GENERAL].members.remove(BOT)
    d.slack.channels[GENERAL].kind = "group"
    d.slack.fail("conversations.info", "channel_not_found")
    d.event(envelope({"type": "channel_left", "channel": GENERAL, "actor_id": ALICE},
                     event_id="E2"))
    d.drain()
    rec = d.service.channels[GENERAL]
    assert rec.is_private and rec.members == ()


def test_admin_backfill_runs_inside_the_bot(d: Daily) -> None:
    d.slack.add_message(GENERAL, user=ALICE, text="old decision: ship on Tuesdays",
                        ts="1711000000.000100")
    d.command("backfill since 2024-01-01", user=BOB, response="bob")
    [refused] = d.slack.wait_for_responses()
    assert "Only workspace admins" in refused.body["text"]
    d.command("backfill since 2024-01-01", user=CAROL, response="carol")
    started = d.slack.wait_for_responses(count=2)[1]
    assert "in the background" in started.body["text"]
    d.wait_backfills()
    assert "old decision: ship on Tuesdays" in [getattr(e, "text", "") for e in
                                                d.service.events]
    [done] = d.slack.calls_to("chat.postEphemeral")
    assert done.params["user"] == CAROL and "Backfill done" in done.params["text"]
    assert any(k.startswith(f"slack:backfill:{TEAM}:{GENERAL}") for k in d.service.cursors)


def test_the_bot_joining_a_channel_backfills_it(d: Daily) -> None:
    d.slack.add_message(SECRET_CH, user=ALICE, text="earlier: budget is 40k",
                        ts="1711000000.000100")
    d.event(envelope({"type": "member_joined_channel", "user": BOT, "channel": SECRET_CH,
                      "channel_type": "G", "team": TEAM}))
    d.drain()
    d.wait_backfills()
    assert d.service.channels[SECRET_CH].is_private
    assert "earlier: budget is 40k" in [getattr(e, "text", "") for e in d.service.events]


def test_a_message_edited_into_a_question_leaves_memory(d: Daily) -> None:
    d.event(envelope(message("db password is hunter2", ts="1712000001.000100"), event_id="E1"))
    d.drain()
    d.event(envelope({"type": "message", "subtype": "message_changed", "channel": GENERAL,
                      "channel_type": "channel", "ts": "1712000050.000100", "hidden": True,
                      "message": {"type": "message", "user": ALICE, "ts": "1712000001.000100",
                                  "text": f"<@{BOT}> where is the db password kept?",
                                  "edited": {"user": ALICE, "ts": "1712000050.000000"}},
                      "previous_message": {"type": "message", "user": ALICE,
                                           "ts": "1712000001.000100",
                                           "text": "db password is hunter2"}},
                     event_id="E2"))
    d.drain()
    assert type(d.service.events[-1]).__name__ == "Delete"
    assert ("slack", TEAM, GENERAL, "1712000001.000100") not in d.service.committed
