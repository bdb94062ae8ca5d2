"""``egmem feedback``, feedback in ``egmem why``, and library warnings kept out of output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.models import Message
from memory.ports import FeedbackEntry

ROOT = Path(__file__).parent.parent


def test_feedback_is_exported_and_shown_by_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from bot.app import build
    from bot.cli import main
    from bot.settings import Settings

    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    data = str(tmp_path / "data")
    eg = build(Settings(data=data, embedder="hashing"))
    try:
        eg.submit([Message(platform="slack", space="T1", channel="C1", id="1", user="U1",
                           user_name="Alice", ts=datetime(2024, 4, 1, tzinfo=UTC),
                           text="The deploy window is Thursday 14:00 UTC")])
        eg.process()
        node = eg.store.find_message(channel="C1", message_id="1")
        assert node is not None
        eg.record_feedback(FeedbackEntry(
            platform="slack", space="T1", channel="C1", asker="U2", rater="U2", vote="down",
            question="when is the deploy window?", node_ids=(node.node_id,),
            message_ids=("1",), at=datetime(2024, 4, 2, tzinfo=UTC)))
    finally:
        eg.close()
    assert main(["feedback", "--json", "--data", data]) == 0
    [case] = json.loads(capsys.readouterr().out)
    assert case["vote"] == "down" and case["question"] == "when is the deploy window?"
    assert case["node_ids"] == [node.node_id] and case["asker"] == "U2"
    assert main(["why", node.node_id, "--data", data]) == 0
    assert "feedback: 👎 from U2 on 'when is the deploy window?'" in capsys.readouterr().out
    assert main(["why", node.node_id, "--json", "--data", data]) == 0
    [audit] = json.loads(capsys.readouterr().out)
    assert [f["vote"] for f in audit["feedback"]] == ["down"]


def test_library_warnings_stay_out_of_the_cli_output(tmp_path: Path) -> None:
    # A delete makes the ingest purge old table versions, where LanceDB warns.
    records = tmp_path / "two.jsonl"
    records.write_text(
        json.dumps({"type": "message", "platform": "slack", "space": "T1", "channel": "C1",
                    "id": "1", "user": "U1", "ts": "2024-04-01T09:00:00Z",
                    "text": "deploy window is Friday"}) + "\n"
        + json.dumps({"type": "delete", "channel": "C1", "id": "1",
                      "ts": "2024-04-01T10:00:00Z"}) + "\n")
    env = {**os.environ, "EGMEM_EMBEDDER": "hashing", "EGMEM_DATA": str(tmp_path / "d")}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "ingest", str(records)], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    assert "1 deletes" in done.stdout
    assert "Warning" not in done.stderr and "warnings.warn" not in done.stderr
