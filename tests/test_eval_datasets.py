"""Benchmark loaders and evaluation metrics (egmem_eval/datasets.py, metrics.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from egmem_eval.datasets import (
    LOCOMO_UNANSWERABLE,
    EvalDataset,
    load_dataset,
    parse_locomo_date,
)
from egmem_eval.metrics import Tally, normalize_answer, recall_at_k, token_f1
from memory.errors import InputError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "eval"
BENCH = Path(__file__).resolve().parents[1].parent / "shared" / "bench"


def _questions(ds: EvalDataset) -> dict[str, tuple[str, list[str], str, str]]:
    return {q.qid: (c.space, q.gold_ids, q.answer, q.category)
            for c in ds.conversations for q in c.questions}


# ------------------------------------------------------------------ LoCoMo


def test_locomo_fixture_counts_spaces_and_ids() -> None:
    ds = load_dataset("locomo", FIXTURES / "locomo_tiny.json")
    assert ds.name == "locomo"
    assert [c.space for c in ds.conversations] == ["conv-a", "conv-b"]
    assert (ds.message_count, ds.question_count) == (8, 7)
    a = ds.conversations[0]
    assert [m.id for m in a.messages] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2", "D2:3"]
    assert {m.platform for m in a.messages} == {"eval"}
    assert {m.space for m in a.messages} == {"conv-a"}
    assert {m.channel for m in a.messages} == {"conv"}
    assert [m.user for m in a.messages[:2]] == ["Ana", "Ben"]


def test_locomo_sessions_become_threads_with_increasing_timestamps() -> None:
    a = load_dataset("locomo", FIXTURES / "locomo_tiny.json").conversations[0]
    assert [m.thread_id for m in a.messages] == ["session_1"] * 3 + ["session_2"] * 3
    start1 = datetime(2024, 3, 3, 14, 5, tzinfo=UTC)
    start2 = datetime(2024, 3, 10, 9, 40, tzinfo=UTC)
    assert [m.ts for m in a.messages] == [
        start1, start1 + timedelta(seconds=30), start1 + timedelta(seconds=60),
        start2, start2 + timedelta(seconds=30), start2 + timedelta(seconds=60),
    ]


def test_locomo_image_turn_carries_its_caption() -> None:
    a = load_dataset("locomo", FIXTURES / "locomo_tiny.json").conversations[0]
    photo = next(m for m in a.messages if m.id == "D2:1")
    assert photo.text == "First bowl done! [shares a photo: a photo of a blue clay bowl on a table]"
    assert "shares a photo" not in next(m for m in a.messages if m.id == "D2:2").text


def test_locomo_questions_answers_and_categories() -> None:
    ds = load_dataset("locomo", FIXTURES / "locomo_tiny.json")
    qs = _questions(ds)
    assert qs["conv-a:q0"] == ("conv-a", ["D1:2"], "March 2024", "2")
    assert qs["conv-a:q4"] == ("conv-a", [], "2024", "3")  # int answer, no evidence
    adversarial = ds.conversations[0].questions[3]
    assert adversarial.category == "5"
    assert adversarial.answer == LOCOMO_UNANSWERABLE
    assert adversarial.adversarial_answer == "Lisbon"
    assert adversarial.gold_ids == ["D2:3"]


def test_locomo_malformed_evidence_is_split_or_skipped_and_counted() -> None:
    ds = load_dataset("locomo", FIXTURES / "locomo_tiny.json")
    qs = _questions(ds)
    assert qs["conv-a:q1"][1] == ["D1:3", "D2:1"]  # "D1:3; D2:1" split
    assert qs["conv-a:q2"][1] == ["D2:2"]  # "D" and the missing "D2:9" dropped
    assert qs["conv-a:q5"][1] == ["D1:1"]  # "D:1:1" dropped, duplicate collapsed
    assert ds.skipped_evidence == 3
    skipped = [n for n in ds.notes if "malformed" in n or "names no turn" in n]
    assert skipped == [
        "conv-a:q2: malformed evidence 'D'",
        "conv-a:q2: evidence 'D2:9' names no turn",
        "conv-a:q5: malformed evidence 'D:1:1'",
    ]
    assert any("split into 2 ids" in n for n in ds.notes)
    assert any("conv-a: 1 session date(s) without turns" in n for n in ds.notes)


def test_locomo_reference_date_is_the_end_of_the_last_session() -> None:
    ds = load_dataset("locomo", FIXTURES / "locomo_tiny.json")
    a, b = ds.conversations
    # The orphan session_3 date (20 March) has no turns and must not count.
    assert {q.reference_date for q in a.questions} == {
        datetime(2024, 3, 10, 9, 41, tzinfo=UTC)
    }
    assert all(m.ts <= a.questions[0].reference_date for m in a.messages)  # type: ignore[operator]
    assert b.questions[0].reference_date == datetime(2023, 12, 31, 23, 58, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9, tzinfo=UTC)),
        ("12:30 pm on 1 Jan, 2022", datetime(2022, 1, 1, 12, 30, tzinfo=UTC)),
    ],
)
def test_parse_locomo_date(text: str, expected: datetime) -> None:
    assert parse_locomo_date(text) == expected


def test_parse_locomo_date_rejects_other_forms() -> None:
    with pytest.raises(ValueError):
        parse_locomo_date("2023-05-08 13:56")


def test_locomo_bad_session_date_is_an_input_error(tmp_path: Path) -> None:
    bad = [{"sample_id": "x", "qa": [], "conversation": {
        "session_1_date_time": "yesterday",
        "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"}]}}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(InputError, match="session_1_date_time"):
        load_dataset("locomo", path)


# ------------------------------------------------------------------ FriendsQA


def test_friendsqa_fixture_scenes_messages_and_gold() -> None:
    ds = load_dataset("friendsqa", FIXTURES / "friendsqa_tiny.json")
    assert [c.space for c in ds.conversations] == ["s09_e01_c01", "s09_e01_c02"]
    assert (ds.message_count, ds.question_count) == (6, 3)
    scene = ds.conversations[0]
    assert [m.id for m in scene.messages] == ["0", "1", "2", "3"]
    assert scene.messages[2].user == "Anna Park, Bo Lee"
    assert {m.channel for m in scene.messages} == {"scene"}
    assert all(a.ts < b.ts for a, b in zip(scene.messages, scene.messages[1:], strict=False))
    qs = _questions(ds)
    # Distinct utterances, in answer order; the first answer's text is the answer.
    assert qs["s09_e01_c01_Who"] == ("s09_e01_c01", ["2", "3"], "Carl", "friendsqa")
    assert qs["s09_e01_c02_What"][1:3] == (["1"], "Lentils and lemon")


def test_friendsqa_out_of_range_utterance_is_skipped_and_counted() -> None:
    ds = load_dataset("friendsqa", FIXTURES / "friendsqa_tiny.json")
    assert _questions(ds)["s09_e01_c01_Where"][1] == ["1"]
    assert ds.skipped_evidence == 1
    assert ds.notes == ["s09_e01_c01_Where: utterance_id 7 names no utterance"]


def test_friendsqa_scenes_do_not_share_timestamps() -> None:
    ds = load_dataset("friendsqa", FIXTURES / "friendsqa_tiny.json")
    first, second = ds.conversations
    assert first.messages[-1].ts < second.messages[0].ts


# ------------------------------------------------------------------ QMSum


def test_qmsum_folder_meetings_turns_and_spans() -> None:
    ds = load_dataset("qmsum", FIXTURES / "qmsum")
    assert [c.space for c in ds.conversations] == ["meet_a", "meet_b"]
    assert (ds.message_count, ds.question_count) == (9, 5)
    a = ds.conversations[0]
    assert [m.id for m in a.messages] == [f"t{i}" for i in range(6)]
    assert a.messages[3].text == ""  # empty turns keep their place: spans count them
    assert a.messages[1].user == "Designer"
    by_id = {q.qid: q for q in a.questions}
    assert by_id["meet_a:specific0"].gold_ids == ["t0", "t1", "t2"]  # overlapping spans merged
    assert by_id["meet_a:specific0"].category == "specific"
    assert by_id["meet_a:specific1"].gold_ids == ["t4", "t5"]
    general = by_id["meet_a:general0"]
    assert (general.category, general.gold_ids) == ("general", [])
    assert general.answer.startswith("The team chose a round badge")


def test_qmsum_bad_spans_are_skipped_and_counted() -> None:
    ds = load_dataset("qmsum", FIXTURES / "qmsum")
    assert ds.skipped_evidence == 3
    assert len(ds.notes) == 3
    assert all(n.startswith("meet_a:specific1: ") for n in ds.notes)


def test_qmsum_single_file() -> None:
    ds = load_dataset("qmsum", FIXTURES / "qmsum" / "meet_b.json")
    assert [c.space for c in ds.conversations] == ["meet_b"]
    assert [q.gold_ids for q in ds.conversations[0].questions] == [["t1"], []]
    assert ds.skipped_evidence == 0


# ------------------------------------------------------------------ input errors


def test_missing_path_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_dataset("locomo", tmp_path / "absent.json")


def test_invalid_json_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"data": [\n  {"title": }\n]}')
    with pytest.raises(InputError) as info:
        load_dataset("friendsqa", path)
    assert info.value.source == str(path)
    assert info.value.line == 2


def test_wrong_shape_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "shape.json"
    path.write_text(json.dumps({"data": []}))
    with pytest.raises(InputError, match="JSON list"):
        load_dataset("locomo", path)
    with pytest.raises(InputError, match="meeting_transcripts"):
        load_dataset("qmsum", path)


def test_folder_with_one_file_is_accepted_for_locomo(tmp_path: Path) -> None:
    (tmp_path / "only.json").write_text((FIXTURES / "locomo_tiny.json").read_text())
    assert load_dataset("locomo", tmp_path).question_count == 7


# ------------------------------------------------------------------ metrics


def test_recall_counts_distinct_ids_within_k() -> None:
    assert recall_at_k(["a", "b", "c"], {"a", "c"}, 2) == 0.5
    assert recall_at_k(["a", "b", "c"], {"a", "c"}, 3) == 1.0
    # Repeats do not consume the budget: the 2nd distinct id is "c".
    assert recall_at_k(["a", "a", "a", "c"], ["a", "c"], 2) == 1.0
    assert recall_at_k([], ["a"], 5) == 0.0
    assert recall_at_k(["x"], ["a", "a", "b"], 10) == 0.0  # duplicate gold counted once
    assert recall_at_k(["b", "x"], ["a", "a", "b"], 10) == 0.5


def test_recall_rejects_undefined_inputs() -> None:
    with pytest.raises(ValueError):
        recall_at_k(["a"], [], 5)
    with pytest.raises(ValueError):
        recall_at_k(["a"], ["a"], 0)
    with pytest.raises(TypeError):
        recall_at_k("abc", ["a"], 2)


def test_token_f1_normalisation_and_edges() -> None:
    assert normalize_answer("The Cat, and a hat!") == "cat hat"
    assert token_f1("The cat.", "cat") == 1.0
    assert token_f1("cat hat", "cat") == pytest.approx(2 / 3)
    assert token_f1("dog", "cat") == 0.0
    assert token_f1("", "") == 1.0
    assert token_f1("the", "") == 1.0  # both normalise to nothing
    assert token_f1("", "cat") == 0.0
    assert token_f1("cat cat", "cat") == pytest.approx(2 / 3)  # counts, not sets


def test_tally_means_per_system_and_category() -> None:
    tally = Tally(ks=(1, 2))
    tally.add("bm25", category="1", ranked_ids=["a", "b"], gold=["b"],
              prediction="blue", reference="blue")
    tally.add("bm25", category="2", ranked_ids=["c"], gold=["z"],
              prediction="red", reference="blue")
    tally.add("bm25", category="general", ranked_ids=["q"], gold=[])  # no gold: no recall
    tally.add("dense", category="1", ranked_ids=["b"], gold=["b"])
    overall = tally.summary("bm25")
    assert overall["count"] == 3
    assert overall["recall_count"] == 2
    assert overall["recall@1"] == 0.0
    assert overall["recall@2"] == 0.5
    assert (overall["f1_count"], overall["f1"]) == (2, 0.5)
    assert tally.summary("bm25", "general")["recall@1"] is None
    assert tally.summary("dense")["f1"] is None
    assert tally.systems == ["bm25", "dense"]
    assert tally.categories() == ["1", "2", "general"]
    data = json.loads(tally.to_json())
    assert data["ks"] == [1, 2]
    assert data["systems"]["dense"]["categories"]["1"]["recall@1"] == 1.0
    assert list(data["systems"]["bm25"]["categories"]) == ["1", "2", "general"]


def test_tally_markdown_tables() -> None:
    tally = Tally()
    tally.add("bm25", category="4", ranked_ids=["a"], gold=["a"], prediction="x", reference="x")
    tally.add("a|b", category="4", ranked_ids=["z"], gold=["a"])
    lines = tally.to_markdown().splitlines()
    assert lines[0] == "| system | n | R@5 | R@10 | R@20 | F1 |"
    assert lines[2] == "| bm25 | 1 | 1.000 | 1.000 | 1.000 | 1.000 |"
    assert lines[3] == "| a\\|b | 1 | 0.000 | 0.000 | 0.000 | – |"
    assert lines[5] == "| category | system | n | R@5 | R@10 | R@20 | F1 |"
    assert lines[7:] == [
        "| 4 | bm25 | 1 | 1.000 | 1.000 | 1.000 | 1.000 |",
        "| 4 | a\\|b | 1 | 0.000 | 0.000 | 0.000 | – |",
    ]
    assert Tally().to_markdown() == "_no results_\n"


# ------------------------------------------------------------------ the shared benchmarks


@pytest.mark.skipif(not BENCH.is_dir(), reason="shared/bench is not present")
def test_real_benchmarks_load_with_published_totals() -> None:
    locomo = load_dataset("locomo", BENCH / "locomo" / "locomo_dev5.json")
    assert (len(locomo.conversations), locomo.message_count, locomo.question_count) == (
        5, 2760, 999)
    assert locomo.skipped_evidence == 3
    assert sum(q.category == "5" for c in locomo.conversations for q in c.questions) == 237
    for conv in locomo.conversations:
        ids = [m.id for m in conv.messages]
        assert len(ids) == len(set(ids))
        assert all(set(q.gold_ids) <= set(ids) for q in conv.questions)
        assert all(a.ts < b.ts for a, b in zip(conv.messages, conv.messages[1:], strict=False))

    friends = load_dataset("friendsqa", BENCH / "friendsqa" / "friendsqa_dev.json")
    assert (len(friends.conversations), friends.message_count, friends.question_count) == (
        136, 2847, 1182)
    assert friends.skipped_evidence == 0
    assert all(q.gold_ids for c in friends.conversations for q in c.questions)

    qmsum = load_dataset("qmsum", BENCH / "qmsum" / "val")
    assert len(qmsum.conversations) == 35
    assert qmsum.skipped_evidence == 0
    categories = [q.category for c in qmsum.conversations for q in c.questions]
    assert categories.count("general") == 35
    assert all(q.gold_ids for c in qmsum.conversations for q in c.questions
               if q.category == "specific")
