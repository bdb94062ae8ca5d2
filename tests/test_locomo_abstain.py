"""`egmem eval locomo-abstain`: own questions answered, foreign and name-swapped abstained."""

from __future__ import annotations

import json
from pathlib import Path

from egmem_eval.abstain import render_markdown, run_abstain, swap_names
from memory.embeddings import HashingEmbedder


def test_swap_names_replaces_whole_names_keeping_possessives() -> None:
    q = "What did Caroline tell Melanie about Caroline's adoption plans?"
    assert swap_names(q, ["Caroline", "Melanie"], ["Jon", "Gina"]) == (
        "What did Jon tell Gina about Jon's adoption plans?")
    assert swap_names("What did Carolinette do?", ["Caroline"], ["Jon"]) == (
        "What did Carolinette do?")


def _conv(sid: str, a: str, b: str, turns: list[tuple[str, str]],
          qa: list[dict[str, object]]) -> dict[str, object]:
    session = [{"speaker": who, "dia_id": f"D1:{i}", "text": text}
               for i, (who, text) in enumerate(turns, start=1)]
    return {"sample_id": sid, "qa": qa, "conversation": {
        "speaker_a": a, "speaker_b": b, "session_1": session,
        "session_1_date_time": "1:56 pm on 8 May, 2023"}}


def test_run_abstain_tabulates_the_conditions(tmp_path: Path) -> None:
    data = [
        _conv("c1", "Caroline", "Melanie", [
            ("Caroline", "I went to the pottery workshop yesterday, it was lovely"),
            ("Melanie", "Nice! I adopted a puppy named Biscuit last week"),
            ("Caroline", "I'm researching adoption agencies for my future family"),
        ], [
            {"question": "What did Caroline research?", "answer": "adoption agencies",
             "evidence": ["D1:3"], "category": 1},
            {"question": "What is the name of Melanie's puppy?", "answer": "Biscuit",
             "evidence": ["D1:2"], "category": 4},
            {"question": "What did Melanie research?", "adversarial_answer": "agencies",
             "evidence": ["D1:3"], "category": 5},
        ]),
        _conv("c2", "Jon", "Gina", [
            ("Jon", "My dance studio finally opened downtown"),
            ("Gina", "Congrats! I'm launching my clothing store online next month"),
        ], [
            {"question": "What did Jon open?", "answer": "a dance studio",
             "evidence": ["D1:1"], "category": 4},
        ]),
    ]
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    trace = tmp_path / "trace.jsonl"
    result = run_abstain(path, embedder=HashingEmbedder(), trace=trace)
    rows = result["conditions"]
    assert (rows["own"]["questions"], rows["foreign"]["questions"],
            rows["swapped"]["questions"], rows["adversarial"]["questions"]) == (3, 3, 3, 1)
    assert rows["own"]["abstained"] == 0.0          # answered in their own conversation
    assert rows["foreign"]["abstained"] == 1.0      # names nobody there knows
    lines = [json.loads(x) for x in trace.read_text().splitlines()]
    swapped = [x["question"] for x in lines if x["condition"] == "swapped"]
    assert "What did Jon research?" in swapped and "What did Caroline open?" in swapped
    table = render_markdown(result)
    assert "| own | 3 | 0.000 | answer | 1.000 |" in table
