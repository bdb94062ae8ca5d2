"""The store's contract: what every implementation of the ports in ``memory.store.ports``
must do, run against each implementation (today LanceDB + Tantivy; a second backend adds
itself to ``IMPLEMENTATIONS``). The tests speak only through the ports: nodes go in through
``put_nodes`` and come back through lookups by scope, window, ids and message keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.models import (
    Channel,
    EvidenceNode,
    Facet,
    MessageKey,
    Proposal,
    Scope,
    Verdict,
)
from memory.store import MemoryStore, Span, Window, open_store

DIM = 8
T0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)


def _lancedb(path: Path) -> MemoryStore:
    return open_store(uri=str(path / "lance"), lexical_dir=path / "lexical", dim=DIM)


IMPLEMENTATIONS: dict[str, Callable[[Path], Any]] = {"lancedb": _lancedb}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    s = IMPLEMENTATIONS[request.param](tmp_path)
    try:
        yield s
    finally:
        s.close()


def node(store: Any, i: int, text: str, *, channel: str = "C1", space: str = "T1",
         platform: str = "slack", speaker: str = "alice", minutes: int | None = None,
         **fields: Any) -> EvidenceNode:
    return EvidenceNode(
        node_id=f"n_{space}{channel}{i}", seq=store.next_seq(), platform=platform,
        space=space, channel=channel, channel_name=f"name-{channel}", message_id=str(i),
        speaker_id=f"U{speaker.upper()}", speaker=speaker,
        ts=T0 + timedelta(minutes=minutes if minutes is not None else i), text=text,
        **fields)


def vectors(nodes: list[EvidenceNode]) -> np.ndarray:
    out = np.zeros((len(nodes), DIM), dtype=np.float32)
    for row, n in enumerate(nodes):
        out[row, hash(n.node_id) % DIM] = 1.0
    return out


def put(store: Any, nodes: list[EvidenceNode]) -> list[EvidenceNode]:
    store.put_nodes(nodes, vectors(nodes))
    return nodes


@pytest.fixture
def chat(store: Any) -> list[EvidenceNode]:
    """Two channels of one space, a node of another space, a reply and a revision chain."""
    a = node(store, 1, "Atlas review is Thursday at 3 pm", state_id="s_T1C11",
             verdict=Verdict.ESTABLISH, value="Thursday at 3 pm", topic="atlas review")
    b = node(store, 2, "bring the checklist", speaker="bob", reply_to_node=a.node_id,
             thread_id="1")
    c = node(store, 3, "let's do 4 pm instead", state_id="s_T1C11", verdict=Verdict.REVISE,
             value="4 pm", supersedes=a.node_id, context_ids=[a.node_id])
    d = node(store, 4, "the deploy window is friday", channel="C2")
    e = node(store, 5, "secret plans of another team", space="T2")
    return put(store, [a, b, c, d, e])


# ---- nodes -------------------------------------------------------------------------------
def test_nodes_come_back_by_id_in_the_order_asked(store: Any, chat: list[EvidenceNode]
                                                  ) -> None:
    ids = [chat[2].node_id, chat[0].node_id, "n_missing"]
    assert [n.node_id for n in store.get_nodes(ids)] == ids[:2]
    assert store.existing_ids(ids) == set(ids[:2])
    assert set(store.node_vectors(ids)) == set(ids[:2])
    assert store.get_nodes([chat[4].node_id], Scope(space="T1")) == []


def test_a_put_replaces_a_node_and_a_delete_removes_it_everywhere(
        store: Any, chat: list[EvidenceNode]) -> None:
    store.rewrite_nodes([chat[1].model_copy(update={"text": "bring the agenda"})])
    assert store.get_nodes([chat[1].node_id])[0].text == "bring the agenda"
    assert store.count_nodes() == 5
    store.delete_nodes([chat[3].node_id])
    assert store.get_nodes([chat[3].node_id]) == []
    assert store.lexical_search("deploy window", Scope(space="T1"), k=5) == []
    assert chat[3].node_id not in {i for i, _ in store.vector_search(
        vectors([chat[3]])[0], Scope(space="T1"), k=10)}


def test_scope_and_window_narrow_every_lookup(store: Any, chat: list[EvidenceNode]) -> None:
    one = Scope(platform="slack", space="T1", channels=("C1",))
    assert [n.message_id for n in store.find_nodes(one)] == ["1", "2", "3"]
    late = Window(ts_from=T0 + timedelta(minutes=2), ts_to=T0 + timedelta(minutes=3))
    assert [n.message_id for n in store.find_nodes(one, late)] == ["2", "3"]
    assert [n.message_id for n in store.find_nodes(one, Window(speakers=("bob",)))] == ["2"]
    assert store.holds_evidence(Scope(space="T1", channels=("C2",)))
    assert not store.holds_evidence(Scope(space="T1", channels=("C9",)))
    assert store.distinct_channels(Scope(space="T1")) == [("slack", "T1", "C1"),
                                                          ("slack", "T1", "C2")]


def test_messages_are_found_by_key_speaker_and_name(store: Any,
                                                    chat: list[EvidenceNode]) -> None:
    found = store.find_message(channel="C1", message_id="2", platform="slack", space="T1")
    assert found is not None and found.node_id == chat[1].node_id
    assert store.message_node_ids("4", Scope(space="T1")) == [chat[3].node_id]
    assert store.message_node_ids("5", Scope(space="T1")) == []
    keys = store.message_keys(Scope(space="T1"), speaker_id="UBOB")
    assert keys == [(chat[1].node_id, MessageKey(platform="slack", space="T1", channel="C1",
                                                 message_id="2"))]
    old = store.message_keys(Scope(), Window(ts_to=T0 + timedelta(minutes=1)))
    assert [k.message_id for _, k in old] == ["1"]
    assert store.channel_named("name-c2", Scope(space="T1")) == "C2"
    assert store.channel_named("name-c2", Scope(space="T2")) is None


def test_structure_lookups_follow_replies_chains_and_borrowed_context(
        store: Any, chat: list[EvidenceNode]) -> None:
    a, b, c = chat[:3]
    scope = Scope(space="T1")
    assert {n.node_id for n in store.answers_to([a.node_id], scope)} == {b.node_id, c.node_id}
    assert set(store.dependants([a.node_id])) == {a.node_id, b.node_id, c.node_id}
    assert [n.node_id for n in store.state_nodes(["s_T1C11"])] == [a.node_id, c.node_id]
    assert {n.node_id for n in store.state_members(["s_T1C11"], scope)} == {a.node_id,
                                                                             c.node_id}
    assert store.state_members(["s_T1C11"], Scope(space="T2")) == []
    span = Span("slack", "T1", "C1", (T0 + timedelta(minutes=2)).timestamp(),
                (T0 + timedelta(minutes=3)).timestamp())
    assert {n.message_id for n in store.nodes_in_spans([span])} == {"2", "3"}
    marks = store.turn_marks(Scope(space="T1", channels=("C1",)))
    assert sorted(m[0] for m in marks) == sorted(n.node_id for n in chat[:3])
    neighbours, vecs = store.neighbours([a], scope)
    assert {n.node_id for n in neighbours} >= {b.node_id, c.node_id}
    assert set(vecs) == {n.node_id for n in neighbours}


def test_sequence_numbers_grow_and_name_what_came_after(store: Any) -> None:
    first = put(store, [node(store, 1, "a fact", state_id="s_1", verdict=Verdict.ESTABLISH,
                             value="fact")])[0]
    mark = store.max_seq()
    assert mark == first.seq
    facet = Facet(topic="place", source_quote="Luna", value_family="place")
    put(store, [node(store, 2, "at Luna", state_id="s_2", verdict=Verdict.ESTABLISH,
                     value="at", proposal=Proposal(message_id="2", facets=[facet]))])
    assert store.next_seq() > store.max_seq() > mark
    assert store.states_touched_after(mark) == ["s_2", "s_T1C12.1"]
    assert store.states_touched_after(store.max_seq()) == []


def test_buried_messages_stay_buried(store: Any) -> None:
    key = MessageKey(platform="slack", space="T1", channel="C1", message_id="9")
    other = MessageKey(platform="slack", space="T1", channel="C1", message_id="10")
    store.bury([key])
    assert store.buried([key, other]) == {key}
    # A delete that names no platform or space buries the same message.
    bare = MessageKey(platform="", space="", channel="C1", message_id="10")
    store.bury([bare])
    assert store.buried([other]) == {other}


# ---- search --------------------------------------------------------------------------------
def test_search_stays_inside_the_scope(store: Any, chat: list[EvidenceNode]) -> None:
    t1 = Scope(space="T1")
    hits = [i for i, _ in store.lexical_search("checklist", t1, k=5)]
    assert hits == [chat[1].node_id]
    assert store.lexical_search("secret plans", t1, k=5) == []
    assert [n.node_id for n in store.phrase_search("DEPLOY  window", t1, k=5)] == [
        chat[3].node_id]
    assert store.phrase_search("secret plans", t1, k=5) == []
    ranked = store.vector_search(vectors([chat[4]])[0], t1, k=10)
    assert chat[4].node_id not in {i for i, _ in ranked}
    ranking, nodes, vecs = store.vector_search_nodes(vectors([chat[0]])[0], t1, k=2)
    assert ranking[0][0] == chat[0].node_id and set(vecs) == {n.node_id for n in nodes}
    found, found_vecs = store.search_nodes([chat[4].node_id, chat[0].node_id], t1)
    assert [n.node_id for n in found] == [chat[0].node_id] and set(found_vecs) == {
        chat[0].node_id}
    assert store.speaker_words(["bob", "carol"], t1) == {"bob"}


# ---- states, meta, channels -------------------------------------------------------------------
def _state(sid: str, *, channel: str = "C1", space: str = "T1", revisions: int = 0,
           updated: float = 0.0) -> dict[str, Any]:
    return {"state_id": sid, "platform": "slack", "space": space, "channel": channel,
            "topic": "t", "description": "d", "value": "v", "value_family": "",
            "active_node_id": "n", "revision_count": revisions, "created_ts": 0.0,
            "updated_ts": updated, "vector": [0.0] * DIM}


def test_states_are_found_by_scope_id_channel_and_revision(store: Any) -> None:
    since = T0.timestamp()
    store.states.put([_state("s_a"), _state("s_b", channel="C2", revisions=1,
                                            updated=since + 60),
                      _state("s_c", space="T2")])
    ids = lambda rows: sorted(r["state_id"] for r in rows)  # noqa: E731
    assert ids(store.states.find(Scope(space="T1"))) == ["s_a", "s_b"]
    assert ids(store.states.find(Scope(space="T1", channels=("C2",)))) == ["s_b"]
    assert ids(store.states.find(Scope(space="T1"), state_ids=["s_a", "s_c"])) == ["s_a"]
    assert ids(store.states.find(Scope(space="T1"), revised_since=T0)) == ["s_b"]
    assert ids(store.states.in_channel(platform="slack", space="T1", channel="C1")) == ["s_a"]
    assert ids(store.states.listed()) == ["s_a", "s_b", "s_c"]
    assert ids(store.states.listed(space="T1", channel="C2")) == ["s_b"]
    assert store.states.get("s_c")["space"] == "T2"
    store.states.delete(["s_a"])
    assert store.states.get("s_a") is None and store.states.count() == 2


def test_meta_records_and_a_space_dropped(store: Any) -> None:
    assert store.meta.get("k") is None
    store.meta.set("k", "1")
    store.meta.set("k", "2")
    store.meta.set("keep", "x")
    assert store.meta.get("k") == "2"
    store.put_channels([
        Channel(platform="slack", space="T1", id="C1", name="general"),
        Channel(platform="slack", space="T2", id="C9", name="other", is_private=True)])
    assert [c.id for c in store.channels(space="T1")] == ["C1"]
    store.meta.drop_space(platform="slack", space="T1", keys=["k"])
    assert store.meta.get("k") is None and store.meta.get("keep") == "x"
    assert [c.id for c in store.channels()] == ["C9"]


# ---- lifecycle (the LanceDB implementation) ----------------------------------------------
def test_constructing_a_store_touches_nothing(tmp_path: Path) -> None:
    MemoryStore(uri=str(tmp_path / "lance"), lexical_dir=tmp_path / "lexical", dim=DIM)
    assert not (tmp_path / "lance").exists() and not (tmp_path / "lexical").exists()


def test_reopening_reads_only_the_nodes_after_the_index_watermark(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A warm open compares no id sets; nodes LanceDB holds beyond what the index committed
    (a crash between the two writes) are indexed again."""
    store = _lancedb(tmp_path)
    put(store, [node(store, 1, "the first checklist")])
    store.close()
    # The next batch reaches LanceDB only, as when a process dies before the index commit.
    store = _lancedb(tmp_path)
    lost = node(store, 2, "the lost checklist")
    store.inspection().put_nodes_unindexed([lost], vectors([lost]))
    store.close()

    from memory.store.lexical import LexicalIndex

    def scan(self: LexicalIndex) -> set[str]:
        raise AssertionError("a warm open must not list every indexed id")

    monkeypatch.setattr(LexicalIndex, "all_ids", scan)
    store = _lancedb(tmp_path)
    try:
        hits = {i for i, _ in store.lexical_search("checklist", Scope(space="T1"), k=5)}
        assert hits == {"n_T1C11", lost.node_id}
        assert store.lexical.committed_seq() == lost.seq
    finally:
        store.close()


