"""Importing a Slack workspace export: every record counted once, file comments kept,
permalinks built for citations, emoji shortcodes shown as emoji."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.ingest import ingest_path

TEAM = "T0ACME001"


def write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value))


def export(root: Path) -> Path:
    write(root / "users.json", [
        {"id": "U01ALICE", "team_id": TEAM, "name": "alice", "profile": {"display_name": "Alice"}},
        {"id": "U02BOB", "team_id": TEAM, "name": "bob", "profile": {"display_name": "Bob"}}])
    write(root / "channels.json", [{"id": "C01GENERAL", "name": "general",
                                    "members": ["U01ALICE", "U02BOB"]}])
    write(root / "general" / "2024-03-04.json", [
        {"type": "message", "subtype": "channel_join", "user": "U02BOB", "ts": "1709542500.000010",
         "text": "<@U02BOB> has joined the channel"},
        {"type": "message", "user": "U01ALICE", "team": TEAM, "ts": "1709542800.000100",
         "text": "The retro moved to Thursday :blush: see :tada:"},
        {"type": "message", "subtype": "file_share", "user": "U02BOB", "ts": "1709542900.000200",
         "text": "slides", "files": [{"id": "F1", "title": "Retro slides",
                                      "permalink": "https:\\/\\/acme.slack.com\\/files\\/U02BOB"
                                                   "\\/F1\\/retro.pdf"}]},
        {"type": "message", "subtype": "file_comment", "ts": "1709543000.000300",
         "text": "<@U01ALICE|alice> commented on <@U02BOB|bob>'s file <https://acme.slack.com/"
                 "files/U02BOB/F1/retro.pdf|Retro slides>: the budget slide is outdated",
         "comment": {"id": "Fc1", "created": 1709543000, "user": "U01ALICE",
                     "comment": "the budget slide is outdated"}},
        {"type": "message", "subtype": "file_comment", "ts": "1709543100.000400",
         "text": "someone commented", "comment": {"id": "Fc2"}},
        {"type": "message", "subtype": "bot_message", "bot_id": "B1", "ts": "1709543200.000500",
         "text": "build passed"},
    ])
    return root


def test_every_record_is_counted_once_and_citations_link_back(tmp_path: Path) -> None:
    from bot.app import build
    from bot.settings import Settings

    root = export(tmp_path / "export")
    eg = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    try:
        first = ingest_path(eg, root)
        again = ingest_path(eg, root)
        for report in (first, again):
            parts = (report["channels"] + report["new"] + report["duplicates"]
                     + report["skipped"] + report["errors"])
            assert parts == report["records"] == 7, report
        assert (first["new"], first["skipped"], first["errors"]) == (3, 3, 0)
        assert first["skip_reasons"] == {"a system notice (channel_join)": 1,
                                         "a file comment without its author": 1,
                                         "a bot's message": 1}
        assert again["duplicates"] == 3 and again["new"] == 0
        comment = eg.store.find_message(channel="C01GENERAL", message_id="1709543000.000300")
        assert comment is not None and comment.speaker_id == "U01ALICE"
        assert "budget slide is outdated" in comment.text
        answer = eg.ask("retro moved", platform="slack", space=TEAM, user="U02BOB",
                        channel="C01GENERAL")
        [cite] = [c for c in answer.citations if c.message_id == "1709542800.000100"]
        assert cite.permalink == "https://acme.slack.com/archives/C01GENERAL/p1709542800000100"
        assert "😊" in cite.quote and "🎉" in cite.quote and ":blush:" not in cite.quote
    finally:
        eg.close()


def test_an_explicit_workspace_url_is_used_when_the_export_has_no_links(tmp_path: Path) -> None:
    from adapters.exports import iter_events

    root = tmp_path / "export"
    write(root / "channels.json", [{"id": "C1", "name": "general", "members": ["U1"]}])
    write(root / "general" / "2024-03-04.json", [
        {"type": "message", "user": "U1", "ts": "1709542800.000100", "text": "hi"}])
    [_, without] = list(iter_events(root))
    assert without.event is not None and getattr(without.event, "permalink", None) is None
    [_, with_url] = list(iter_events(root, slack_permalink_base="https://example.slack.com"))
    assert getattr(with_url.event, "permalink", "").startswith("https://example.slack.com/")
