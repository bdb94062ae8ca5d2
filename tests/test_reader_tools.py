"""Reader tools: lookup_phrase, read_current_state, resolve_date and the per-question session."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from memory.dates import resolve_date as dates_resolve_date
from memory.models import Scope, Verdict
from memory.reader import tools as tools_module
from memory.reader.answer import describe_state
from memory.reader.search import ABLATE_VERSIONED_STATE
from memory.reader.tools import (
    ReaderTools,
    lookup_phrase,
    offline_tools,
    read_current_state,
    resolve_date,
)
from tests.support.reader_memory import (
    EVERYTHING,
    PRIVATE_PHRASE,
    PUBLIC,
    Memory,
    build,
)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Memory:
    return build(tmp_path_factory.mktemp("tools"))


def test_lookup_phrase_is_literal_and_case_insensitive(mem: Memory) -> None:
    found = lookup_phrase(mem.store, "4 PM  instead", scope=PUBLIC)
    # Carol's "+1" matches through its rewrite, which quotes what it replies to.
    assert [n.message_id for n in found] == ["C1.3", "C1.4"]
    assert lookup_phrase(mem.store, "columnar AGGREGATIONS", scope=PUBLIC)[0].message_id == "C1.11"
    # Literal: a paraphrase with the same meaning finds nothing.
    assert lookup_phrase(mem.store, "four in the afternoon instead", scope=PUBLIC) == []
    # Every message quoting "design review" (source text or rewrite), oldest first.
    hits = lookup_phrase(mem.store, "design review", scope=PUBLIC)
    assert [n.ts for n in hits] == sorted(n.ts for n in hits)
    assert "C1.1" in {n.message_id for n in hits}


def test_lookup_phrase_respects_scope(mem: Memory) -> None:
    assert [n.channel for n in lookup_phrase(mem.store, PRIVATE_PHRASE, scope=EVERYTHING)] == ["C2"]
    assert lookup_phrase(mem.store, PRIVATE_PHRASE, scope=PUBLIC) == []


def test_read_current_state_gives_current_value_with_history(mem: Memory) -> None:
    states = read_current_state(mem.store, mem.embedder, query="atlas design review time",
                                scope=PUBLIC)
    review = next(s for s in states if s.topic == "atlas design review")
    assert review.value == "Friday 10am"
    assert [e.value for e in review.chain] == ["Thursday at 3 pm", "4 pm", "Friday 10am"]
    assert [e.verdict for e in review.chain] == [Verdict.ESTABLISH, Verdict.REVISE,
                                                 Verdict.REVISE]
    assert review.active_node_id == mem.node("C1.8")
    assert review.chain[0].speaker == "Alice"
    assert review.chain[1].quote == "let's do 4 pm instead"
    assert review.revision_count == 2
    # "Friday" said on Monday 4 Nov meant 8 Nov; history newest first.
    assert describe_state(review) == ("Friday 10am (8 November 2024; was 4 pm, Thursday at "
                                      "3 pm, revised by Alice on Nov 4)")


def test_reminder_sharing_a_topic_opens_no_state_and_joins_no_chain(mem: Memory) -> None:
    """"reminder: bring the review checklist" shares the review's topic; a reminder opens no
    state, and it is never part of the review's chain."""
    states = read_current_state(mem.store, mem.embedder, query="atlas review checklist",
                                scope=PUBLIC, k=5)
    by_topic = {s.topic: s for s in states}
    assert "atlas design review" in by_topic
    assert not any("checklist" in topic for topic in by_topic)
    assert mem.node("C1.2") not in {e.node_id for s in states for e in s.chain}


