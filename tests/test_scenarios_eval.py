"""`egmem eval scenarios`: a workspace goes through the real write/read paths and is judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.scenarios import run_scenarios
from egmem_eval.scenarios import ScenarioQuestion, judge, load_workspace
from memory.embeddings import HashingEmbedder
from memory.errors import InputError
from memory.models import Answer

TINY = Path(__file__).parent / "fixtures" / "scenarios" / "tiny.jsonl"


def _q(kind: str, expect: tuple[str, ...] = (), forbid: tuple[str, ...] = ()) -> ScenarioQuestion:
    return ScenarioQuestion(id="q", asker="U", channel="C", text="?", kind=kind, expect=expect,
                            forbid=forbid)


def test_judge_reads_only_the_first_line_and_alternatives() -> None:
    ans = Answer(answer="Planning review: 4pm (was 3 pm)\n  chain: 3 pm")
    assert judge(_q("current", ("4 pm|4pm",)), ans) == (True, "")
    assert judge(_q("current", ("4 pm|4pm",), ("3 pm",)), ans)[0] is False
    assert judge(_q("current", ("orion",)), ans) == (False, "missing 'orion'")
    assert judge(_q("current", ("4pm",)), Answer(answer="x", abstained=True)) == (
        False, "abstained")
    assert judge(_q("unanswerable"), ans) == (False, "answered instead of abstaining")
    assert judge(_q("not_permitted"), Answer(answer="no", abstained=True)) == (True, "")


def test_load_workspace_splits_questions_from_records(tmp_path: Path) -> None:
    ws = load_workspace(TINY)
    assert (ws.platform, ws.space) == ("slack", "T1")
    assert len(ws.records) == 6 and [q.id for q in ws.questions] == ["q1", "q2", "q3", "q4"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "question", "id": "x", "kind": "sometime"}\n')
    with pytest.raises(InputError, match="bad.jsonl:1: unknown question kind"):
        load_workspace(bad)


def test_run_scenarios_scores_every_question(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    result = run_scenarios(TINY, embedder=HashingEmbedder(dim=384), trace=trace)
    assert result["workspaces"] == ["tiny"] and result["messages"] == 4
    summary = result["summary"]
    assert summary["questions"] == 4
    rows = [json.loads(line) for line in trace.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["q1", "q2", "q3", "q4"]
    by_id = {r["id"]: r for r in rows}
    # The private budget never reaches a non-member, whatever else the reader does.
    assert "40k" not in by_id["q3"]["answer"]
    assert by_id["q2"]["passed"], by_id["q2"]
    assert summary["per_kind"]["current"]["n"] == 2