def test_tables_restored_from_an_older_copy_take_the_index_back_with_them(
        tmp_path: Path) -> None:
    """Restoring ``lance/`` from a backup (the documented restore) leaves an index that
    is ahead of the tables: the open compares every id and drops what the tables lack."""
    import shutil

    store = _lancedb(tmp_path)
    put(store, [node(store, 1, "the kept checklist")])
    store.close()
    shutil.copytree(tmp_path / "lance", tmp_path / "backup")
    store = _lancedb(tmp_path)
    put(store, [node(store, 2, "the later checklist")])
    store.close()
    shutil.rmtree(tmp_path / "lance")
    shutil.copytree(tmp_path / "backup", tmp_path / "lance")
    store = _lancedb(tmp_path)
    try:
        hits = {i for i, _ in store.lexical_search("checklist", Scope(space="T1"), k=5)}
        assert hits == {"n_T1C11"}
    finally:
        store.close()


def test_constructors_read_and_delete_nothing(tmp_path: Path) -> None:
    """Opening is explicit: an index of another schema version survives construction (the
    writable open rebuilds it), and a writer built over an unopened store reads nothing."""
    from memory.embeddings import HashingEmbedder
    from memory.proposer import OfflineProposer
    from memory.registry import Registry
    from memory.registry_search import RegistrySearch
    from memory.store.lexical import LexicalIndex
    from memory.writer import Writer

    old = tmp_path / "lexical"
    old.mkdir()
    (old / "SCHEMA_VERSION").write_text("0")
    index = LexicalIndex(old)
    assert (old / "SCHEMA_VERSION").read_text() == "0"
    index.open()
    assert (old / "SCHEMA_VERSION").read_text() != "0"
    index.close()

    store = MemoryStore(uri=str(tmp_path / "lance"), lexical_dir=tmp_path / "lex2", dim=DIM)
    emb = HashingEmbedder(dim=DIM)
    registry = Registry(store=store)
    Writer(store=store, embedder=emb, proposer=OfflineProposer(), registry=registry,
           lookup=RegistrySearch(registry, emb))
    assert not (tmp_path / "lance").exists()