def test_read_current_state_respects_scope(mem: Memory) -> None:
    query = f"{PRIVATE_PHRASE} review"
    everywhere = read_current_state(mem.store, mem.embedder, query=query, scope=EVERYTHING, k=5)
    assert "C2" in {s.channel for s in everywhere}
    public = read_current_state(mem.store, mem.embedder, query=query, scope=PUBLIC, k=5)
    assert all(s.channel == "C1" for s in public)
    assert all(e.node_id != mem.node("C2.1", channel="C2") for s in public for e in s.chain)
    # A thread scope only sees chain entries inside the thread.
    thread = Scope(platform="slack", space="T1", channels=("C1",), thread_id="C1.1")
    for s in read_current_state(mem.store, mem.embedder, query="atlas design review",
                                scope=thread, k=5):
        assert all(e.node_id != mem.node("C1.1") for e in s.chain)


def test_ungrounded_revision_is_not_authoritative(tmp_path: Path) -> None:
    mem = build(tmp_path)
    node = mem.store.get_nodes([mem.node("C1.9")])[0]  # "actually we're calling it 2.4"
    assert node.verdict is Verdict.REVISE
    # A weak link: its value no longer appears in its own message.
    mem.store.rewrite_nodes([node.model_copy(update={"value": "3.0"})])
    states = read_current_state(mem.store, mem.embedder, query="release version", scope=PUBLIC)
    release = next(s for s in states if s.topic == "release version")
    assert release.value == "2.3"
    assert [e.value for e in release.chain] == ["2.3"]


def test_resolve_date_is_the_dates_module_function() -> None:
    assert resolve_date is dates_resolve_date
    assert "resolve_date" in tools_module.__all__
    res = resolve_date("last Tuesday", date(2024, 11, 8))
    assert res is not None and res.iso() == "2024-11-05"


def test_session_suppresses_repeats_and_logs_observations(mem: Memory) -> None:
    session = offline_tools(mem.store, mem.embedder).session(
        PUBLIC, reference=datetime(2024, 11, 8, tzinfo=UTC))
    session.round = 1
    first = session.search_evidence("atlas review time", k=3)
    session.round = 2
    second = session.search_evidence("atlas review time", k=3)
    assert len(first) == 3 and second
    assert not {n.node_id for n in first} & {n.node_id for n in second}
    res = session.resolve_date("yesterday")
    assert res is not None and res.iso() == "2024-11-07"
    states = session.read_current_state("release version", k=1)
    assert states and states[0].value == "2.4"
    tools = [o.tool for o in session.observations]
    assert tools == ["search_evidence", "search_evidence", "resolve_date", "read_current_state"]
    assert session.observations[1].round == 2
    assert session.observations[0].node_ids == [n for n in session.gathered[:3]]
    assert session.observations[2].note == "2024-11-07"
    # Every node shown, once, in the order it was first shown; chain nodes included.
    assert len(session.gathered) == len(set(session.gathered))
    assert mem.node("C1.9") in session.gathered
    assert all(session.observed(n) for n in session.gathered)


def test_session_scope_can_only_narrow(mem: Memory) -> None:
    session = offline_tools(mem.store, mem.embedder).session(PUBLIC)
    assert session.narrowed(["C2"]) is None
    assert session.search_evidence(PRIVATE_PHRASE, channels=["C2"]) == []
    assert session.lookup_phrase(PRIVATE_PHRASE, channels=["C2"]) == []
    assert session.lookup_phrase(PRIVATE_PHRASE) == []
    assert session.read_current_state(PRIVATE_PHRASE, channels=["C2"]) == []
    assert not session.observed(mem.node("C2.1", channel="C2"))
    assert session.narrowed(["C1", "C2"]) == PUBLIC


def test_versioned_state_ablation_hides_chain_views(mem: Memory) -> None:
    session = ReaderTools(store=mem.store, embedder=mem.embedder,
                          search=offline_tools(mem.store, mem.embedder).search,
                          ablate=frozenset({ABLATE_VERSIONED_STATE})).session(PUBLIC)
    assert session.read_current_state("atlas design review") == []
    assert session.search_evidence("atlas design review")  # evidence itself stays readable
