"""`egmem check-llm` against the scripted server in each endpoint mode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.support.fake_openai import MODES, EndpointMode, Reply, ScriptedOpenAIServer, text
from tests.support.fake_openai import tool_calls as calls


def probe_model(body: dict[str, Any]) -> Reply:
    """Answers the probe's requests as a capable model would."""
    ask = str(body["messages"][-1]["content"])
    if body.get("tools") and "record tool twice" in ask:
        return calls([("record", {"value": "a"}), ("record", {"value": "b"})])
    if body.get("tools") and "record tool" in ask:
        return calls([("record", {"value": "ok"})])
    if "JSON object" in ask:
        return text('{"ok": true}')
    return text("ok")


def check(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
          srv: ScriptedOpenAIServer, *extra: str) -> tuple[int, str]:
    monkeypatch.setenv("EGMEM_LLM_BASE_URL", srv.base_url)
    monkeypatch.setenv("EGMEM_LLM_MODEL", "scripted")
    code = main(["check-llm", "--data", str(tmp_path / "data"), *extra])
    return code, capsys.readouterr().out


@pytest.mark.parametrize(("mode", "path", "tools", "parallel", "fits"), [
    ("ideal", "tools", True, True, True),
    ("no-tools", "json", False, None, True),
    ("one-call", "tools", True, False, True),
    ("calls-in-content", "tools", True, True, True),
    ("small-context", "tools", True, True, False),
])
def test_check_llm_says_which_path(mode: str, path: str, tools: bool, parallel: bool | None,
                                   fits: bool, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with ScriptedOpenAIServer(policy=probe_model, mode=MODES[mode]) as srv:
        code, out = check(tmp_path, capsys, monkeypatch, srv, "--json")
    report = json.loads(out)
    assert code == 0 and report["reachable"]
    assert (report["path"], report["tools"], report["parallel_calls"]) == (path, tools,
                                                                           parallel)
    assert report["batch_fits"] is fits
    if mode == "calls-in-content":
        assert report["calls_in_content"]
    if mode == "small-context":
        assert report["context_tokens"] == MODES[mode].context_tokens
        assert 1 <= report["max_call_messages"] < 8
    # What was learned is kept for the next run (ingest starts on the right path).
    saved = json.loads((tmp_path / "data" / "llm_endpoint.json").read_text())
    (profile,) = saved.values()
    assert profile["path"] == path


def test_check_llm_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    with ScriptedOpenAIServer(policy=probe_model, mode=MODES["no-tools"]) as srv:
        code, out = check(tmp_path, capsys, monkeypatch, srv)
    assert code == 0
    assert "tool calls: no" in out and "JSON mode: yes" in out
    assert "writer path: JSON replies" in out
    assert "does not accept tools" in out


def test_check_llm_on_a_dead_endpoint_redacts_the_url(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    srv = ScriptedOpenAIServer().start()
    url = srv.base_url.replace("http://", "http://ops:topsecret@")
    srv.stop()
    monkeypatch.setenv("EGMEM_LLM_BASE_URL", url)
    monkeypatch.setenv("EGMEM_LLM_TIMEOUT", "2")
    code = main(["check-llm", "--data", str(tmp_path / "data")])
    out = capsys.readouterr().out
    assert code == 2 and "not usable" in out and "Cannot reach" in out
    assert "topsecret" not in out and "***@127.0.0.1" in out


def test_check_llm_without_json_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    mode = EndpointMode(tools=False, json_mode=False)
    with ScriptedOpenAIServer(policy=probe_model, mode=mode) as srv:
        code, out = check(tmp_path, capsys, monkeypatch, srv, "--json")
    report = json.loads(out)
    assert code == 0 and report["json_mode"] is False and report["path"] == "json"
