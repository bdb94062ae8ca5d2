"""`egmem ingest --writer llm` end to end against the scripted OpenAI-compatible server,
including an endpoint that is down: messages stay queued and commit on the next run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from memory.llm.prompts import PROPOSE_TOOL, parse_batch
from tests.support.fake_openai import Reply, ScriptedOpenAIServer, text, tool_calls

TIME = re.compile(r"\b\d{1,2}\s?pm\b")


def model(body: dict[str, Any]) -> Reply:
    """A plausible writer: establishes a review time, revises it when a message moves it."""
    batch = parse_batch(body["messages"][1]["content"])
    states = batch["states"]
    items = []
    for m in batch["messages"]:
        found = TIME.search(m["text"])
        args: dict[str, Any] = {"message": m["message"], "verdict": "context", "topic": "",
                                "quote": "", "state": None, "rewrite": ""}
        if found and states and "instead" in m["text"]:
            args.update(verdict="revise", topic="design review", quote=found.group(0),
                        state=states[0]["state"])
        elif found:
            args.update(verdict="establish", topic="design review", quote=found.group(0))
        items.append(args)
    return tool_calls([(PROPOSE_TOOL, {"proposals": items})]) if items else text("done")


def _chat(path: Path, lines: list[tuple[str, str]]) -> Path:
    with path.open("w") as fh:
        for i, (user, body) in enumerate(lines, start=1):
            fh.write(json.dumps({
                "type": "message", "platform": "slack", "space": "T1", "channel": "C1",
                "id": str(i), "user": f"U{user}", "user_name": user,
                "ts": f"2024-11-04T09:{i:02d}:00Z", "text": body}) + "\n")
    return path


def test_ingest_with_llm_writer_and_an_endpoint_that_goes_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    monkeypatch.setenv("EGMEM_LLM_MODEL", "scripted")
    monkeypatch.setenv("EGMEM_LLM_API_KEY", "test-key")
    first = _chat(tmp_path / "a.jsonl", [("Ann", "the design review is at 3 pm"),
                                         ("Bob", "hi all")])
    second = _chat(tmp_path / "b.jsonl", [("Ann", "the design review is at 3 pm"),
                                          ("Bob", "hi all"),
                                          ("Cy", "let's do the design review at 4 pm instead")])
    with ScriptedOpenAIServer(policy=model) as server:
        monkeypatch.setenv("EGMEM_LLM_BASE_URL", server.base_url)
        assert main(["ingest", str(first), "--data", str(data), "--writer", "llm", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["committed"] == 2
        assert len(server.chat_requests()) == 1, "one batched call; the greeting is gated"
        assert report["writer"]["model_share"] == 1.0 and report["writer"]["path"] == "tools"
        url = server.base_url
        server.stop()
        code = main(["ingest", str(second), "--data", str(data), "--writer", "llm", "--json"])
        out, err = capsys.readouterr()
        assert code == 75, "never a silent success with messages left queued"
        down = json.loads(out)
        assert down["committed"] == 0 and down["queued"] == 1
        assert "stay queued" in err
        server.start()
        assert server.base_url == url
        main(["ingest", str(second), "--data", str(data), "--writer", "llm", "--json"])
        again = json.loads(capsys.readouterr().out)
        assert again["new"] == 0 and again["committed"] == 1 and again["queued"] == 0
    main(["history", "design review", "--data", str(data), "--json"])
    states = json.loads(capsys.readouterr().out)
    assert [h["value"] for h in states[0]["history"]] == ["3 pm", "4 pm"]
    main(["stats", "--data", str(data), "--json"])
    stats = json.loads(capsys.readouterr().out)
    assert stats["evidence_nodes"] == 3 and stats["chains_with_revisions"] == 1
