"""The Slack app end to end, offline: signed HTTP requests to the real bolt app served by
``SlackHTTPServer``, the real ``slack_sdk`` client talking to a fake Web API on 127.0.0.1.

Lazy listeners run on a one-thread executor, so ``h.drain()`` (a no-op queued behind them)
returns once every earlier background step has finished: no sleeps, no wall-clock waits.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from slack_sdk.signature import SignatureVerifier

from adapters.slack.app import build_slack_app, serve_slack
from adapters.slack.recall import parse_permalink, parse_recall
from adapters.slack.server import SlackHTTPServer
from memory.errors import ConfigError
from memory.models import ChainEntry, Delete, Edit, Message, State, Verdict
from memory.ports import MemoryService
from tests.support.fake_slack import FakeSlack
from tests.support.list_service import ListService

FIXTURES = Path(__file__).parent / "fixtures" / "payloads" / "slack"
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TEAM = "T061EG9R6"
BOT = "U0BOTUSER"
ALICE, BOB, CAROL = "U024BE7LH", "U0G9QF9C6", "U0CAROL01"
GENERAL, SECRET_CH, DM = "C0CJ9FJ4A", "C0PRIV0001", "D0DM000001"


def fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data


@dataclass
class Harness:
    slack: FakeSlack
    service: Any  # ListService, or the real service in the end-to-end test
    server: SlackHTTPServer
    executor: ThreadPoolExecutor

    def drain(self) -> None:
        """Wait for every lazy listener queued so far."""
        self.executor.submit(lambda: None).result(timeout=20)

    def post(self, body: str, *, content_type: str, retry_num: int | None = None,
             secret: str = SECRET, signed: bool = True) -> tuple[int, str]:
        ts = str(int(time.time()))
        headers: dict[str, str] = {"Content-Type": content_type}
        if signed:
            headers["X-Slack-Request-Timestamp"] = ts
            signature = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
            assert signature is not None
            headers["X-Slack-Signature"] = signature
        if retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(retry_num)
            headers["X-Slack-Retry-Reason"] = "http_timeout"
        req = urllib.request.Request(self.server.url, data=body.encode(), headers=headers,
                                     method="POST")
        try:
            with urllib.request.urlopen(req, timeout=20) as resp:
                return resp.status, resp.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()

    def event(self, envelope: dict[str, Any], **kw: Any) -> tuple[int, str]:
        return self.post(json.dumps(envelope), content_type="application/json", **kw)

    def command(self, text: str, *, user: str = ALICE, channel: str = GENERAL,
                response: str = "r1") -> tuple[int, str]:
        form = {"token": "x", "team_id": TEAM, "team_domain": "acme", "channel_id": channel,
                "channel_name": "general", "user_id": user, "user_name": "alice",
                "command": "/recall", "text": text, "api_app_id": "A0PNCHHK2",
                "response_url": self.slack.response_url(response), "trigger_id": "1.2.3"}
        return self.post(urlencode(form), content_type="application/x-www-form-urlencoded")

    def action(self, payload: dict[str, Any]) -> tuple[int, str]:
        body = urlencode({"payload": json.dumps(payload)})
        return self.post(body, content_type="application/x-www-form-urlencoded")


def envelope(event: dict[str, Any], *, event_id: str = "Ev0001") -> dict[str, Any]:
    return {"token": "x", "team_id": TEAM, "api_app_id": "A0PNCHHK2", "event": event,
            "type": "event_callback", "event_id": event_id, "event_time": 1712345678,
            "authorizations": [{"team_id": TEAM, "user_id": BOT, "is_bot": True}]}


def message(text: str, *, ts: str, user: str = ALICE, channel: str = GENERAL,
            channel_type: str = "channel", **extra: Any) -> dict[str, Any]:
    return {"type": "message", "text": text, "user": user, "ts": ts, "channel": channel,
            "channel_type": channel_type, "team": TEAM, **extra}


@contextmanager
def running_app(service: MemoryService, *, admins: tuple[str, ...] = ()) -> Iterator[Harness]:
    with FakeSlack(team_id=TEAM, bot_user_id=BOT) as slack:
        slack.add_user(ALICE, "Alice")
        slack.add_user(BOB, "Bob")
        slack.add_user(CAROL, "Carol", admin=True)
        slack.add_channel(GENERAL, "general", members=[ALICE, BOB, CAROL])
        slack.add_channel(SECRET_CH, "secret-plans", kind="group", members=[ALICE])
        slack.add_channel(DM, kind="im", members=[BOB], im_user=BOB)
        executor = ThreadPoolExecutor(max_workers=1)
        app = build_slack_app(service=service, bot_token=slack.token,
                              signing_secret=SECRET,
                              api_url=slack.base_url, listener_executor=executor,
                              admins=admins)
        server = SlackHTTPServer(app, port=0).start_background()
        try:
            yield Harness(slack=slack, service=service, server=server, executor=executor)
        finally:
            server.stop()
            executor.shutdown(wait=True)


@pytest.fixture
def h() -> Iterator[Harness]:
    with running_app(ListService()) as harness:
        yield harness


# --- events ------------------------------------------------------------------------------


def test_app_start_checks_the_token_against_the_configured_api(h: Harness) -> None:
    assert h.slack.calls_to("auth.test"), "bolt should call auth.test on our fake at build"
    assert all(c.headers["authorization"] == f"Bearer {h.slack.token}"
               for c in h.slack.calls_to("auth.test"))


def test_message_is_durable_before_the_ack_and_then_committed(h: Harness) -> None:
    gate = threading.Event()
    h.executor.submit(gate.wait)  # what runs after the ack waits until the ack is checked
    try:
        calls = len(h.slack.calls)
        status, _ = h.event(fixture("message.json"))
        assert status == 200
        # process_before_response: by the time Slack has its 200, submit has returned, and
        # the ack touched only the inbox: no Web API call, so no names yet on a cold start
        assert h.slack.calls[calls:] == []
        [ev] = h.service.events
        assert isinstance(ev, Message)
        assert (ev.platform, ev.space, ev.channel, ev.id) == ("slack", TEAM, GENERAL,
                                                              "1712345678.000200")
        assert (ev.user_name, ev.channel_name, ev.permalink) == ("", None, None)
        assert "@U0G9QF9C6 can you confirm?" in ev.text
        assert h.service.log == [("submit", ev.id)]
    finally:
        gate.set()
    h.drain()
    # after the ack, before the commit: the visibility recorded, the names looked up
    log = h.service.log
    assert log.index(("upsert", GENERAL)) < log.index(("commit", ev.id))
    assert log.index(("amend", ev.id)) < log.index(("commit", ev.id))
    assert h.service.channels[GENERAL].is_private is False
    assert h.service.processed.is_set()
    done = h.service.committed[("slack", TEAM, GENERAL, ev.id)]
    assert done.user_name == "Alice"  # users.info
    assert "@Bob can you confirm?" in done.text  # mention rendered through users.info
    assert done.channel_name == "general"  # conversations.info
    assert done.permalink == f"https://acme.slack.com/archives/{GENERAL}/p1712345678000200"
    assert h.service.events == [done]


def test_thread_reply_keeps_its_thread(h: Harness) -> None:
    h.event(fixture("thread_reply.json"))
    h.drain()  # the permalink base is looked up after the ack
    [ev] = h.service.events
    assert isinstance(ev, Message)
    assert ev.thread_id == "1712345678.000200"
    assert ev.reply_to == "1712345678.000200"
    assert ev.permalink is not None and "thread_ts=1712345678.000200" in ev.permalink


def test_edit_and_delete_reach_the_service(h: Harness) -> None:
    h.event(fixture("message.json"))
    h.event(fixture("message_changed.json"))
    h.event(fixture("message_deleted.json"))
    kinds = [type(e) for e in h.service.events]
    assert kinds == [Message, Edit, Delete]
    edit = h.service.events[1]
    assert isinstance(edit, Edit) and "Friday 10:00" in edit.text
    assert edit.id == "1712345678.000200"
    delete = h.service.events[2]
    assert isinstance(delete, Delete) and delete.id == "1712345790.000300"
    h.drain()
    committed = h.service.committed[("slack", TEAM, GENERAL, "1712345678.000200")]
    assert "Friday 10:00" in committed.text


@pytest.mark.parametrize("name", ["bot_message.json", "channel_join.json"])
def test_bot_and_system_messages_are_ignored(h: Harness, name: str) -> None:
    status, _ = h.event(fixture(name))
    assert status == 200
    assert h.service.events == []


def test_retried_event_is_not_ingested_twice(h: Harness) -> None:
    env = fixture("message.json")
    assert h.event(env)[0] == 200
    assert h.event(env, retry_num=1)[0] == 200
    assert h.event(env, retry_num=2)[0] == 200
    assert len(h.service.events) == 1
    assert [x for x in h.service.log if x[0] == "submit"] == [("submit", "1712345678.000200")] * 3


def test_failed_submit_is_not_acknowledged_so_slack_redelivers(h: Harness) -> None:
    h.service.fail_submits = 1
    status, _ = h.event(fixture("message.json"))
    assert status == 500
    assert h.service.events == []
    status, _ = h.event(fixture("message.json"), retry_num=1)
    assert status == 200
    assert len(h.service.events) == 1


def test_bad_or_missing_signature_is_rejected(h: Harness) -> None:
    env = json.dumps(fixture("message.json"))
    assert h.post(env, content_type="application/json", secret="wrong-secret")[0] == 401
    assert h.post(env, content_type="application/json", signed=False)[0] == 401
    assert h.service.events == []


def test_url_verification_echoes_the_challenge(h: Harness) -> None:
    status, body = h.event({"token": "x", "challenge": "c-123", "type": "url_verification"})
    assert status == 200
    assert "c-123" in body


def test_private_channel_and_dm_are_recorded_private_with_members(h: Harness) -> None:
    h.event(envelope(message("launch codename is Falcon", ts="1712000001.000100",
                             channel=SECRET_CH, channel_type="group")))
    h.event(envelope(message("my salary question", ts="1712000002.000100", user=BOB,
                             channel=DM, channel_type="im"), event_id="Ev2"))
    h.drain()
    secret, dm = h.service.channels[SECRET_CH], h.service.channels[DM]
    assert secret.is_private and set(secret.members) == {ALICE, BOT}
    assert dm.is_private and BOB in dm.members
    assert h.service.log.index(("upsert", SECRET_CH)) < h.service.log.index(
        ("commit", "1712000001.000100"))
    # the members of a channel are fetched once, not per message
    h.event(envelope(message("second", ts="1712000003.000100", channel=SECRET_CH,
                             channel_type="group"), event_id="Ev3"))
    members_calls = [c for c in h.slack.calls_to("conversations.members")
                     if c.params["channel"] == SECRET_CH]
    assert len(members_calls) == 1


def test_private_channel_with_unreadable_members_is_never_recorded_public(h: Harness) -> None:
    h.slack.fail("conversations.members", "internal_error")
    h.event(envelope(message("budget is 40k", ts="1712000001.000100", channel=SECRET_CH,
                             channel_type="group")))
    h.drain()
    rec = h.service.channels[SECRET_CH]
    assert rec.is_private and rec.members == (ALICE,)
    # next event retries and records the real members
    h.event(envelope(message("or 45k", ts="1712000002.000100", channel=SECRET_CH,
                             channel_type="group"), event_id="Ev2"))
    h.drain()
    assert set(h.service.channels[SECRET_CH].members) == {ALICE, BOT}


def test_member_left_refreshes_membership(h: Harness) -> None:
    h.event(envelope(message("x", ts="1712000001.000100", channel=SECRET_CH,
                             channel_type="group")))
    h.drain()
    assert ALICE in h.service.channels[SECRET_CH].members
    h.slack.channels[SECRET_CH].members.remove(ALICE)
    h.event(envelope({"type": "member_left_channel", "user": ALICE, "channel": SECRET_CH,
                      "channel_type": "G", "team": TEAM}, event_id="Ev9"))
    h.drain()
    assert ALICE not in h.service.channels[SECRET_CH].members


# --- @mentions ---------------------------------------------------------------------------


def _seed(h: Harness) -> None:
    h.event(envelope(message("The deploy window is Thursday 14:00 UTC", ts="1712000001.000100"),
                     event_id="EvA"))
    h.event(envelope(message("Update: deploy window moves to Friday 10:00 UTC",
                             ts="1712000002.000100", user=BOB), event_id="EvB"))
    h.drain()


def answer_of(h: Harness, post: Any) -> dict[str, Any]:
    """The message a placeholder ended up as (posted, then updated in place)."""
    return h.slack.posted[post_ts(h, post)]


def post_ts(h: Harness, post: Any) -> str:
    return next(ts for ts, p in h.slack.posted.items() if p["channel"] == post.params["channel"]
                and p.get("thread_ts") == post.params.get("thread_ts"))


def test_app_mention_is_answered_once_in_the_thread(h: Harness) -> None:
    _seed(h)
    mention = fixture("app_mention.json")
    assert h.event(mention)[0] == 200
    assert h.event(mention, retry_num=1)[0] == 200  # a Slack retry of the same event
    h.drain()
    [post] = h.slack.calls_to("chat.postMessage")
    assert post.params["channel"] == GENERAL
    assert post.params["thread_ts"] == "1712347000.000800"
    assert "Searching" in post.params["text"]  # a placeholder first, at once
    [update] = h.slack.calls_to("chat.update")  # ... replaced in place by the answer
    assert update.params["ts"] == post_ts(h, post)
    [ask] = h.service.asks
    assert ask["question"] == "when is the deploy window?"
    assert ask["widen"] is False and ask["user"] == BOB and ask["channel"] == GENERAL
    text = json.dumps(update.params["blocks"])
    assert "Friday 10:00" in text and "*Bob*" in text and f"<#{GENERAL}>" in text
    actions = [b for b in update.params["blocks"] if b["type"] == "actions"]
    assert [e["action_id"] for a in actions for e in a["elements"]] == [
        "egmem_feedback_up", "egmem_feedback_down"]  # no Share: the answer is public already


def test_public_mention_answer_never_uses_a_private_channel(h: Harness) -> None:
    h.event(envelope(message("deploy window secretly moved to Sunday", ts="1712000009.000100",
                             channel=SECRET_CH, channel_type="group")))
    h.drain()
    mention = fixture("app_mention.json")
    mention["event"]["user"] = ALICE  # Alice may read the private channel, but asks in public
    h.event(mention)
    h.drain()
    [update] = h.slack.calls_to("chat.update")
    assert "Sunday" not in json.dumps(update.params)


# --- /recall -----------------------------------------------------------------------------


def test_recall_shows_searching_at_once_then_replaces_it_with_the_answer(h: Harness) -> None:
    _seed(h)
    status, body = h.command("when is the deploy window?")
    assert status == 200
    ack = json.loads(body)  # visible at once, before any work
    assert ack["response_type"] == "ephemeral" and "Searching" in ack["text"]
    [resp] = h.slack.wait_for_responses()
    assert resp.name == "r1"
    assert resp.body["response_type"] == "ephemeral"
    assert resp.body["replace_original"] is True  # the answer replaces "Searching…"
    blocks = resp.body["blocks"]
    text = json.dumps(blocks)
    assert "Friday 10:00" in blocks[0]["text"]["text"]  # the first block answers
    assert "*Bob*" in text and f"<#{GENERAL}>" in text
    # the date is a date token linking to the message
    assert (f"<!date^1712000002^{{date_short_pretty}} {{time}}^https://acme.slack.com/archives/"
            f"{GENERAL}/p1712000002000100|") in text
    [actions] = [b for b in blocks if b["type"] == "actions"]
    labels = [e["text"]["text"] for e in actions["elements"]]
    assert labels == ["👍 Helpful", "👎 Not helpful", "Share in channel"]
    [ask] = h.service.asks
    assert ask["widen"] is True and ask["user"] == ALICE and ask["channel"] == GENERAL


def test_recall_help_is_answered_in_the_ack(h: Harness) -> None:
    status, body = h.command("help")
    assert status == 200
    reply = json.loads(body)
    assert reply["response_type"] == "ephemeral"
    assert "/recall history" in json.dumps(reply["blocks"])
    assert "/recall why" in json.dumps(reply["blocks"])
    h.drain()
    assert h.slack.responses == [] and h.service.asks == []


def test_recall_history_renders_a_struck_through_timeline(h: Harness) -> None:
    _seed(h)
    t1, t2 = datetime(2024, 11, 2, 15, tzinfo=UTC), datetime(2024, 11, 3, 16, tzinfo=UTC)
    h.service.states = [State(
        state_id="s1", platform="slack", space=TEAM, channel=GENERAL, topic="standup time",
        value="4 pm", active_node_id="n2", revision_count=1, updated_at=t2,
        chain=[ChainEntry(node_id="n1", message_id="1", value="3 pm", speaker="Alice", ts=t1,
                          quote="standup at 3 pm", verdict=Verdict.ESTABLISH),
               ChainEntry(node_id="n2", message_id="2", value="4 pm", speaker="Alice", ts=t2,
                          quote="moving standup to 4 pm", verdict=Verdict.REVISE)])]
    h.command("history standup")
    [resp] = h.slack.wait_for_responses()
    text = json.dumps(resp.body["blocks"])
    assert "~3 pm~" in text and "*4 pm*" in text
    assert "s1" not in text  # no internal ids
    assert h.service.history_calls == [{"topic": "standup", "user": ALICE, "channel": GENERAL,
                                        "widen": True}]


def test_recall_forget_own_message_only_unless_admin(h: Harness) -> None:
    h.slack.add_message(GENERAL, user=ALICE, text="my phone is 555-0100", ts="1712000005.000100")
    h.event(envelope(message("my phone is 555-0100", ts="1712000005.000100"), event_id="EvF"))
    h.drain()
    link = f"https://acme.slack.com/archives/{GENERAL}/p1712000005000100"
    key = ("slack", TEAM, GENERAL, "1712000005.000100")

    h.command(f"forget {link}", user=BOB, response="bob")
    [resp] = h.slack.wait_for_responses()
    assert "only make me forget your own" in resp.body["text"]
    assert key in h.service.committed and h.service.forgotten == []

    h.command(f"forget <{link}>", user=ALICE, response="alice")
    resp = h.slack.wait_for_responses(count=2)[1]
    assert resp.body["text"].startswith("Done")
    assert key not in h.service.committed

    h.command(f"forget {link}", user=CAROL, response="carol")  # admin, already forgotten
    resp = h.slack.wait_for_responses(count=3)[2]
    assert "no record" in resp.body["text"]
    assert h.service.forgotten == [key, key]


def test_recall_forget_by_a_configured_admin() -> None:
    with running_app(ListService(), admins=(BOB,)) as h:
        h.event(envelope(message("old plan", ts="1712000005.000100")))
        h.drain()
        h.command(f"forget https://acme.slack.com/archives/{GENERAL}/p1712000005000100",
                  user=BOB)
        [resp] = h.slack.wait_for_responses()
        assert resp.body["text"].startswith("Done")
        # no author lookup was needed
        assert h.slack.calls_to("conversations.history") == []


def test_recall_forget_rejects_a_non_link(h: Harness) -> None:
    h.command("forget yesterday's message")
    [resp] = h.slack.wait_for_responses()
    assert "doesn't look like a Slack message link" in resp.body["text"]
    assert h.service.forgotten == []


def action_payload(h: Harness, *, action_id: str, value: str, user: str = ALICE,
                   channel: str = GENERAL, response: str = "share") -> dict[str, Any]:
    return {
        "type": "block_actions", "team": {"id": TEAM, "domain": "acme"},
        "user": {"id": user, "team_id": TEAM}, "channel": {"id": channel, "name": "general"},
        "api_app_id": "A0PNCHHK2", "token": "x", "trigger_id": "1.2.3",
        "response_url": h.slack.response_url(response),
        "container": {"type": "message", "is_ephemeral": True},
        "actions": [{"type": "button", "action_id": action_id, "block_id": "b1",
                     "value": value, "action_ts": "1.2"}],
    }


def button_value(blocks: list[dict[str, Any]], action_id: str) -> str:
    return next(e["value"] for b in blocks if b["type"] == "actions" for e in b["elements"]
                if e["action_id"] == action_id)


def test_share_posts_exactly_the_answer_that_was_seen(h: Harness) -> None:
    _seed(h)
    h.command("when is the deploy window?")
    [seen] = h.slack.wait_for_responses()
    token = button_value(seen.body["blocks"], "egmem_share")
    assert "deploy" not in token  # an opaque token, not a question to re-ask
    asks_before = len(h.service.asks)
    status, _ = h.action(action_payload(h, action_id="egmem_share", value=token))
    assert status == 200
    public, delete = h.slack.wait_for_responses(count=3)[1:]
    assert len(h.service.asks) == asks_before  # not re-asked: the same answer is posted
    assert public.body["response_type"] == "in_channel"
    assert public.body["replace_original"] is False
    shared = public.body["blocks"]
    assert shared[0] == seen.body["blocks"][0]  # the same answer, word for word
    assert f"shared by <@{ALICE}>" in json.dumps(shared)
    assert "egmem_share" not in json.dumps(shared)
    assert delete.body["delete_original"] is True  # only after the shared copy was posted


def test_share_is_refused_when_a_citation_is_private(h: Harness) -> None:
    h.event(envelope(message("Hiring budget is now 360k", ts="1712000009.000100",
                             channel=SECRET_CH, channel_type="group")))
    h.event(envelope(message("AWS budget alert is 9500", ts="1712000010.000100"),
                     event_id="Ev2"))
    h.drain()
    h.command("hiring budget 360k", user=ALICE)  # Alice reads #secret-plans privately
    [seen] = h.slack.wait_for_responses()
    text = json.dumps(seen.body["blocks"])
    assert "360k" in text
    assert "egmem_share" not in text  # no button ...
    assert f"Not shareable here: it quotes <#{SECRET_CH}>" in text  # ... but why not
    assert "egmem_feedback_up" in text


def test_share_keeps_the_original_when_posting_fails(h: Harness) -> None:
    _seed(h)
    h.command("when is the deploy window?")
    [seen] = h.slack.wait_for_responses()
    token = button_value(seen.body["blocks"], "egmem_share")
    h.slack.refuse_responses.add("share")
    h.action(action_payload(h, action_id="egmem_share", value=token))
    h.drain()
    posts = [r.body for r in h.slack.responses if r.name == "share"]
    assert posts[0]["response_type"] == "in_channel"
    assert not any(p.get("delete_original") for p in posts)
    assert "still here" in posts[-1]["text"]


def test_share_by_someone_else_or_after_expiry_is_refused(h: Harness) -> None:
    _seed(h)
    h.command("when is the deploy window?")
    [seen] = h.slack.wait_for_responses()
    token = button_value(seen.body["blocks"], "egmem_share")
    h.action(action_payload(h, action_id="egmem_share", value=token, user=BOB,
                            response="bob"))
    h.action(action_payload(h, action_id="egmem_share", value="forged-token",
                            response="forged"))
    h.drain()
    replies = {r.name: r.body for r in h.slack.responses}
    assert "Only the person who asked" in replies["bob"]["text"]
    assert "can no longer be shared" in replies["forged"]["text"]
    assert not any(r.body.get("response_type") == "in_channel" for r in h.slack.responses)


def test_recall_error_is_reported_politely(h: Harness) -> None:
    def boom(*a: Any, **k: Any) -> Any:
        raise RuntimeError("index corrupt")

    h.service.ask = boom
    h.command("anything?")
    [resp] = h.slack.wait_for_responses()
    assert resp.body["text"].startswith("Sorry")
    assert "index corrupt" not in json.dumps(resp.body)


# --- pure parsing ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "kind", "arg"), [
    ("", "help", ""), ("help", "help", ""), ("HELP me", "help", ""),
    ("history deploy window", "history", "deploy window"),
    ("forget https://x.slack.com/archives/C1/p1712345678000200", "forget",
     "https://x.slack.com/archives/C1/p1712345678000200"),
    ("history", "usage", ""), ("forget", "usage", ""), ("why", "usage", ""),
    ("why https://x.slack.com/archives/C1/p1712345678000200", "why",
     "https://x.slack.com/archives/C1/p1712345678000200"),
    ("WHY <https://x.slack.com/archives/C1/p1712345678000200>", "why",
     "<https://x.slack.com/archives/C1/p1712345678000200>"),
    ("why s_0123456789abcdef0123", "why", "s_0123456789abcdef0123"),
    ("why did we move the deploy?", "ask", "why did we move the deploy?"),
    ("why Postgres?", "ask", "why Postgres?"),
    ("what's the history of deploys?", "ask", "what's the history of deploys?"),
    ("historyless question", "ask", "historyless question"),
])
def test_parse_recall(text: str, kind: str, arg: str) -> None:
    req = parse_recall(text)
    assert (req.kind, req.arg) == (kind, arg)


def test_parse_permalink() -> None:
    link = parse_permalink("https://acme.slack.com/archives/C0CJ9FJ4A/p1712345790000300"
                           "?thread_ts=1712345678.000200&cid=C0CJ9FJ4A")
    assert link is not None
    assert (link.channel, link.ts, link.thread_ts) == ("C0CJ9FJ4A", "1712345790.000300",
                                                       "1712345678.000200")
    wrapped = parse_permalink("<https://acme.slack.com/archives/D0DM000001/p1712345678000200|x>")
    assert wrapped is not None and wrapped.channel == "D0DM000001"
    for bad in ("javascript:alert(1)", "https://acme.slack.com/archives/C1/", "not a link",
                "https://acme.slack.com/archives/C1/p17123"):
        assert parse_permalink(bad) is None


# --- end to end with the real memory service ---------------------------------------------


def test_end_to_end_with_the_real_service(tmp_path: Path) -> None:
    from bot.app import build
    from bot.settings import Settings

    service = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    try:
        with running_app(service) as e2e:
            e2e.event(envelope(message("The deploy window is Thursday 14:00 UTC",
                                       ts="1712000001.000100"), event_id="E1"))
            e2e.event(envelope(message("Update: the deploy window moves to Friday 10:00 UTC",
                                       ts="1712000002.000100", user=BOB), event_id="E2"))
            e2e.event(envelope(message("Secret: the deploy window moves to Sunday 09:00 UTC",
                                       ts="1712000003.000100", channel=SECRET_CH,
                                       channel_type="group"), event_id="E3"))
            e2e.event(envelope(message("Update: the deploy window moves to Friday 10:00 UTC",
                                       ts="1712000002.000100", user=BOB), event_id="E2"),
                      retry_num=1)
            e2e.drain()
            assert service.stats()["messages"] == 3  # the retry added nothing

            # Bob cannot read the private channel: his answer never shows it
            e2e.command("when is the deploy window?", user=BOB, response="bob")
            [resp] = e2e.slack.wait_for_responses()
            blocks = json.dumps(resp.body["blocks"])
            assert "Friday 10:00" in blocks and "Sunday" not in blocks
            assert f"^https://acme.slack.com/archives/{GENERAL}/p1712000002000100|" in blocks

            e2e.command("history deploy window", user=BOB, response="bob-history")
            timeline = json.dumps(e2e.slack.wait_for_responses(count=2)[1].body["blocks"])
            # whether Friday revises Thursday is the writer's call; both must be listed
            assert "Thursday 14:00" in timeline and "*Friday 10:00 UTC*" in timeline
            assert "Sunday" not in timeline

            # the author deletes the revision in Slack: memory forgets it
            e2e.event(envelope({"type": "message", "subtype": "message_deleted",
                                "channel": GENERAL, "channel_type": "channel",
                                "deleted_ts": "1712000002.000100", "ts": "1712000100.000100",
                                "hidden": True}, event_id="E4"))
            e2e.drain()
            e2e.command("when is the deploy window?", user=BOB, response="bob2")
            after = json.dumps(e2e.slack.wait_for_responses(count=3)[2].body["blocks"])
            assert "Friday 10:00" not in after
    finally:
        service.close()


def test_recall_why_audits_only_what_the_asker_may_read(tmp_path: Path) -> None:
    from bot.app import build
    from bot.settings import Settings

    service = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    base = "https://acme.slack.com/archives"
    try:
        with running_app(service) as e2e:
            e2e.event(envelope(message("The deploy window is Thursday 14:00 UTC",
                                       ts="1712000001.000100"), event_id="E1"))
            e2e.event(envelope(message("Update: the deploy window moves to Friday 10:00 UTC",
                                       ts="1712000002.000100", user=BOB), event_id="E2"))
            e2e.event(envelope(message("Secret: the deploy window moves to Sunday 09:00 UTC",
                                       ts="1712000003.000100", channel=SECRET_CH,
                                       channel_type="group"), event_id="E3"))
            e2e.drain()

            def why(target: str, *, user: str, name: str) -> dict[str, Any]:
                before = len(e2e.slack.responses)
                status, body = e2e.command(f"why {target}", user=user, response=name)
                assert status == 200 and "Searching" in body  # answered after the ack
                resp = e2e.slack.wait_for_responses(count=before + 1)[before]
                assert resp.name == name and resp.body["response_type"] == "ephemeral"
                return resp.body

            # a message Bob may read: its evidence and its audit trail
            audit = why(f"{base}/{GENERAL}/p1712000002000100", user=BOB, name="bob")
            text = json.dumps(audit["blocks"], ensure_ascii=False)
            assert "> Update: the deploy window moves to Friday 10:00 UTC" in text
            assert f"{base}/{GENERAL}/p1712000002000100|open" in text
            assert "*Proposed* by offline:" in text and "*Verified:* " in text
            assert "*Committed:* " in text
            node = service.store.find_message(channel=GENERAL, message_id="1712000002.000100")
            assert node is not None and node.verification is not None
            assert f"*Verified:* {node.verification.outcome.value} as " in text

            # the private channel's message: Bob is told nothing, not even that it exists
            hidden = why(f"<{base}/{SECRET_CH}/p1712000003000100>", user=BOB, name="bob-secret")
            unknown = why(f"{base}/{GENERAL}/p1712999999000100", user=BOB, name="bob-unknown")
            assert "Sunday" not in json.dumps(hidden)
            assert hidden["text"] == unknown["text"] == (
                "I have no record of that in the channels you can read.")
            secret = service.store.find_message(channel=SECRET_CH, message_id="1712000003.000100")
            assert secret is not None and secret.state_id is not None
            by_state = why(secret.state_id, user=BOB, name="bob-state")
            assert "Sunday" not in json.dumps(by_state)
            # ... while Alice, a member, may audit it
            mine = why(f"{base}/{SECRET_CH}/p1712000003000100", user=ALICE, name="alice")
            assert "Sunday 09:00" in json.dumps(mine["blocks"])

            # a state id audits every message of the decision Bob may read
            assert node.state_id is not None
            chain = why(node.state_id, user=BOB, name="bob-chain")
            members = {n.message_id for n in service.store.state_nodes([node.state_id])}
            assert len(members) >= 1
            assert chain["text"].startswith("Audit of ")
            chain_text = json.dumps(chain["blocks"], ensure_ascii=False)
            for ts in members:
                assert f"p{ts.replace('.', '')}|open" in chain_text

            bad = why("https://example.com/not-slack", user=BOB, name="bob-bad")
            assert "doesn't look like a Slack message link" in bad["text"]
    finally:
        service.close()


def test_recall_why_without_an_auditing_service_says_so(h: Harness) -> None:
    h.command(f"why https://acme.slack.com/archives/{GENERAL}/p1712000002000100")
    [resp] = h.slack.wait_for_responses()
    assert "not available" in resp.body["text"]


# --- serving -----------------------------------------------------------------------------


def test_http_server_health_and_refusals(h: Harness) -> None:
    base = h.server.url.removesuffix("/slack/events")
    with urllib.request.urlopen(base + "/healthz", timeout=10) as resp:
        assert resp.status == 200 and resp.read() == b"ok"
    for url, data in ((base + "/elsewhere", b"{}"), (base + "/nothing", None)):
        req = urllib.request.Request(url, data=data, method="POST" if data else "GET")
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=10)
        assert err.value.code == 404
    # refused from the headers alone, before any of the body is read
    conn = http.client.HTTPConnection("127.0.0.1", h.server.port, timeout=10)
    conn.putrequest("POST", "/slack/events")
    conn.putheader("Content-Length", "1000001")
    conn.endheaders()
    assert conn.getresponse().status == 413
    conn.close()


@pytest.mark.parametrize(("socket", "settings", "missing"), [
    (False, {"slack_signing_secret": "s"}, "SLACK_BOT_TOKEN"),
    (False, {"slack_bot_token": "xoxb-1"}, "SLACK_SIGNING_SECRET"),
    (True, {"slack_bot_token": "xoxb-1"}, "SLACK_APP_TOKEN"),
])
def test_serve_slack_names_the_missing_setting(socket: bool, settings: dict[str, Any],
                                               missing: str) -> None:
    from bot.settings import Settings

    with pytest.raises(ConfigError, match=missing):
        serve_slack(ListService(), Settings(**settings), socket=socket, port=0)
