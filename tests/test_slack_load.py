"""The Slack endpoint under load: signed events at a paced rate, with Slack's retries and
duplicate deliveries, while ``/recall`` queries run — every distinct message must be
committed exactly once and every query answered (``benchmarks/load_slack.py``).

Behaviour only: no assertion here depends on how fast this machine is. The full run
(3000 events, MiniLM) is marked slow; ``make bench`` style runs use the script itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.load_slack import (
    END_MARK,
    START_MARK,
    LoadConfig,
    LoadResult,
    exactly_once,
    plan_for,
    run_load,
    write_section,
)


def _assert_exactly_once_and_answered(result: LoadResult) -> None:
    assert result.problems() == []
    assert result.unacked == 0 and result.acked == result.deliveries
    assert result.nodes == result.distinct
    assert (result.duplicate_nodes, result.missing, result.unexpected) == (0, 0, 0)
    assert result.inbox_messages == result.distinct
    assert (result.inbox_pending, result.inbox_dead) == (0, 0)
    assert result.answered == result.queries


def test_every_event_commits_once_and_every_query_is_answered(tmp_path: Path) -> None:
    config = LoadConfig(events=300, rate=150.0, clients=4, queries=10, query_interval_s=0.2,
                        embedder="hashing", retry_fraction=0.05, duplicate_fraction=0.05)
    result = run_load(config, data_dir=tmp_path / "data")
    # the run really redelivered: retries and duplicates reached the endpoint and were acked
    assert result.retries > 0 and result.duplicates > 0
    assert result.deliveries == 300 + result.retries + result.duplicates
    assert result.queries == 10
    _assert_exactly_once_and_answered(result)


def test_corpus_is_deterministic_and_redelivers_the_same_message() -> None:
    config = LoadConfig(events=400, embedder="hashing")
    a, b = plan_for(config), plan_for(config)
    assert a == b
    assert len(set(a.keys)) == 400
    firsts = {d.event: d.body for d in a.deliveries if d.kind == "first"}
    retries = [d for d in a.deliveries if d.kind == "retry"]
    dups = [d for d in a.deliveries if d.kind == "duplicate"]
    assert retries and dups
    # a retry is the same envelope again; a duplicate is the same message, another event id
    assert all(d.body == firsts[d.event] and d.retry_num in (1, 2) for d in retries)
    assert all(d.body != firsts[d.event] and d.retry_num is None for d in dups)
    # every redelivery comes after its first delivery
    position = {(d.event, d.kind, d.retry_num): i for i, d in enumerate(a.deliveries)}
    assert all(position[(d.event, d.kind, d.retry_num)] > position[(d.event, "first", None)]
               for d in retries + dups)


def test_exactly_once_check_catches_duplicates_gaps_and_strays() -> None:
    sent = [("C1", "1.1"), ("C1", "1.2"), ("C2", "1.1")]
    assert exactly_once(sent, list(sent)) == (0, 0, 0)
    assert exactly_once(sent, [*sent, ("C1", "1.2")]) == (1, 0, 0)
    assert exactly_once(sent, sent[:2]) == (0, 1, 0)
    assert exactly_once(sent, [*sent, ("C9", "9.9")]) == (0, 0, 1)


def test_results_section_replaces_only_its_markers(tmp_path: Path) -> None:
    path = tmp_path / "RESULTS.md"
    write_section(path, "first")
    assert path.read_text().count(START_MARK) == 1
    path.write_text(path.read_text() + "\n## Other benchmark\nkeep me\n")
    write_section(path, "second")
    text = path.read_text()
    assert f"{START_MARK}\nsecond\n{END_MARK}" in text
    assert "first" not in text and "## Other benchmark\nkeep me" in text
    assert text.count(START_MARK) == text.count(END_MARK) == 1


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_full_load_run_with_minilm(tmp_path: Path) -> None:
    result = run_load(LoadConfig(), data_dir=tmp_path / "data")
    assert result.distinct == 3000
    _assert_exactly_once_and_answered(result)
