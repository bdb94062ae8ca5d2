"""Endpoint errors through the inbox and the pipeline: a refused request costs only its own
message an attempt, channel by channel; an endpoint that refuses everything, or is down,
leaves everything queued and `egmem ingest` says so with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.app import build
from bot.cli import main
from bot.settings import Settings
from memory.embeddings import HashingEmbedder
from memory.models import Message
from memory.service import Egmem
from tests.support.fake_openai import EndpointMode, Reply, ScriptedOpenAIServer, error
from tests.support.llm_models import PlausibleWriter
from tests.test_llm_writer import T0, msg

POISON = "this one trips the server's content filter"


def refusing(model: PlausibleWriter) -> Any:
    """The plausible model behind a server that refuses any request carrying POISON."""

    def policy(body: dict[str, Any]) -> Reply:
        if any(POISON in str(m.get("content", "")) for m in body["messages"]):
            return error(400, {"error": {"message": "Invalid prompt: flagged by the content "
                                         "filter", "type": "invalid_request_error",
                                         "param": None, "code": "invalid_prompt"}})
        return model(body)

    return policy


def egmem(tmp: Path, srv: ScriptedOpenAIServer) -> Egmem:
    return build(Settings(data=str(tmp / "data"), writer="llm", embedder="hashing",
                          llm_base_url=srv.base_url, llm_model="scripted"),
                 embedder=HashingEmbedder())


def chat() -> list[Message]:
    out = [msg(i, f"item {i} is due on May {i + 1}") for i in range(1, 7)]
    out.insert(3, msg(50, POISON).model_copy(update={"ts": T0}))
    out += [msg(i, f"ticket {i} needs {i} points", channel="C2") for i in range(10, 14)]
    return out


def test_a_refused_request_dead_letters_only_its_message(tmp_path: Path) -> None:
    with ScriptedOpenAIServer(policy=refusing(PlausibleWriter())) as srv:
        eg = egmem(tmp_path, srv)
        try:
            eg.submit(chat())
            report = eg.drain()
            stats = eg.stats()
        finally:
            eg.close()
    assert not report.deferred
    assert report.committed == 10 and stats["evidence_nodes"] == 10
    assert stats["inbox"] == {"pending": 0, "done": 10, "dead": 1, "parked_edits": 0}
    (dead,) = stats["dead_letters"]
    assert dead["message_id"] == "m50" and dead["attempts"] == 5
    assert "RequestRejected" in dead["error"] and "content filter" in dead["error"]
    assert stats["writer"]["model_share"] == 1.0  # everything else came from the model


def test_an_endpoint_that_refuses_everything_keeps_the_queue(tmp_path: Path) -> None:
    with ScriptedOpenAIServer(policy=lambda body: error(400, {"error": {
            "message": "Unsupported value: 'messages[0].role' does not support 'system'"}})
            ) as srv:
        eg = egmem(tmp_path, srv)
        try:
            eg.submit(chat())
            report = eg.drain()
            stats = eg.stats()
        finally:
            eg.close()
    assert report.deferred and report.committed == 0
    assert stats["inbox"]["pending"] == 11 and stats["inbox"]["dead"] == 0


def test_ingest_exits_non_zero_while_events_stay_queued(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps({
        "type": "message", "platform": "slack", "space": "T1", "channel": "C1",
        "id": str(i), "user": "U1", "user_name": "Ann", "ts": f"2024-11-04T09:0{i}:00Z",
        "text": f"the review is at {i} pm"}) for i in range(1, 4)) + "\n")
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    monkeypatch.setenv("EGMEM_LLM_MODEL", "scripted")
    with ScriptedOpenAIServer(policy=lambda body: error(401)) as srv:
        monkeypatch.setenv("EGMEM_LLM_BASE_URL", srv.base_url)
        code = main(["ingest", str(path), "--data", str(tmp_path / "data"), "--writer", "llm",
                     "--json"])
    out, err = capsys.readouterr()
    assert code == 75 and json.loads(out)["queued"] == 3
    assert "still queued" in err
    # The reason goes to the log (stderr at the CLI's WARNING level), with the URL redacted.
    assert any("rejected the API key" in r.getMessage() for r in caplog.records)


def test_the_path_switch_is_shown_by_a_later_stats_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text(json.dumps({
        "type": "message", "platform": "slack", "space": "T1", "channel": "C1", "id": "1",
        "user": "U1", "user_name": "Ann", "ts": "2024-11-04T09:00:00Z",
        "text": "the review is at 3 pm"}) + "\n")
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    monkeypatch.setenv("EGMEM_LLM_MODEL", "scripted")
    with ScriptedOpenAIServer(policy=PlausibleWriter(), mode=EndpointMode(tools=False)) as srv:
        monkeypatch.setenv("EGMEM_LLM_BASE_URL", srv.base_url)
        assert main(["ingest", str(path), "--data", str(tmp_path / "data"), "--writer", "llm",
                     "--json"]) == 0
        ingested = json.loads(capsys.readouterr().out)
        assert main(["stats", "--data", str(tmp_path / "data"), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert ingested["writer"]["path"] == "json" and ingested["writer"]["model_share"] == 1.0
    endpoint = stats["llm"]["endpoint"]
    assert endpoint["path"] == "json"
    assert endpoint["notes"] == ["it does not accept tools; the writer asks for JSON replies"]
