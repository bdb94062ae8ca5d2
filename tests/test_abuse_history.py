"""History read back (Slack reconcile and backfill, Slack export imports) follows the rules
of live events: questions to egmem and its DMs are never team knowledge, and an export's
identity comes from the export itself, not from whatever a member or a partner posted.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adapters.slack.backfill import backfill_slack, reconcile_recent
from bot.ingest import ingest_path
from tests.test_slack_app import BOB, BOT, DM, GENERAL, TEAM
from tests.test_slack_daily import daily, real_service

DM_QUESTION = "is Carol on the layoff list and what is her severance"
MENTION_QUESTION = "when does the reorg of the sales team get announced"


def on_disk(data: Path, needle: str) -> list[str]:
    return [str(f.relative_to(data)) for f in sorted(data.rglob("*"))
            if f.is_file() and needle.encode() in f.read_bytes()]


def test_reconcile_and_backfill_never_store_questions_to_egmem(tmp_path: Path) -> None:
    service = real_service(tmp_path)
    try:
        with daily(service) as h:
            h.slack.add_message(DM, user=BOB, text=DM_QUESTION, ts="1712000001.000100")
            h.slack.add_message(GENERAL, user=BOB, text=f"<@{BOT}> {MENTION_QUESTION}?",
                                ts="1712000002.000100")
            h.slack.add_message(GENERAL, user=BOB, text="The reorg is announced on Friday",
                                ts="1712000003.000100")
            now = datetime.fromtimestamp(1712003600, UTC)
            recent = reconcile_recent(h.bot.client, service, now=now,
                                      directory=h.bot.directory)
            full = backfill_slack(h.bot.client, service, inbox_cursor_store=service, progress=False,
                                  directory=h.bot.directory)
            dm = backfill_slack(h.bot.client, service, inbox_cursor_store=service, channel=DM,
                                progress=False,
                                directory=h.bot.directory)
            service.process()
            nodes = service.store.find_nodes(service.scope(platform="slack", space=TEAM,
                                                           user=None, channel=None))
        assert [n.text for n in nodes] == ["The reorg is announced on Friday"]
        assert recent.events == 1 and full.events == 1 and dm.skipped == [DM]
        data = tmp_path / "data"
        assert on_disk(data, DM_QUESTION) == [] and on_disk(data, MENTION_QUESTION) == []
    finally:
        service.close()


def test_a_message_edited_into_a_question_is_forgotten_by_reconcile(tmp_path: Path) -> None:
    service = real_service(tmp_path)
    try:
        with daily(service) as h:
            msg = h.slack.add_message(GENERAL, user=BOB, text="the wifi code is swordfish77",
                                      ts="1712000001.000100")
            now = datetime.fromtimestamp(1712003600, UTC)
            reconcile_recent(h.bot.client, service, now=now, directory=h.bot.directory)
            service.process()
            msg.update(text=f"<@{BOT}> what is the wifi code now?",
                       edited={"user": BOB, "ts": "1712000050.000100"})
            reconcile_recent(h.bot.client, service, now=now, directory=h.bot.directory)
            service.process()
            nodes = service.store.find_nodes(service.scope(platform="slack", space=TEAM,
                                                           user=None, channel=None))
        assert nodes == []
    finally:
        service.close()


# --- Slack export imports -------------------------------------------------------------------


def write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))


def export(root: Path, *, general: list[dict[str, Any]] | None = None) -> Path:
    """An export whose first channel is shared with a partner organization, whose partner
    posted a link to another workspace, with a past question to egmem and a DM with it."""
    write(root / "channels.json", [
        {"id": "C0PARTNERS", "name": "partners", "members": ["U01ALICE", "UEXT0001"]},
        {"id": "C0GENERAL1", "name": "general", "members": ["U01ALICE", "U02BOB"]}])
    write(root / "dms.json", [{"id": "D0EGMEMDM1", "members": ["U02BOB", "U0EGMEM1"]}])
    write(root / "users.json", [
        {"id": "U01ALICE", "team_id": "T0ACME", "name": "alice", "real_name": "Alice"},
        {"id": "U02BOB", "team_id": "T0ACME", "name": "bob", "real_name": "Bob"},
        {"id": "U0EGMEM1", "team_id": "T0ACME", "name": "egmem", "real_name": "egmem",
         "is_bot": True}])
    write(root / "partners" / "2024-03-01.json", [
        {"type": "message", "user": "UEXT0001", "team": "T0PARTNER", "user_team": "T0PARTNER",
         "text": "hi from the partner, see https://evil-corp.slack.com/archives/C0GENERAL1/"
                 "p1709280000000100 and https://evil-corp.slack.com/files/U1/F1/x.pdf",
         "ts": "1709280000.000100"}])
    write(root / "general" / "2024-03-02.json", general or [
        {"type": "message", "user": "U01ALICE", "team": "T0ACME",
         "text": "The deploy window is Thursday 14:00 UTC", "ts": "1709370000.000100"},
        {"type": "message", "user": "U02BOB", "team": "T0ACME",
         "text": "<@U0EGMEM1> is Carol on the layoff list?", "ts": "1709370100.000100"}])
    write(root / "D0EGMEMDM1" / "2024-03-02.json", [
        {"type": "message", "user": "U02BOB", "text": "what is Carol's severance?",
         "ts": "1709370200.000100"}])
    return root


def _import(tmp_path: Path, root: Path, **kw: Any) -> tuple[dict[str, Any], list[Any]]:
    from bot.app import build
    from bot.settings import Settings

    eg = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    try:
        report = ingest_path(eg, root, **kw)
        nodes = eg.store.find_nodes(eg.scope(platform="", space="", user=None, channel=None))
    finally:
        eg.close()
    return report, nodes


def test_an_export_is_filed_under_its_own_workspace_without_borrowed_links(
        tmp_path: Path) -> None:
    report, nodes = _import(tmp_path, export(tmp_path / "export"))
    assert {n.space for n in nodes} == {"T0ACME"}  # not the partner's team
    assert {n.permalink for n in nodes} == {None}  # the partner's links are not ours
    assert report["skip_reasons"].get("a question to egmem") == 2
    texts = " ".join(n.text for n in nodes)
    assert "Carol" not in texts and "deploy window" in texts


def test_an_exports_own_links_or_the_given_url_make_its_permalinks(tmp_path: Path) -> None:
    own = [{"type": "message", "user": "U01ALICE", "team": "T0ACME", "ts": "1709370000.000100",
            "text": "The deploy window is Thursday, see https://acme.slack.com/archives/"
                    "C0GENERAL1/p1709280000000100"}]
    _, nodes = _import(tmp_path / "a", export(tmp_path / "a" / "export", general=own))
    links = {n.permalink for n in nodes if n.channel == "C0GENERAL1"}
    assert links == {"https://acme.slack.com/archives/C0GENERAL1/p1709370000000100"}
    _, nodes = _import(tmp_path / "b", export(tmp_path / "b" / "export"),
                       slack_url="https://given.slack.com")
    assert all(n.permalink and n.permalink.startswith("https://given.slack.com/")
               for n in nodes)


def test_edits_and_questions_leave_no_trace_on_disk(tmp_path: Path) -> None:
    from tests.test_slack_app import ALICE, envelope, message

    def changed(ts: str, new: str, old: str, edit_ts: str) -> dict[str, Any]:
        return {"type": "message", "subtype": "message_changed", "channel": GENERAL,
                "channel_type": "channel", "ts": edit_ts, "hidden": True,
                "message": {"type": "message", "user": ALICE, "ts": ts, "text": new,
                            "edited": {"user": ALICE, "ts": edit_ts}},
                "previous_message": {"type": "message", "user": ALICE, "ts": ts, "text": old}}

    service = real_service(tmp_path)
    try:
        with daily(service) as h:
            h.event(envelope(message("the db password is hunter2", ts="1712000001.000100"),
                             event_id="E1"))
            h.event(envelope(message("the wifi code is swordfish77", ts="1712000002.000100"),
                             event_id="E2"))
            h.drain()
            h.event(envelope(changed("1712000001.000100", "the db password is in the vault",
                                     "the db password is hunter2", "1712000050.000100"),
                             event_id="E3"))
            h.event(envelope(changed("1712000002.000100", f"<@{BOT}> what is the wifi code now?",
                                     "the wifi code is swordfish77", "1712000051.000100"),
                             event_id="E4"))
            h.event(envelope(message("dmquestion about quarterly bonus pool",
                                     ts="1712000003.000100", user=BOB, channel=DM,
                                     channel_type="im"), event_id="E5"))
            h.event(envelope({"type": "app_mention", "user": BOB,
                              "text": f"<@{BOT}> mentionquestion about office move",
                              "ts": "1712000004.000100", "channel": GENERAL, "team": TEAM},
                             event_id="E6"))
            h.event(envelope(message(f"<@{BOT}> mentionquestion about office move",
                                     ts="1712000004.000100", user=BOB), event_id="E7"))
            h.command("slashquestion about parking permits", user=BOB, response="s")
            h.slack.wait_for_responses()
            h.drain()
        data = tmp_path / "data"
        for needle in ("hunter2", "swordfish77", "what is the wifi code", "dmquestion",
                       "mentionquestion", "slashquestion"):
            assert on_disk(data, needle) == [], needle
    finally:
        service.close()
