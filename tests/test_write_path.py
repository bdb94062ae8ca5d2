"""Propose → verify → commit on real LanceDB/Tantivy: chains, distractors, downgrades."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.models import Outcome, Proposal, Verdict
from memory.registry import chain_of
from tests.support.memory import msg, open_memory, review_thread


def _by_msg(store, space="T1"):  # type: ignore[no-untyped-def]
    from memory.models import Scope

    return {n.message_id: n for n in store.find_nodes(Scope(space=space))}


def test_time_revised_twice_is_one_chain_of_three(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    nodes = _by_msg(store)
    state = nodes["1"].state_id
    assert state is not None
    chain = chain_of(store.state_nodes([state]))
    assert [n.message_id for n in chain] == ["1", "3", "6"]
    assert [n.value for n in chain] == ["Thursday at 3 pm", "4 pm", "Friday 10am"]
    assert nodes["3"].supersedes == nodes["1"].node_id
    assert nodes["6"].supersedes == nodes["3"].node_id
    rec = writer.registry.get(("slack", "T1", "C1"), state)
    assert rec is not None and rec.active_node_id == nodes["6"].node_id
    assert rec.value == "Friday 10am" and rec.revision_count == 2


def test_topic_sharing_reminder_is_a_separate_chain(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    nodes = _by_msg(store)
    assert nodes["2"].state_id != nodes["1"].state_id
    assert nodes["2"].verdict in (Verdict.ESTABLISH, Verdict.CONTEXT)
    assert nodes["2"].supersedes is None


def test_short_agreement_is_resolved_in_its_rewrite(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    plus_one = _by_msg(store)["4"]
    assert "4 pm" in plus_one.rewrite
    assert plus_one.verdict is Verdict.RESTATE
    assert plus_one.supersedes is None


def test_noise_is_context(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    assert _by_msg(store)["5"].verdict is Verdict.CONTEXT


def test_revision_never_crosses_channels(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write([msg(1, "Alice", "Atlas design review is Thursday at 3 pm", channel="C1")])
    writer.write([msg(2, "Bob", "Atlas design review moved to 4 pm instead", channel="C2")])
    nodes = _by_msg(store)
    assert nodes["2"].verdict is Verdict.ESTABLISH
    assert nodes["2"].state_id != nodes["1"].state_id


class _Scripted:
    """A proposer that returns fixed proposals (stands in for a model's output)."""

    batch_size = 1
    name = "scripted"

    def __init__(self, proposals: dict[str, Proposal]) -> None:
        self.proposals = proposals

    def propose(self, items, registry):  # type: ignore[no-untyped-def]
        return [self.proposals.get(i.message.id, Proposal(message_id=i.message.id))
                for i in items]


def test_ungrounded_quote_and_dangling_prior_are_downgraded(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write([msg(1, "Alice", "Atlas design review is Thursday at 3 pm")])
    state = _by_msg(store)["1"].state_id
    writer.proposer = _Scripted({
        "2": Proposal(message_id="2", topic="atlas design review", verdict=Verdict.REVISE,
                      source_quote="5 pm", prior_state_id=state, proposer="scripted"),
        "3": Proposal(message_id="3", topic="atlas design review", verdict=Verdict.REVISE,
                      source_quote="4 pm", prior_state_id="s_does_not_exist",
                      proposer="scripted"),
    })
    writer.write([msg(2, "Mallory", "let's do 4 pm instead"),
                  msg(3, "Alice", "how about 4 pm for the design review")])
    nodes = _by_msg(store)
    assert nodes["2"].verdict is Verdict.CONTEXT
    assert nodes["2"].verification is not None
    assert nodes["2"].verification.outcome is Outcome.DOWNGRADED
    assert any("not grounded" in r for r in nodes["2"].verification.reasons)
    assert nodes["3"].verdict is Verdict.ESTABLISH
    assert any("does not exist" in r for r in nodes["3"].verification.reasons)
    rec = writer.registry.get(("slack", "T1", "C1"), state)  # type: ignore[arg-type]
    assert rec is not None and rec.value == "Thursday at 3 pm"


def test_reopen_gives_back_the_same_memory(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    before = {k: (n.verdict, n.state_id, n.value, n.rewrite) for k, n in _by_msg(store).items()}
    states_before = sorted(r["state_id"] for r in store.states.listed())
    store.close()
    store2, writer2 = open_memory(tmp_path)
    after = {k: (n.verdict, n.state_id, n.value, n.rewrite) for k, n in _by_msg(store2).items()}
    assert after == before
    assert sorted(r["state_id"] for r in store2.states.listed()) == states_before
    assert store2.lexical.count() == len(before)
    # The registry works after a restart: a revision still finds its prior state.
    writer2.write([msg(9, "Alice", "the design review moved to 2 pm instead")])
    assert _by_msg(store2)["9"].verdict is Verdict.REVISE


def test_rewriting_the_same_messages_adds_nothing(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    n = store.count_nodes()
    report = writer.write(review_thread())
    assert report.committed == 0 and report.skipped == len(review_thread())
    assert store.count_nodes() == n


def test_states_rederived_after_interrupted_commit(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write(review_thread()[:1])
    # A crash after the nodes were written but before the registry flush.
    def crash() -> None:
        raise KeyboardInterrupt

    writer.registry.flush = crash  # type: ignore[method-assign]
    with pytest.raises(KeyboardInterrupt):
        writer.write([msg(3, "Alice", "Atlas design review moved to 4 pm instead")])
    store.close()
    store2, writer2 = open_memory(tmp_path)
    rows = store2.states.listed()
    assert [r["value"] for r in rows] == ["4 pm"]



def test_rows_from_before_search_cards_are_read_and_filled(tmp_path: Path) -> None:
    """A data directory written before nodes carried a search card still answers searches
    (read column by column), and maintenance gives every row its card."""
    from memory.models import Scope
    from memory.store import open_store

    store, writer = open_memory(tmp_path)
    writer.write(review_thread())
    scope = Scope(platform="slack", space="T1")
    ids = sorted(n.node_id for n in _by_msg(store).values())
    with_cards, vectors = store.search_nodes(ids, scope)
    store.inspection().drop_node_columns(["card"])
    store.close()

    store = open_store(uri=str(tmp_path / "lance"), lexical_dir=tmp_path / "lexical",
                       dim=store.dim)
    assert store.inspection().node_ids_lacking("card") == ids
    old, old_vectors = store.search_nodes(ids, scope)
    assert old == with_cards and len(old) == len(ids)
    assert {k: v.tolist() for k, v in old_vectors.items()} == {
        k: v.tolist() for k, v in vectors.items()}
    assert store.fill_cards(batch=2) == len(ids)
    assert store.inspection().node_ids_lacking("card") == []
    assert store.search_nodes(ids, scope)[0] == with_cards
    assert store.fill_cards() == 0
