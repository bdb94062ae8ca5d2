"""Deleting or forgetting a decision that others confirmed: the data directory stays
openable, and the confirmations stop quoting what was forgotten.

The decision is one message; a reply confirms it ("ok"). Removing the decision used to
queue the reply twice into one LanceDB merge ("Ambiguous merge inserts are prohibited"),
and recovery replayed the same crash on every open, so no command could start again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from bot.app import build
from bot.settings import Settings
from memory.models import Channel, Delete, Message, Scope, Verdict
from memory.service import Egmem
from tests.support.memory import T0
from tests.support.probe import assert_consistent, leaks

SPACE = "T1"


def _m(i: int, user: str, text: str, **kw: str) -> Message:
    return Message(platform="slack", space=SPACE, channel="C1", id=str(i), user=f"U{user}",
                   user_name=user, ts=T0 + timedelta(minutes=i), text=text, **kw)


DECISION = _m(1, "alice", "Design review is Thursday 3pm.")
REPLY = _m(2, "bob", "ok", thread_id="1", reply_to="1")


def _open(data: Path) -> Egmem:
    return build(Settings(data=str(data), embedder="hashing"))


@pytest.fixture
def confirmed(tmp_path: Path) -> Iterator[tuple[Egmem, Path]]:
    data = tmp_path / "data"
    eg = _open(data)
    eg.upsert_channels([Channel(platform="slack", space=SPACE, id="C1", name="dev")])
    eg.submit([DECISION, REPLY])
    eg.drain()
    try:
        yield eg, data
    finally:
        eg.close()


def _delete_event(eg: Egmem) -> None:
    eg.submit([Delete(platform="slack", space=SPACE, channel="C1", id="1")])
    report = eg.drain()
    assert report.failed == 0 and report.deletes == 1


def _forget_message(eg: Egmem) -> None:
    assert eg.forget_message(platform="slack", space=SPACE, channel="C1", message_id="1")


def _forget_user(eg: Egmem) -> None:
    assert eg.forget_user("Ualice") == 1


WAYS: dict[str, Callable[[Egmem], None]] = {
    "delete event": _delete_event, "forget --message": _forget_message,
    "forget --user": _forget_user,
}


def test_the_reply_confirms_the_decision(confirmed: tuple[Egmem, Path]) -> None:
    """The structure the other tests rely on, and the probe sees the words (a control)."""
    eg, data = confirmed
    nodes = {n.message_id: n for n in eg.store.find_nodes(Scope())}
    assert nodes["1"].verdict is Verdict.ESTABLISH
    assert nodes["2"].verdict is Verdict.RESTATE
    assert "Thursday 3pm" in nodes["2"].rewrite
    assert "design review" in nodes["2"].topic.lower()
    assert "nodes table" in leaks(eg, data, "Thursday 3pm")


@pytest.mark.parametrize("way", list(WAYS))
def test_forgetting_a_confirmed_decision_keeps_the_memory_openable(
        confirmed: tuple[Egmem, Path], way: str) -> None:
    eg, data = confirmed
    WAYS[way](eg)
    eg.close()
    eg = _open(data)  # used to raise "Ambiguous merge inserts are prohibited" here
    try:
        assert eg.stats()["evidence_nodes"] == 1
        assert eg.store.meta.get("forget_pending") in ("", None)
        nodes = {n.message_id: n for n in eg.store.find_nodes(Scope())}
        reply = nodes["2"]
        assert reply.verdict is Verdict.CONTEXT and reply.state_id is None
        # Nothing of the forgotten decision survives in the reply: not its words, its
        # value, nor the topic that was made of its words.
        for needle in ("Thursday", "3pm", "design review", "Design"):
            assert needle.lower() not in reply.model_dump_json().lower(), needle
            assert leaks(eg, data, needle) == [], needle
        assert_consistent(eg)
        assert eg.ask("when is the design review?", platform="slack", space=SPACE,
                      user=None, channel=None).abstained
    finally:
        eg.close()


def test_the_store_takes_each_node_once_per_write(confirmed: tuple[Egmem, Path]) -> None:
    """A write naming the same node twice keeps the last copy instead of failing."""
    eg, _ = confirmed
    node = eg.store.find_message(channel="C1", message_id="2")
    assert node is not None
    first = node.model_copy(update={"topic": "first"})
    last = node.model_copy(update={"topic": "last"})
    vectors = np.zeros((2, eg.store.dim), dtype=np.float32)
    eg.store.put_nodes([first, last], vectors)
    eg.store.rewrite_nodes([first, last])
    stored = eg.store.find_message(channel="C1", message_id="2")
    assert stored is not None and stored.topic == "last"
    assert eg.stats()["evidence_nodes"] == 2


def test_rederiving_names_each_node_once(confirmed: tuple[Egmem, Path],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The cause, not only the symptom: re-deriving a state whose chain is gone fixes the
    confirming reply once, not once per rule that touches it."""
    eg, _ = confirmed
    writes: list[list[str]] = []
    original = type(eg.store).rewrite_nodes

    def spy(self: object, nodes: list[object]) -> None:
        writes.append([n.node_id for n in nodes])  # type: ignore[attr-defined]
        original(self, nodes)  # type: ignore[arg-type]

    monkeypatch.setattr(type(eg.store), "rewrite_nodes", spy)
    _forget_message(eg)
    assert writes, "re-deriving wrote nothing"
    for ids in writes:
        assert len(ids) == len(set(ids)), ids


def test_a_directory_left_mid_forget_opens_and_finishes_it(
        confirmed: tuple[Egmem, Path]) -> None:
    """What the crash used to leave behind: the forget's intent recorded, the node deleted,
    the chain not yet repaired. Opening finishes the forget instead of failing."""
    eg, data = confirmed
    node = eg.store.find_message(channel="C1", message_id="1")
    assert node is not None and node.state_id
    eg.store.meta.set("forget_pending", json.dumps(
        {"ids": [node.node_id], "states": [node.state_id]}))
    eg.store.delete_nodes([node.node_id])
    eg.close()
    eg = _open(data)
    try:
        reply = eg.store.find_message(channel="C1", message_id="2")
        assert reply is not None and reply.verdict is Verdict.CONTEXT
        assert "thursday" not in reply.model_dump_json().lower()
        assert_consistent(eg)
    finally:
        eg.close()
