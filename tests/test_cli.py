"""The CLI contract: ingest/ask/history/stats JSON shapes, idempotency, bad lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main, parser
from bot.demo import sample_paths
from memory.errors import ConfigError


@pytest.fixture()
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    monkeypatch.delenv("EGMEM_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("EGMEM_LLM_API_KEY", raising=False)
    return tmp_path / "data"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ingest_is_idempotent_and_reports_counts(data: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    chat, _ = sample_paths()
    code, out, _ = run(capsys, "ingest", str(chat), "--data", str(data), "--json")
    first = json.loads(out)
    assert code == 0 and first["errors"] == 0 and first["committed"] > 100
    code, out, _ = run(capsys, "ingest", str(chat), "--data", str(data), "--json")
    again = json.loads(out)
    assert again["new"] == 0 and again["committed"] == 0
    code, out, _ = run(capsys, "stats", "--data", str(data), "--json")
    stats = json.loads(out)
    # The sample deletes one of its messages: the delete buries it on arrival, so the
    # message is never committed and nothing has to be removed afterwards.
    assert stats["evidence_nodes"] == first["committed"] and first["deletes"] == 1
    assert stats["chains_with_revisions"] >= 5
    assert stats["deleted_messages"] == 1
    assert {"messages", "evidence_nodes", "states", "chains_with_revisions",
            "deleted_messages"} <= set(stats)


def test_ask_json_contract_and_current_value(data: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    chat, _ = sample_paths()
    run(capsys, "ingest", str(chat), "--data", str(data))
    code, out, _ = run(capsys, "ask", "When is the Atlas design review?", "--data", str(data),
                       "--channel", "C02DESIGN", "--as-user", "U06FARID", "--json")
    assert code == 0
    ans = json.loads(out)
    assert set(ans) >= {"answer", "abstained", "citations", "states", "rounds"}
    assert isinstance(ans["answer"], str) and isinstance(ans["abstained"], bool)
    assert isinstance(ans["rounds"], int)
    for c in ans["citations"]:
        assert set(c) >= {"node_id", "message_id", "channel", "speaker", "ts", "quote"}
    for s in ans["states"]:
        assert set(s) >= {"state_id", "topic", "value", "active_message_id", "history"}
        for h in s["history"]:
            assert set(h) >= {"message_id", "value", "speaker", "ts"}
    review = [s for s in ans["states"] if "Friday 10am" in s["value"]]
    assert review, ans["states"]
    assert [h["value"] for h in review[0]["history"]][-1] == "Friday 10am"
    assert len(review[0]["history"]) == 3


def test_history_json_lists_every_revision(data: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    chat, _ = sample_paths()
    run(capsys, "ingest", str(chat), "--data", str(data))
    code, out, _ = run(capsys, "history", "AWS budget alert", "--data", str(data), "--json")
    states = json.loads(out)
    budget = next(s for s in states if s["value"] == "$9,500")
    assert [h["value"] for h in budget["history"]] == ["$8,000", "$9,500"]
    assert budget["history"][0]["speaker"] == "Dev"
    assert all(h["message_id"] and h["ts"] for h in budget["history"])


def test_bad_lines_are_reported_with_line_numbers_and_skipped(
    data: Path, tmp_path: Path, capsys  # type: ignore[no-untyped-def]
) -> None:
    good = {"type": "message", "platform": "slack", "space": "T1", "channel": "C1",
            "user": "U1", "user_name": "Ann", "ts": "2024-11-04T09:00:00Z"}
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([
        json.dumps({**good, "id": "1", "text": "deploy freeze starts Friday"}),
        "{not json",
        json.dumps({**good, "id": "2"}),  # no text
        json.dumps({**good, "id": "3", "text": "standup moved to 9:30"}),
    ]) + "\n")
    code, out, err = run(capsys, "ingest", str(path), "--data", str(data), "--json")
    report = json.loads(out)
    assert report["errors"] == 2 and report["committed"] == 2
    assert f"{path}:2:" in err and f"{path}:3:" in err


def test_retention_rules_forget_per_channel(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from bot.app import build
    from bot.scheduler import enforce_retention
    from bot.settings import Settings, parse_retention
    from memory.models import Message

    assert parse_retention("T1=90, T1/C2=1") == (("T1", None, 90), ("T1", "C2", 1))
    with pytest.raises(Exception, match="SPACE=DAYS"):
        parse_retention("T1:90")
    eg = build(Settings(data=str(tmp_path), embedder="hashing",
                        retention_rules=parse_retention("T1/C2=10")))
    try:
        old = datetime(2024, 1, 1, tzinfo=UTC)
        eg.submit([
            Message(platform="slack", space="T1", channel=ch, id=f"{ch}-1", user="U1",
                    ts=old, text=f"old note in {ch} about the deploy window")
            for ch in ("C1", "C2")
        ])
        eg.drain()
        rules = Settings(retention_rules=parse_retention("T1/C2=10"))
        assert enforce_retention(eg, rules, now=datetime(2024, 3, 1, tzinfo=UTC)) == 1
        left = {r["channel"] for r in eg.store.inspection().node_rows(["channel"])}
        assert left == {"C1"}
    finally:
        eg.close()


def test_data_embedded_by_one_embedder_refuses_another(  # type: ignore[no-untyped-def]
        data: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """Vectors of different embedders share a width but not a space: mixing them would
    rank by noise, so the data directory names its embedder and refuses others."""
    chat, _ = sample_paths()
    code, _, _ = run(capsys, "ingest", str(chat), "--data", str(data), "--json")
    assert code == 0
    monkeypatch.setenv("EGMEM_EMBEDDER", "minilm")
    code, out, err = run(capsys, "ask", "when is the design review?", "--data", str(data))
    assert code != 0 and not out
    assert "embedded with hashing" in err and "minilm-l6-v2-int8" in err
    assert "Traceback" not in err
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    code, _, _ = run(capsys, "ask", "when is the design review?", "--data", str(data))
    assert code == 0


@pytest.mark.parametrize(("argv", "port"), [
    (["serve", "web", "--port", "3000"], 3000),  # the flag is honoured, even at 3000
    (["serve", "web"], 8080),
    (["serve", "slack", "--http"], 3000),
    (["serve", "slack", "--http", "--port", "8080"], 8080),
    (["serve", "discord"], None),
])
def test_serve_listens_on_the_port_asked_for(argv: list[str], port: int | None) -> None:
    from bot.serve import listen_port

    assert listen_port(parser().parse_args(argv)) == port


def test_serve_refuses_a_port_for_a_front_end_that_listens_on_none() -> None:
    from bot.serve import listen_port

    with pytest.raises(ConfigError, match="listens on no port"):
        listen_port(parser().parse_args(["serve", "discord", "--port", "3000"]))
