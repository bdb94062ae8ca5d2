"""Edits re-verify; deletes leave no trace in any table, index, inbox or file."""

from __future__ import annotations

from pathlib import Path

from memory.models import Delete, Edit, Scope, Verdict
from memory.pipeline import Pipeline
from memory.registry import chain_of
from memory.store.inbox import Inbox
from tests.support.memory import T0, msg, open_memory, review_thread

SECRET = "Zanzibar-7731"


def _pipeline(tmp_path: Path):  # type: ignore[no-untyped-def]
    store, writer = open_memory(tmp_path)
    inbox = Inbox(tmp_path / "inbox.sqlite3")
    return store, writer, inbox, Pipeline(inbox=inbox, writer=writer, store=store)


def _nodes(store):  # type: ignore[no-untyped-def]
    return {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}


def _files_containing(root: Path, needle: str) -> list[Path]:
    data = needle.encode()
    return [p for p in root.rglob("*") if p.is_file() and data in p.read_bytes()]


def test_delete_of_active_revision_falls_back_to_previous_value(tmp_path: Path) -> None:
    store, writer, inbox, pipe = _pipeline(tmp_path)
    inbox.submit(review_thread())
    pipe.drain()
    state = _nodes(store)["1"].state_id
    inbox.submit([Delete(platform="slack", space="T1", channel="C1", id="6", ts=T0)])
    report = pipe.drain()
    assert report.deletes == 1
    nodes = _nodes(store)
    assert "6" not in nodes
    chain = chain_of(store.state_nodes([state]))  # type: ignore[list-item]
    assert [n.message_id for n in chain] == ["1", "3"]
    rec = store.states.get(state)
    assert rec is not None
    assert rec["value"] == "4 pm" and rec["active_node_id"] == nodes["3"].node_id


def test_delete_of_middle_revision_repairs_the_chain(tmp_path: Path) -> None:
    store, writer, inbox, pipe = _pipeline(tmp_path)
    inbox.submit(review_thread())
    pipe.drain()
    inbox.submit([Delete(platform="slack", space="T1", channel="C1", id="3", ts=T0)])
    pipe.drain()
    nodes = _nodes(store)
    assert nodes["6"].supersedes == nodes["1"].node_id
    # The "+1" that agreed with the deleted message no longer quotes it.
    assert "4 pm instead" not in nodes["4"].rewrite


def test_deleted_text_is_in_no_table_index_inbox_or_file(tmp_path: Path) -> None:
    store, writer, inbox, pipe = _pipeline(tmp_path)
    inbox.submit([
        msg(1, "Alice", f"the vault code is {SECRET}, deploy region eu-west-1"),
        msg(2, "Bob", "ok", thread="1", reply_to="1"),
        msg(3, "Carol", "unrelated: standup at 9:30"),
    ])
    pipe.drain()
    assert _files_containing(tmp_path, SECRET), "precondition: the text was stored"
    inbox.submit([Delete(platform="slack", space="T1", channel="C1", id="1", ts=T0)])
    pipe.drain()
    assert store.phrase_search(SECRET.lower(), Scope(), k=10) == []
    assert store.lexical_search(SECRET, Scope(), k=10) == []
    assert all(SECRET not in n.rewrite and SECRET not in n.text for n in _nodes(store).values())
    store.close()
    inbox.close()
    assert _files_containing(tmp_path, SECRET) == []


def test_edit_reverifies_the_value(tmp_path: Path) -> None:
    store, writer, inbox, pipe = _pipeline(tmp_path)
    inbox.submit(review_thread()[:3])
    pipe.drain()
    inbox.submit([Edit(platform="slack", space="T1", channel="C1", id="3",
                       text="let's do 5 pm instead", ts=T0)])
    pipe.drain()
    nodes = _nodes(store)
    assert nodes["3"].edited and nodes["3"].value == "5 pm"
    rec = store.states.get(nodes["1"].state_id)
    assert rec is not None and rec["value"] == "5 pm"


def test_edit_removing_the_value_downgrades_and_restores_previous(tmp_path: Path) -> None:
    store, writer, inbox, pipe = _pipeline(tmp_path)
    inbox.submit(review_thread()[:3])
    pipe.drain()
    inbox.submit([Edit(platform="slack", space="T1", channel="C1", id="3",
                       text="never mind, keep it as is", ts=T0)])
    pipe.drain()
    nodes = _nodes(store)
    assert nodes["3"].verdict is Verdict.CONTEXT
    rec = store.states.get(nodes["1"].state_id)
    assert rec is not None and rec["value"] == "Thursday at 3 pm"


def test_resubmitting_is_a_no_op_and_deleted_messages_stay_deleted(tmp_path: Path) -> None:
    store, writer, inbox, pipe = _pipeline(tmp_path)
    assert inbox.submit(review_thread()) == len(review_thread())
    pipe.drain()
    inbox.submit([Delete(platform="slack", space="T1", channel="C1", id="2", ts=T0)])
    pipe.drain()
    assert inbox.submit(review_thread()) == 0
    assert pipe.drain().committed == 0
    assert "2" not in _nodes(store)


def test_poison_message_is_dead_lettered_without_blocking_the_channel(tmp_path: Path) -> None:
    store, writer, inbox, pipe = _pipeline(tmp_path)
    real = writer.write

    def flaky(messages):  # type: ignore[no-untyped-def]
        if any("POISON" in m.text for m in messages):
            raise RuntimeError("writer failed")
        return real(messages)

    writer.write = flaky  # type: ignore[method-assign]
    inbox.submit([msg(1, "A", "first ok"), msg(2, "B", "POISON"), msg(3, "C", "third ok")])
    for _ in range(inbox.max_attempts):
        pipe.drain()
    assert set(_nodes(store)) == {"1", "3"}
    dead = inbox.dead_letters()
    assert [d.message_id for d in dead] == ["2"]
    writer.write = real  # type: ignore[method-assign]
    assert inbox.retry_dead() == 1
    pipe.drain()
    assert set(_nodes(store)) == {"1", "2", "3"}
