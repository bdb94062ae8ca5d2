"""Bad input gets a clear answer once and loses nothing else.

* A year-1 timestamp used to dead-letter its message after five tracebacks; a year-9999 one
  was stored and never expired under retention. Both are refused with a reason, once.
* An edit of a message not in memory was reported as applied and then lost; it is reported
  as such, kept, and applied when the message arrives.
* A second message with a known id and other text was dropped silently; it is reported.
* ``ask --as-user U --space S`` without ``--channel`` always abstained (the platform was
  left empty); it answers from the public channels of S.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.app import build
from bot.cli import main
from bot.settings import Settings
from memory.models import Message, Scope


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    for var in ("EGMEM_LLM_BASE_URL", "OPENAI_API_KEY", "EGMEM_LLM_API_KEY", "EGMEM_DATA"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "data"


def _msg(mid: str, text: str, ts: str = "2024-11-04T09:00:00Z", *, channel: str = "C1",
         user: str = "U1") -> dict[str, Any]:
    return {"type": "message", "platform": "slack", "space": "T1", "channel": channel,
            "id": mid, "user": user, "user_name": user.lower(), "ts": ts, "text": text}


def _file(path: Path, *records: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _ingest(capsys: pytest.CaptureFixture[str], path: Path, data: Path
            ) -> tuple[int, dict[str, Any], str]:
    code = main(["ingest", str(path), "--data", str(data), "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def test_impossible_timestamps_are_refused_once_with_a_reason(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chat = _file(tmp_path / "chat.jsonl",
                 _msg("1", "launch is Friday 3pm", "0001-01-01T00:00:00"),
                 _msg("2", "review is Monday 3pm", "9999-12-31T00:00:00"),
                 _msg("3", "budget is $5k"))
    code, report, err = _ingest(capsys, chat, data)
    assert code == 0
    assert report["errors"] == 2 and report["committed"] == 1 and report["dead"] == 0
    assert err.count("before 1970") == 1 and err.count("in the future") == 1
    assert "Traceback" not in err
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        assert {n.message_id for n in eg.store.find_nodes(Scope())} == {"3"}
        assert eg.inbox.count(status="pending") == 0 and not eg.inbox.dead_letters()
    finally:
        eg.close()


def test_a_live_message_from_the_future_is_refused_and_logged_once(
        data: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    eg = build(Settings(data=str(data), embedder="hashing"))
    try:
        far = Message(platform="slack", space="T1", channel="C1", id="9", user="U1",
                      ts=datetime(9999, 1, 1, tzinfo=UTC), text="never expires")
        report = eg.submit_report([far])
        assert report.new == 0 and len(report.rejected) == 1
        assert "future" in report.rejected[0][1]
        assert sum("rejected message C1/9" in r.getMessage() for r in caplog.records) == 1
        assert "never expires" not in caplog.text
        assert eg.drain().committed == 0
    finally:
        eg.close()


def test_an_edit_of_an_unknown_message_is_reported_and_applied_when_it_arrives(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edits = _file(tmp_path / "edits.jsonl", {
        "type": "edit", "platform": "slack", "space": "T1", "channel": "C1", "id": "7",
        "ts": "2024-11-04T09:05:00Z", "text": "deploy window is Friday 4pm"})
    code = main(["ingest", str(edits), "--data", str(data)])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "0 edits" in out and "1 edits of messages not in memory are kept" in out
    code = main(["stats", "--data", str(data), "--json"])
    assert json.loads(capsys.readouterr()[0])["inbox"]["parked_edits"] == 1

    later = _file(tmp_path / "later.jsonl", _msg("7", "deploy window is Friday 3pm"))
    code, report, _ = _ingest(capsys, later, data)
    assert code == 0 and report["committed"] == 1
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        [node] = eg.store.find_nodes(Scope())
        assert node.text == "deploy window is Friday 4pm" and node.edited
        assert eg.stats()["inbox"]["parked_edits"] == 0
    finally:
        eg.close()


def test_a_known_id_with_other_text_is_reported(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = _file(tmp_path / "a.jsonl", _msg("1", "the budget is $5k"),
                  _msg("2", "lunch is at noon"), _msg("2", "lunch is at 1pm"))
    code, report, err = _ingest(capsys, first, data)
    assert report["conflicts"] == 1 and "C1/2" in err  # within one file (still queued)
    again = _file(tmp_path / "b.jsonl", _msg("1", "the budget is $9k"),
                  _msg("2", "lunch is at noon"))
    code, report, err = _ingest(capsys, again, data)
    assert code == 0
    assert report["conflicts"] == 1 and report["duplicates"] == 2
    assert "C1/1" in err and "other text" in err and "$9k" not in err
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        texts = {n.message_id: n.text for n in eg.store.find_nodes(Scope())}
        assert texts == {"1": "the budget is $5k", "2": "lunch is at noon"}
    finally:
        eg.close()


def test_ask_as_a_user_within_a_space_without_a_channel(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chat = _file(tmp_path / "chat.jsonl",
                 {"type": "channel", "platform": "slack", "space": "T1", "id": "C1",
                  "name": "general", "is_private": False},
                 {"type": "channel", "platform": "slack", "space": "T1", "id": "C2",
                  "name": "leads", "is_private": True, "members": ["U9"]},
                 _msg("1", "we decided the offsite budget is $480k"),
                 _msg("2", "the leads bonus pool is $777k", channel="C2", user="U9"))
    assert _ingest(capsys, chat, data)[0] == 0
    code = main(["ask", "what is the offsite budget?", "--as-user", "U1", "--space", "T1",
                 "--data", str(data), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    ans = json.loads(out)
    assert not ans["abstained"] and "$480k" in ans["answer"]
    code = main(["ask", "what is the bonus pool?", "--as-user", "U1", "--space", "T1",
                 "--data", str(data), "--json"])
    out, _ = capsys.readouterr()
    assert "$777k" not in out  # a private channel U1 is not in stays out
    code = main(["ask", "what is the budget?", "--as-user", "U1", "--space", "T404",
                 "--data", str(data)])
    _, err = capsys.readouterr()
    assert code == 2 and "no space 'T404'" in err
