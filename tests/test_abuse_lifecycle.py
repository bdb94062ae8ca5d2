"""A workspace's lifecycle under abuse and bad luck: uninstalls are carried out only on
Slack's word that the app is gone, a reinstall keeps the memory, a deleted workspace leaves
nothing behind (not even dead letters a retry could bring back, nor its ids), digests are
turned off only by whoever turned them on or an admin, and forged lifecycle events are
refused.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from slack_sdk.signature import SignatureVerifier

from memory.store.workspaces import UNINSTALL_GRACE, WorkspaceLedger
from tests.support.fake_openai import ScriptedOpenAIServer
from tests.support.list_service import ListService
from tests.support.llm_models import PlausibleWriter
from tests.test_llm_pipeline import POISON, refusing
from tests.test_llm_writer import msg
from tests.test_slack_app import (
    ALICE,
    BOB,
    CAROL,
    GENERAL,
    SECRET,
    SECRET_CH,
    TEAM,
    envelope,
    message,
)
from tests.test_slack_daily import NOW, daily, real_service


def files_with(data: Path, needle: str) -> list[str]:
    return [str(f.relative_to(data)) for f in sorted(data.rglob("*"))
            if f.is_file() and needle.encode() in f.read_bytes()]


# --- uninstalls ------------------------------------------------------------------------------


@pytest.mark.parametrize("failure", ["ratelimited", "fatal_error", "service_unavailable"])
def test_a_transient_auth_error_never_deletes_a_workspace(failure: str) -> None:
    with daily(ListService()) as h:
        h.event(envelope({"type": "app_uninstalled"}, event_id="E1"))
        if failure == "ratelimited":
            h.slack.rate_limit("auth.test", retry_after=1)
        else:
            h.slack.fail("auth.test", failure)
        assert h.bot.purge_uninstalled(now=NOW + UNINSTALL_GRACE + timedelta(hours=1)) == 0
        assert h.service.forgotten_spaces == [] and ("slack", TEAM) in h.service.uninstalls
        h.slack.fail("auth.test", "token_revoked")  # Slack's word: the app is gone
        assert h.bot.purge_uninstalled(now=NOW + UNINSTALL_GRACE + timedelta(hours=2)) == 1
        assert h.service.forgotten_spaces == [("slack", TEAM)]


def test_a_reinstall_cancels_the_deletion_before_the_grace_is_over() -> None:
    with daily(ListService()) as h:
        h.event(envelope({"type": "app_uninstalled"}, event_id="E1"))
        assert ("slack", TEAM) in h.service.uninstalls
        # reinstalled an hour later: the token works for the workspace again
        assert h.bot.purge_uninstalled(now=NOW + timedelta(hours=1)) == 0
        assert h.service.uninstalls == {}
        # uninstalled again, then a message written after it arrives: the app is back
        h.event(envelope({"type": "app_uninstalled"}, event_id="E2"))
        h.event(envelope(message("still here", ts=f"{int(time.time()) + 60}.000100"),
                         event_id="E3"))
        assert h.service.uninstalls == {}


def test_a_new_uninstall_restarts_the_grace(tmp_path: Path) -> None:
    ledger = WorkspaceLedger(tmp_path / "workspaces.sqlite3")
    try:
        ledger.mark_uninstalled(platform="slack", space=TEAM, at=NOW)
        ledger.mark_uninstalled(platform="slack", space=TEAM, at=NOW + timedelta(hours=71))
        assert ledger.due_uninstalls(now=NOW + timedelta(hours=72)) == []
        [(_, _, at)] = ledger.due_uninstalls(now=NOW + timedelta(hours=71) + UNINSTALL_GRACE)
        assert at == NOW + timedelta(hours=71)
        assert ledger.pending_uninstalls(platform="slack") == [(TEAM, at)]
    finally:
        ledger.close()


def test_a_deleted_workspace_leaves_no_text_and_no_id(tmp_path: Path) -> None:
    service = real_service(tmp_path)
    try:
        with daily(service) as h:
            h.slack.add_message(GENERAL, user=ALICE, text="backfilled: ship on Tuesdays",
                                ts="1711000000.000100")
            h.command("backfill", user=CAROL, response="bf")
            h.slack.wait_for_responses()
            h.wait_backfills()
            h.bot.initial_sync()
            h.event(envelope(message("The deploy window is Thursday 14:00 UTC",
                                     ts="1712000001.000100"), event_id="E1"))
            h.event(envelope(message("launch codename is Falcon", ts="1712000002.000100",
                                     channel=SECRET_CH, channel_type="group"), event_id="E2"))
            h.command("digest on", user=BOB, response="d")
            h.drain()
            h.event(envelope({"type": "app_uninstalled"}, event_id="E4"))
            h.slack.fail("auth.test", "invalid_auth", times=2)
            assert h.bot.purge_uninstalled(now=NOW + UNINSTALL_GRACE) == 1
        data = tmp_path / "data"
        for needle in ("ship on Tuesdays", "Falcon", "deploy window", TEAM, GENERAL,
                       SECRET_CH, ALICE, BOB):
            assert files_with(data, needle) == [], needle
    finally:
        service.close()


def test_a_deleted_workspace_keeps_no_dead_letter_to_retry(tmp_path: Path) -> None:
    from bot.app import build
    from bot.settings import Settings
    from memory.embeddings import HashingEmbedder

    secret = "the acquisition target is Initech"
    with ScriptedOpenAIServer(policy=refusing(PlausibleWriter())) as srv:
        eg = build(Settings(data=str(tmp_path / "data"), writer="llm", embedder="hashing",
                            llm_base_url=srv.base_url, llm_model="scripted"),
                   embedder=HashingEmbedder())
        try:
            eg.submit([msg(1, "item 1 is due on May 2"),
                       msg(2, f"{POISON}; {secret}", user="mallory"),
                       msg(3, "item 3 is due on May 4")])
            eg.drain()
            assert [d.message_id for d in eg.inbox.dead_letters()] == ["m2"]
            eg.forget_space(platform="slack", space="T1")
            srv.policy = PlausibleWriter()  # the endpoint accepts it now: `egmem retry`
            eg.inbox.retry_dead()
            eg.drain()
            back = eg.store.find_nodes(eg.scope(platform="slack", space="T1", user=None,
                                                channel=None))
        finally:
            eg.close()
    assert back == []
    assert files_with(tmp_path / "data", secret) == []


# --- digests ---------------------------------------------------------------------------------


def test_only_whoever_turned_a_digest_on_or_an_admin_turns_it_off(tmp_path: Path) -> None:
    service = real_service(tmp_path)
    try:
        with daily(service) as h:
            for i, (user, state, name) in enumerate((
                    (ALICE, "on", "a-on"), (BOB, "off", "b-off"), (ALICE, "off", "a-off"),
                    (BOB, "on", "b-on"), (CAROL, "off", "admin-off"))):
                h.command(f"digest {state}", user=user, response=name)
                # counted before the reply can arrive: one more response per command
                h.slack.wait_for_responses(count=i + 1)
            texts = {r.name: r.body["text"] for r in h.slack.responses}
        assert "now on" in texts["a-on"]
        assert f"<@{ALICE}> turned this channel's weekly digest on" in texts["b-off"]
        assert "now off" in texts["a-off"] and "now on" in texts["b-on"]
        assert "now off" in texts["admin-off"]  # Carol is a workspace admin
        assert service.digest_channels(platform="slack") == []
    finally:
        service.close()


# --- forged lifecycle events ----------------------------------------------------------------


def _post(url: str, body: str, headers: dict[str, str]) -> int:
    req = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return int(resp.status)
    except urllib.error.HTTPError as err:
        return int(err.code)


def test_forged_and_replayed_uninstalls_are_refused() -> None:
    with daily(ListService()) as h:
        body = json.dumps({**envelope({"type": "app_uninstalled"}, event_id="EVX"),
                           "team_id": "T0VICTIM"})
        codes: dict[str, Any] = {
            "unsigned": h.post(body, content_type="application/json", signed=False)[0],
            "wrong secret": h.post(body, content_type="application/json",
                                   secret="not-the-secret")[0]}
        old = str(int(time.time()) - 600)
        signature = SignatureVerifier(SECRET).generate_signature(timestamp=old, body=body)
        assert signature is not None
        codes["replayed"] = _post(h.server.url, body, {
            "Content-Type": "application/json", "X-Slack-Request-Timestamp": old,
            "X-Slack-Signature": signature})
        assert set(codes.values()) == {401} and h.service.uninstalls == {}
