"""An edit leaves no trace of the text it replaced: not in the node, its state's topic and
description, its audit record, its search card, the replies that quoted it, the next turn's
context, old LanceDB versions or Tantivy terms.

Before, an edit kept a value and topic that were "mostly" still grounded (a secret was one
word of six), kept the audit record that quoted it, and clean-up of old versions only ran
after a drain that contained a delete.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import build
from bot.settings import Settings
from memory.models import Channel, Edit, Message, Scope, Verdict
from memory.service import Egmem
from tests.support.memory import T0
from tests.support.probe import assert_consistent, leaks

SPACE = "T1"
SECRET = "hunterqxz"


def _m(i: int, user: str, text: str, **kw: str) -> Message:
    return Message(platform="slack", space=SPACE, channel="C1", id=str(i), user=f"U{user}",
                   user_name=user, ts=T0 + timedelta(minutes=i), text=text, **kw)


def _edit(i: int, text: str, minutes: int = 30) -> Edit:
    return Edit(platform="slack", space=SPACE, channel="C1", id=str(i), text=text,
                ts=T0 + timedelta(minutes=minutes))


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[tuple[Egmem, Path]]:
    data = tmp_path / "data"
    eg = build(Settings(data=str(data), embedder="hashing"))
    eg.upsert_channels([Channel(platform="slack", space=SPACE, id="C1", name="dev")])
    try:
        yield eg, data
    finally:
        eg.close()


def _nodes(eg: Egmem) -> dict[str, object]:
    return {n.message_id: n for n in eg.store.find_nodes(Scope())}


def test_a_secret_edited_out_of_a_decision_leaves_no_trace(mem: tuple[Egmem, Path]) -> None:
    eg, data = mem
    eg.submit([
        # an everyday decision the writer tracks, whose value holds the word edited out
        _m(1, "alice", f"the offsite venue is {SECRET.capitalize()} Hall, decided"),
        _m(2, "bob", "ok thanks", thread_id="1", reply_to="1"),
    ])
    eg.drain()
    before = leaks(eg, data, SECRET)
    assert {"history", "nodes table", "states table", "lexical terms"} <= set(before), before
    assert any(w.startswith("file lance/") for w in before)

    eg.submit([_edit(1, "the offsite venue is the town library, decided")])
    report = eg.drain()
    assert report.edits == 1
    assert leaks(eg, data, SECRET) == []
    assert_consistent(eg)


def test_an_edit_that_keeps_the_value_drops_the_words_it_took_out(
        mem: tuple[Egmem, Path]) -> None:
    """The decision survives the edit; its topic, description, rewrite and the replies that
    quoted it are made from the new words."""
    eg, data = mem
    eg.submit([
        _m(1, "alice", f"the {SECRET} deploy window is Friday 3 pm"),
        _m(2, "bob", "+1 works for me", thread_id="1", reply_to="1"),
    ])
    eg.drain()
    nodes = _nodes(eg)
    assert nodes["1"].verdict is Verdict.ESTABLISH  # type: ignore[attr-defined]
    assert SECRET in nodes["2"].rewrite  # type: ignore[attr-defined]

    eg.submit([_edit(1, "the deploy window is Friday 3 pm")])
    eg.drain()
    nodes = _nodes(eg)
    root = nodes["1"]
    assert root.verdict is Verdict.ESTABLISH and root.value == "Friday 3 pm"  # type: ignore[attr-defined]
    states = eg.history("deploy window", platform="slack", space=SPACE, user=None,
                        channel=None)
    assert [s.value for s in states] == ["Friday 3 pm"]
    assert leaks(eg, data, SECRET) == []
    assert_consistent(eg)


def test_a_revision_edited_to_another_value_updates_its_state_and_the_replies(
        mem: tuple[Egmem, Path]) -> None:
    eg, data = mem
    eg.submit([
        _m(1, "alice", "the launch review is Thursday 3 pm"),
        _m(2, "bob", "review moved to 4 pm instead, wombatqz says"),
        _m(3, "carol", "+1 works for me", thread_id="2", reply_to="2"),
    ])
    eg.drain()
    assert _nodes(eg)["2"].verdict is Verdict.REVISE  # type: ignore[attr-defined]
    assert "lexical terms" in leaks(eg, data, "wombatqz")

    eg.submit([_edit(2, "review moved to 5 pm instead")])
    eg.drain()
    states = eg.history("launch review", platform="slack", space=SPACE, user=None,
                        channel=None)
    assert states[0].value == "5 pm"
    assert [e.value for e in states[0].chain] == ["Thursday 3 pm", "5 pm"]
    assert leaks(eg, data, "wombatqz") == []
    assert_consistent(eg)


def test_the_next_turn_does_not_quote_the_replaced_text(mem: tuple[Egmem, Path]) -> None:
    """The writer's cache of recent turns must not keep serving the old words."""
    eg, data = mem
    eg.submit([_m(1, "alice", f"what do you think about the {SECRET} plan?")])
    eg.drain()
    eg.submit([_edit(1, "what do you think about the plan?", minutes=2)])
    eg.drain()
    eg.submit([_m(3, "bob", "sounds fine to me")])
    eg.drain()
    reply = _nodes(eg)["3"]
    assert "plan" in reply.context  # type: ignore[attr-defined]
    assert leaks(eg, data, SECRET) == []
