"""Thread replies that announce a result: the offline proposer files them under the thread's
state, not under a procedural label ("Poll's closed:", "Final answer:", "Update:").

Everything goes through the real Writer (propose → verify → commit) on a MemoryStore in a
temp dir with the HashingEmbedder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.models import EvidenceNode, Scope, Verdict
from memory.registry import chain_of
from memory.store import MemoryStore
from memory.text import is_procedural
from memory.writer import Writer
from tests.support.memory import lunch_thread, msg, open_memory

KEY = ("slack", "T1", "C1")


def _nodes(store: MemoryStore) -> dict[str, EvidenceNode]:
    return {n.message_id: n for n in store.find_nodes(Scope(space="T1"))}


def _topics(writer: Writer) -> list[str]:
    return sorted(rec.topic for rec in writer.registry.states(KEY))


def _chain_values(store: MemoryStore, state_id: str | None) -> list[str]:
    assert state_id is not None
    return [n.value for n in chain_of(store.state_nodes([state_id]))]


@pytest.mark.parametrize("reply", [
    "Poll's closed: Friday 10am it is",
    "Final answer: Friday 10am",
    "Result: Friday 10am.",
    "Update: Friday 10am",
    "ok so, final: Friday 10am",
])
def test_procedural_label_reply_revises_the_thread_state(tmp_path: Path, reply: str) -> None:
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Alice", "Atlas design review is Thursday at 3 pm"),
        msg(2, "Bob", "could we do later in the week?", thread="1", reply_to="1"),
        msg(3, "Alice", reply, thread="1", reply_to="1"),
    ])
    nodes = _nodes(store)
    state = nodes["1"].state_id
    assert nodes["3"].verdict is Verdict.REVISE
    assert nodes["3"].state_id == state
    assert nodes["3"].supersedes == nodes["1"].node_id
    assert _chain_values(store, state) == ["Thursday at 3 pm", "Friday 10am"]
    # One state, still named for what the thread is about.
    assert _topics(writer) == ["atlas design review"]


def test_result_restating_the_current_value_restates(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Alice", "Atlas design review is Thursday at 3 pm"),
        msg(2, "Alice", "Poll's closed: Thursday at 3 pm", thread="1", reply_to="1"),
    ])
    nodes = _nodes(store)
    assert nodes["2"].verdict is Verdict.RESTATE
    assert nodes["2"].state_id == nodes["1"].state_id
    assert _topics(writer) == ["atlas design review"]


def test_topical_label_about_the_thread_state_revises_it(tmp_path: Path) -> None:
    """"budget: $360k" in a thread whose state is the hiring budget is that budget."""
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Grace", "Hiring budget for 2025 is $480k"),
        msg(2, "Hugo", "budget: $360k", thread="1", reply_to="1"),
    ])
    nodes = _nodes(store)
    assert nodes["2"].verdict is Verdict.REVISE
    assert _chain_values(store, nodes["1"].state_id) == ["$480k", "$360k"]


def test_result_found_in_a_later_turn_of_the_thread(tmp_path: Path) -> None:
    """The thread's state need not be its root's: here a reply established it."""
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Alice", "Planning thread for the Atlas design review"),
        msg(2, "Alice", "the review is Thursday at 3 pm", thread="1", reply_to="1"),
        msg(3, "Bob", "Final answer: Friday 10am", thread="1", reply_to="1"),
    ])
    nodes = _nodes(store)
    assert nodes["3"].verdict is Verdict.REVISE
    assert nodes["3"].state_id == nodes["2"].state_id
    assert _chain_values(store, nodes["2"].state_id) == ["Thursday at 3 pm", "Friday 10am"]


def test_result_of_another_kind_is_filed_under_the_thread_topic(tmp_path: Path) -> None:
    """A lunch thread holds the date; the poll picks the place. A state holds one kind of
    value, so the place opens its own state — named for the lunch, not for the poll — and a
    later switch of place revises that state."""
    store, writer = open_memory(tmp_path)
    writer.write(lunch_thread())
    nodes = _nodes(store)
    result = nodes["4"]
    assert result.verdict is Verdict.ESTABLISH
    assert result.topic == "team lunch" and result.value == "Pho Saigon"
    assert "poll's closed" not in _topics(writer)
    assert nodes["5"].verdict is Verdict.REVISE and nodes["5"].state_id == result.state_id
    assert _chain_values(store, result.state_id) == ["Pho Saigon", "Taqueria Luna"]
    # The date state is untouched.
    assert _chain_values(store, nodes["1"].state_id) == ["next Friday (the 15th)"]


@pytest.mark.parametrize(("reply", "topic", "value"), [
    # Another kind of value under its own subject.
    ("venue: going with Hall B", "offsite venue", "Hall B"),
    # The same kind of value (a date), but about something else than the offsite date.
    ("Registration deadline: March 1", "registration deadline", "March 1"),
])
def test_reply_naming_another_topic_opens_its_own_state(
    tmp_path: Path, reply: str, topic: str, value: str
) -> None:
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Grace", "The offsite date is March 12"),
        msg(2, "Erin", reply, thread="1", reply_to="1"),
    ])
    nodes = _nodes(store)
    assert nodes["2"].verdict is Verdict.ESTABLISH
    assert nodes["2"].state_id != nodes["1"].state_id
    assert (nodes["2"].topic, nodes["2"].value) == (topic, value)
    assert _chain_values(store, nodes["1"].state_id) == ["March 12"]


def test_suggestion_or_question_in_the_thread_revises_nothing(tmp_path: Path) -> None:
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Alice", "Atlas design review is Thursday at 3 pm"),
        msg(2, "Bob", "maybe Friday 10am", thread="1", reply_to="1"),
        msg(3, "Carol", "Final answer: Friday 10am?", thread="1", reply_to="1"),
    ])
    nodes = _nodes(store)
    assert nodes["2"].verdict is Verdict.CONTEXT
    assert nodes["3"].verdict is Verdict.CONTEXT
    assert _chain_values(store, nodes["1"].state_id) == ["Thursday at 3 pm"]


def test_top_level_procedural_label_names_no_state(tmp_path: Path) -> None:
    """Outside a thread a "Poll's closed:" result that names no subject and answers nothing
    opens no state: a state is never named after the act of announcing ("Poll's closed"),
    and the review's own value stands."""
    store, writer = open_memory(tmp_path)
    writer.write([
        msg(1, "Alice", "Atlas design review is Thursday at 3 pm"),
        msg(2, "Alice", "Poll's closed: Friday 10am it is"),
    ])
    nodes = _nodes(store)
    assert nodes["2"].verdict is Verdict.CONTEXT
    assert "poll's closed" not in _topics(writer)
    assert _chain_values(store, nodes["1"].state_id) == ["Thursday at 3 pm"]


def test_reply_in_another_channel_cannot_reach_the_state(tmp_path: Path) -> None:
    """A message in another channel is no part of the thread (parents and states are
    looked up in the reply's own channel), so it cannot revise the thread's state."""
    store, writer = open_memory(tmp_path)
    writer.write([msg(1, "Alice", "Atlas design review is Thursday at 3 pm", channel="C1")])
    writer.write([msg(2, "Bob", "Final answer: Friday 10am", channel="C2", thread="1",
                      reply_to="1")])
    nodes = _nodes(store)
    assert nodes["2"].verdict is not Verdict.REVISE
    assert _chain_values(store, nodes["1"].state_id) == ["Thursday at 3 pm"]


@pytest.mark.parametrize(("label", "procedural"), [
    ("Poll's closed", True), ("Poll’s closed", True), ("Final answer", True),
    ("Update", True), ("ok so", True), ("Result", True), ("The votes are in", True),
    ("Launch update", False), ("budget", False), ("venue", False),
    ("Bad news on lunch", False), ("Weekly design sync", False),
])
def test_procedural_labels(label: str, procedural: bool) -> None:
    assert is_procedural(label) is procedural
